/**
 * The one write path against a real PostgreSQL event store (the repository has
 * no in-memory EventStore): a decision across two streams is one atomic append; a wrong expected
 * revision is retried from a fresh read; repeated conflicts end in CONCURRENCY_CONFLICT; a
 * repeated command id appends nothing and answers the first position; after-commit hooks (the
 * command's and the store's, withAfterCommit) run once after a commit and never after a refusal,
 * a repeat or a zero-event check.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { DomainError, type DecisionContext } from '@sinilill/domain';
import { PostgresEventStore, eventStoreMigrations, runMigrations, type AppendRequest, type EventStore } from '@sinilill/event-store';
import { createScratchDatabase } from '@sinilill/local-infra';
import { withAfterCommit } from '../after-commit';
import { MAX_ATTEMPTS, executeCommand, type CommandSpec, type StreamReads } from './command-handler';
import { eventIdFor, type CommandMetadata } from './metadata';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string;
  }
}

const context: DecisionContext = {
  now: '2025-04-15T09:00:00.000Z',
  actor: { userId: null, role: 'SYSTEM', participantId: null, teamId: null },
  entryInsertionEnabled: true,
};

/** A fresh command's metadata. */
const command = (): CommandMetadata => {
  const commandId = `test:${randomUUID()}`;
  return { commandId, correlationId: commandId, causationId: null };
};

/** An event any stream may take (the store checks no types); `n` = how many events the stream had. */
const counted = (read: StreamReads, stream: string) => ({ type: 'EntryDeleted' as const, data: { seen: read.events(stream).length } });

/** An event written by "someone else" straight to the store. */
async function foreignWrite(store: EventStore, stream: string): Promise<void> {
  await store.appendToStream(stream, [{
    id: randomUUID(), type: 'EntryDeleted', schemaVersion: 1, data: { foreign: true },
    metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: 'foreign', causationId: null },
  }], { expectedRevision: 'any' });
}

/** The store with every appendToStreams recorded, and `before` run before each (a racing writer). */
function spying(store: EventStore, before?: (requests: AppendRequest[]) => Promise<void>) {
  const appends: AppendRequest[][] = [];
  const reads: string[] = [];
  const spy: EventStore = {
    ...store,
    appendToStream: (stream, events, options) => store.appendToStream(stream, events, options),
    appendToStreams: async (requests) => {
      appends.push(requests);
      await before?.(requests);
      return store.appendToStreams(requests);
    },
    readStream: (stream, options) => {
      reads.push(stream);
      return store.readStream(stream, options);
    },
    readAll: (options) => store.readAll(options),
    headPosition: () => store.headPosition(),
    findEvent: (id) => store.findEvent(id),
    close: () => store.close(),
  };
  return { spy, appends, reads };
}

describe('executeCommand', () => {
  let pool: pg.Pool;
  let store: EventStore;

  beforeAll(async () => {
    const url = await createScratchDatabase(inject('databaseServerUrl'), 'cmd');
    pool = new pg.Pool({ connectionString: url, max: 6 });
    await runMigrations(pool, [eventStoreMigrations]);
    store = new PostgresEventStore({ pool });
  }, 120_000);

  afterAll(async () => {
    await store.close();
    await pool.end();
  });

  /** A command writing one event to each of `writes` after reading `reads` too. */
  const spec = (metadata: CommandMetadata, writes: string[], reads: string[] = []): CommandSpec => ({
    streams: [...writes, ...reads],
    context,
    metadata,
    decide: (read) => [...writes.map((stream) => ({ stream, events: [counted(read, stream)] })), ...reads.map((stream) => ({ stream, events: [] }))],
  });

  test('a decision across two streams is one atomic append, event ids running across the streams in order', async () => {
    const { spy, appends } = spying(store);
    const metadata = command();
    const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    const outcome = await executeCommand(spy, spec(metadata, [a, b]));
    expect(appends).toHaveLength(1);
    expect(appends[0]!.map((request) => [request.stream, request.events.length, request.expectedRevision])).toEqual([[a, 1, 'no_stream'], [b, 1, 'no_stream']]);
    const [first] = await store.readStream(a);
    const [second] = await store.readStream(b);
    expect([first!.id, second!.id]).toEqual([eventIdFor(metadata.commandId, 0), eventIdFor(metadata.commandId, 1)]);
    expect(second!.globalPosition).toBe(first!.globalPosition + 1);
    expect(outcome).toMatchObject({ repeated: false, position: second!.globalPosition, written: [a, b] });
    expect(outcome.events).toHaveLength(2);
  });

  test('a refusal of any part appends nothing', async () => {
    const { spy, appends } = spying(store);
    const a = `a-${randomUUID()}`;
    await expect(executeCommand(spy, {
      ...spec(command(), [a]),
      decide: () => { throw new DomainError('FORBIDDEN', 'no'); },
    })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(appends).toHaveLength(0);
    expect(await store.readStream(a)).toEqual([]);
  });

  test('a wrong expected revision is retried from a fresh read and a fresh decision, and succeeds', async () => {
    const a = `a-${randomUUID()}`;
    let raced = false;
    const { spy, appends, reads } = spying(store, async () => {
      if (raced) return;
      raced = true;
      await foreignWrite(store, a);
    });
    const outcome = await executeCommand(spy, spec(command(), [a]));
    expect(appends).toHaveLength(2);
    expect(reads.filter((stream) => stream === a)).toHaveLength(2); // once per attempt
    const events = await store.readStream(a);
    expect(events.map((event) => event.data)).toEqual([{ foreign: true }, { seen: 1 }]);
    expect(outcome.position).toBe(events[1]!.globalPosition);
  });

  test('a stream read but not written is checked at the append (zero events): its change is a conflict, retried', async () => {
    const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    await foreignWrite(store, b);
    let raced = false;
    const { spy, appends } = spying(store, async () => {
      if (raced) return;
      raced = true;
      await foreignWrite(store, b);
    });
    await executeCommand(spy, spec(command(), [a], [b]));
    expect(appends[0]!.map((request) => [request.stream, request.events.length, request.expectedRevision])).toEqual([[a, 1, 'no_stream'], [b, 0, 0]]);
    expect(appends).toHaveLength(2);
    expect(appends[1]![1]).toMatchObject({ stream: b, events: [], expectedRevision: 1 });
    expect((await store.readStream(b)).map((event) => event.data)).toEqual([{ foreign: true }, { foreign: true }]);
  });

  test(`conflicts on every attempt end in CONCURRENCY_CONFLICT after ${MAX_ATTEMPTS} attempts, with nothing of the command stored`, async () => {
    const a = `a-${randomUUID()}`;
    const metadata = command();
    const { spy, appends } = spying(store, () => foreignWrite(store, a));
    let committed = 0;
    const error = await executeCommand(spy, { ...spec(metadata, [a]), afterCommit: () => { committed++; } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'CONCURRENCY_CONFLICT' });
    expect(appends).toHaveLength(MAX_ATTEMPTS);
    expect(await store.findEvent(eventIdFor(metadata.commandId, 0))).toBeNull();
    expect(committed).toBe(0);
  });

  test('a repeated command id appends nothing and answers the first run\'s position', async () => {
    const { spy, appends } = spying(store);
    const metadata = command();
    const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    const first = await executeCommand(spy, spec(metadata, [a, b]));
    const again = await executeCommand(spy, spec(metadata, [a, b]));
    expect(appends).toHaveLength(1);
    expect(again).toMatchObject({ repeated: true, position: first.position, events: [] });
    expect(again.prior?.id).toBe(eventIdFor(metadata.commandId, 0));
    expect(await store.readStream(a)).toHaveLength(1);
  });

  test('after-commit hooks run once after a commit, not after a refusal, a repeat or an empty decision', async () => {
    const woken: number[] = [];
    const hooked = withAfterCommit(store, (position) => { woken.push(position); });
    const committed: number[] = [];
    const afterCommit = (outcome: { position: number }) => { committed.push(outcome.position); };
    const metadata = command();
    const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`];

    const first = await executeCommand(hooked, { ...spec(metadata, [a], [b]), afterCommit });
    expect(committed).toEqual([first.position]);
    expect(woken).toEqual([first.position]);

    await executeCommand(hooked, { ...spec(metadata, [a], [b]), afterCommit }); // a repeat
    await expect(executeCommand(hooked, { ...spec(command(), [a]), afterCommit, decide: () => { throw new DomainError('NOT_FOUND'); } }))
      .rejects.toMatchObject({ code: 'NOT_FOUND' });
    const empty = await executeCommand(hooked, { ...spec(command(), [], [a]), afterCommit });
    expect(empty).toMatchObject({ repeated: false, position: 0, events: [] });
    expect(committed).toEqual([first.position]);
    expect(woken).toEqual([first.position]);
  });

  test('the after-commit hook of the store is called for a write, not for a zero-event check nor a repeat of an append', async () => {
    const woken: number[] = [];
    const hooked = withAfterCommit(store, (position) => { woken.push(position); });
    const a = `a-${randomUUID()}`;
    await foreignWrite(store, a);
    await hooked.appendToStreams([{ stream: a, events: [], expectedRevision: 0 }]);
    expect(woken).toEqual([]);
    const event = {
      id: randomUUID(), type: 'EntryDeleted', schemaVersion: 1, data: {},
      metadata: { actor: { userId: null, role: 'SYSTEM' as const }, correlationId: 'x', causationId: null },
    };
    const written = await hooked.appendToStream(a, [event], { expectedRevision: 0 });
    expect(woken).toEqual([written.position]);
    await foreignWrite(store, a); // the stream moves on: a repeat of the append below is told from a write
    await hooked.appendToStream(a, [event], { expectedRevision: 0 });
    expect(woken).toEqual([written.position]);
  });
});
