import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import pg from 'pg';
import { event, metadata, migratedDatabase, sleep } from './int-test-support';
import { eventStoreMigrations, runMigrations } from './migrations';
import { PostgresEventStore } from './postgres-event-store';
import { DuplicateEventIdError, WrongExpectedRevisionError, type EventStore } from './types';

let url: string;
let pool: pg.Pool;
let store: EventStore;
let streamNo = 0;
/** A stream name no other test uses (tests share one database). */
const newStream = (kind = 'thing') => `${kind}-${++streamNo}`;

beforeAll(async () => {
  ({ url, pool } = await migratedDatabase());
  store = new PostgresEventStore({ pool });
});
afterAll(async () => {
  await store.close();
  await pool.end();
});

async function wrongRevision(promise: Promise<unknown>): Promise<WrongExpectedRevisionError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  return error as WrongExpectedRevisionError;
}

/** Given a stream with `n` events. */
async function givenStream(n: number, stream = newStream()): Promise<string> {
  if (n > 0) await store.appendToStream(stream, Array.from({ length: n }, () => event()), { expectedRevision: 'any' });
  return stream;
}

describe('migration', () => {
  test('running it again, even concurrently, changes nothing', async () => {
    const nothing = { name: 'event store', schema: 'es', adopted: [], applied: [], latest: '0002-append-batch' };
    const migrate = () => runMigrations(pool, [eventStoreMigrations]);
    expect(await Promise.all([migrate(), migrate()])).toEqual([[nothing], [nothing]]);
    const { rows } = await pool.query('SELECT name FROM es.kysely_migration ORDER BY name');
    expect(rows).toEqual([{ name: '0001-event-log' }, { name: '0002-append-batch' }]);
  });
});

describe('expected revision', () => {
  test("'no_stream' on a new stream appends from revision 0", async () => {
    const stream = newStream();
    const result = await store.appendToStream(stream, [event(), event()], { expectedRevision: 'no_stream' });
    expect(result.nextExpectedRevision).toBe(1);
    expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1]);
    expect(result.position).toBe((await store.readStream(stream))[1]!.globalPosition);
  });

  test("'no_stream' on an existing stream conflicts with its revision", async () => {
    const stream = await givenStream(2);
    const error = await wrongRevision(store.appendToStream(stream, [event()], { expectedRevision: 'no_stream' }));
    expect(error).toMatchObject({ stream, expected: 'no_stream', actual: 1 });
    expect(await store.readStream(stream)).toHaveLength(2);
  });

  test("'stream_exists' on a missing stream conflicts with actual null and creates nothing", async () => {
    const stream = newStream();
    const error = await wrongRevision(store.appendToStream(stream, [event()], { expectedRevision: 'stream_exists' }));
    expect(error).toMatchObject({ stream, expected: 'stream_exists', actual: null });
    expect(await store.readStream(stream)).toEqual([]);
    expect((await pool.query('SELECT 1 FROM es.streams WHERE stream = $1', [stream])).rowCount).toBe(0);
  });

  test("'stream_exists' on an existing stream appends", async () => {
    const stream = await givenStream(1);
    expect((await store.appendToStream(stream, [event()], { expectedRevision: 'stream_exists' })).nextExpectedRevision).toBe(1);
  });

  test("'any' appends to missing and existing streams", async () => {
    const stream = newStream();
    expect((await store.appendToStream(stream, [event()], { expectedRevision: 'any' })).nextExpectedRevision).toBe(0);
    expect((await store.appendToStream(stream, [event()], { expectedRevision: 'any' })).nextExpectedRevision).toBe(1);
  });

  test('a number equal to the last revision appends; any other number conflicts', async () => {
    const stream = await givenStream(3);
    const stale = await wrongRevision(store.appendToStream(stream, [event()], { expectedRevision: 1 }));
    expect(stale).toMatchObject({ expected: 1, actual: 2 });
    const ahead = await wrongRevision(store.appendToStream(stream, [event()], { expectedRevision: 5 }));
    expect(ahead.actual).toBe(2);
    const result = await store.appendToStream(stream, [event(), event()], { expectedRevision: 2 });
    expect(result.nextExpectedRevision).toBe(4);
    expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
  });

  test('a number on a missing stream conflicts with actual null (0 is not "no stream")', async () => {
    const error = await wrongRevision(store.appendToStream(newStream(), [event()], { expectedRevision: 0 }));
    expect(error.actual).toBeNull();
  });

  test('an empty append only checks the revision', async () => {
    const stream = await givenStream(2);
    const [last] = (await store.readStream(stream, { fromRevision: 1 }));
    expect(await store.appendToStream(stream, [], { expectedRevision: 1 })).toEqual({ nextExpectedRevision: 1, position: last!.globalPosition, repeated: false });
    await wrongRevision(store.appendToStream(stream, [], { expectedRevision: 0 }));
    expect(await store.appendToStream(newStream(), [], { expectedRevision: 'no_stream' })).toEqual({ nextExpectedRevision: -1, position: 0, repeated: false });
  });

  test('malformed requests are rejected before touching the database', async () => {
    await expect(store.appendToStream(newStream(), [event()], { expectedRevision: -1 })).rejects.toThrow(TypeError);
    await expect(store.appendToStream(newStream(), [event(undefined, {}, { id: 'nope' })], { expectedRevision: 'any' })).rejects.toThrow(TypeError);
  });
});

describe('concurrency', () => {
  test('two connections racing with the same expected revision: exactly one wins', async () => {
    const poolA = new pg.Pool({ connectionString: url, max: 2 });
    const poolB = new pg.Pool({ connectionString: url, max: 2 });
    const a = new PostgresEventStore({ pool: poolA });
    const b = new PostgresEventStore({ pool: poolB });
    try {
      for (let round = 0; round < 30; round++) {
        const stream = await givenStream(round % 2); // also races on a missing stream
        const expectedRevision = round % 2 === 0 ? ('no_stream' as const) : 0;
        const outcomes = await Promise.allSettled([
          a.appendToStream(stream, [event('A')], { expectedRevision }),
          b.appendToStream(stream, [event('B')], { expectedRevision }),
        ]);
        const won = outcomes.filter((o) => o.status === 'fulfilled');
        const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        expect(lost[0]!.reason).toBeInstanceOf(WrongExpectedRevisionError);
        expect((lost[0]!.reason as WrongExpectedRevisionError).actual).toBe(round % 2 === 0 ? 0 : 1);
        expect(await store.readStream(stream)).toHaveLength((round % 2) + 1);
      }
    } finally {
      await poolA.end();
      await poolB.end();
    }
  });

  test('the loser waits for the winner (held before commit) and then conflicts with its revision', async () => {
    const stream = await givenStream(1);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const isHolding = new Promise<void>((resolve) => (holding = resolve));
    const slow = new PostgresEventStore({ pool, beforeCommit: async () => { holding(); await held; } });
    const winner = slow.appendToStream(stream, [event()], { expectedRevision: 0 });
    await isHolding;
    const loser = store.appendToStream(stream, [event()], { expectedRevision: 0 }).catch((e: unknown) => e);
    await sleep(100);
    release();
    expect((await winner).nextExpectedRevision).toBe(1);
    expect(await loser).toMatchObject({ name: 'WrongExpectedRevisionError', actual: 1 });
  });
});

describe('idempotency', () => {
  test('the same events appended twice are stored once, with the same result, whatever the second expected', async () => {
    const stream = newStream();
    const events = [event(), event()];
    const first = await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
    const again = await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
    expect(first.repeated).toBe(false);
    expect(again).toEqual({ ...first, repeated: true });
    expect(await store.readStream(stream)).toHaveLength(2);
  });

  test('a repeat after later appends returns the current revision and the position of its own last event', async () => {
    const stream = newStream();
    const events = [event()];
    const first = await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
    await store.appendToStream(stream, [event()], { expectedRevision: 0 });
    expect(await store.appendToStream(stream, events, { expectedRevision: 0 })).toEqual({ nextExpectedRevision: 1, position: first.position, repeated: true });
  });

  test('only some ids already stored: DuplicateEventIdError and nothing written', async () => {
    const stream = newStream();
    const stored = event();
    await store.appendToStream(stream, [stored], { expectedRevision: 'any' });
    const error = await store.appendToStream(stream, [stored, event()], { expectedRevision: 'any' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DuplicateEventIdError);
    expect((error as DuplicateEventIdError).eventId).toBe(stored.id);
    expect(await store.readStream(stream)).toHaveLength(1);
  });

  test('an id stored in another stream: DuplicateEventIdError', async () => {
    const stored = event();
    await store.appendToStream(newStream(), [stored], { expectedRevision: 'any' });
    await expect(store.appendToStream(newStream(), [stored], { expectedRevision: 'any' })).rejects.toBeInstanceOf(DuplicateEventIdError);
  });

  test('the same id racing into two streams: the loser gets DuplicateEventIdError, not a unique violation', async () => {
    const shared = event();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const isHolding = new Promise<void>((resolve) => (holding = resolve));
    const slow = new PostgresEventStore({ pool, beforeCommit: async () => { holding(); await held; } });
    const winner = slow.appendToStream(newStream(), [shared], { expectedRevision: 'any' });
    await isHolding;
    const loser = store.appendToStream(newStream(), [shared], { expectedRevision: 'any' }).catch((e: unknown) => e);
    await sleep(100);
    release();
    await winner;
    expect(await loser).toBeInstanceOf(DuplicateEventIdError);
  });

  test('the same append racing with itself is stored once and both callers get its result', async () => {
    const stream = newStream();
    const events = [event(), event()];
    const [a, b] = await Promise.all([
      store.appendToStream(stream, events, { expectedRevision: 'no_stream' }),
      store.appendToStream(stream, events, { expectedRevision: 'no_stream' }),
    ]);
    // One of them wrote the events, the other found them stored (a repeat); otherwise the same answer.
    expect([a.repeated, b.repeated].sort()).toEqual([false, true]);
    expect({ ...a, repeated: null }).toEqual({ ...b, repeated: null });
    expect(await store.readStream(stream)).toHaveLength(2);
  });
});

describe('multi-stream append', () => {
  test('appends to every stream, results in request order, positions in request order', async () => {
    const [s1, s2] = [newStream('zeta'), newStream('alpha')];
    await givenStream(1, s2);
    const results = await store.appendToStreams([
      { stream: s1, events: [event(), event()], expectedRevision: 'no_stream' },
      { stream: s2, events: [event()], expectedRevision: 0 },
    ]);
    expect(results.map((r) => r.nextExpectedRevision)).toEqual([1, 1]);
    expect(results[1]!.position).toBe(results[0]!.position + 1);
    const events = await store.readAll({ after: results[0]!.position - 2, maxCount: 10 });
    expect(events.map((e) => [e.stream, e.revision])).toEqual([[s1, 0], [s1, 1], [s2, 1]]);
  });

  test('one conflicting stream: nothing is written to any stream', async () => {
    const [ok, conflicting] = [newStream(), await givenStream(1)];
    const head = await store.headPosition();
    const error = await wrongRevision(
      store.appendToStreams([
        { stream: ok, events: [event()], expectedRevision: 'no_stream' },
        { stream: conflicting, events: [event()], expectedRevision: 'no_stream' },
      ]),
    );
    expect(error).toMatchObject({ stream: conflicting, actual: 0 });
    expect(await store.readStream(ok)).toEqual([]);
    expect(await store.readStream(conflicting)).toHaveLength(1);
    expect(await store.headPosition()).toBe(head);
  });

  test('a stream named twice is rejected', async () => {
    const stream = newStream();
    await expect(
      store.appendToStreams([
        { stream, events: [event()], expectedRevision: 'any' },
        { stream, events: [event()], expectedRevision: 'any' },
      ]),
    ).rejects.toThrow(TypeError);
  });
});

describe('reads', () => {
  test('readStream: from a revision, at most maxCount; a missing stream is empty', async () => {
    const stream = await givenStream(5);
    expect((await store.readStream(stream, { fromRevision: 1, maxCount: 3 })).map((e) => e.revision)).toEqual([1, 2, 3]);
    expect(await store.readStream(newStream())).toEqual([]);
  });

  test('readAll in batches returns every event once, strictly after the checkpoint, in position order', async () => {
    const start = await store.headPosition();
    const streams = [newStream(), newStream(), newStream()];
    const written: string[] = [];
    for (let i = 0; i < 10; i++) {
      const e = event();
      written.push(e.id);
      await store.appendToStream(streams[i % 3]!, [e], { expectedRevision: 'any' });
    }
    const seen: number[] = [];
    const ids: string[] = [];
    for (let after = start; ; ) {
      const batch = await store.readAll({ after, maxCount: 3 });
      if (batch.length === 0) break;
      expect(batch.length).toBeLessThanOrEqual(3);
      expect(batch[0]!.globalPosition).toBeGreaterThan(after);
      seen.push(...batch.map((e) => e.globalPosition));
      ids.push(...batch.map((e) => e.id));
      after = batch.at(-1)!.globalPosition;
    }
    expect(ids).toEqual(written);
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect(seen.at(-1)).toBe(await store.headPosition());
  });

  test('readAll with types returns only those types, in position order', async () => {
    const start = await store.headPosition();
    const stream = newStream();
    await store.appendToStream(stream, [event('TeamRegistered'), event('EntryAdded'), event('Noise'), event('EntryAdded')], {
      expectedRevision: 'no_stream',
    });
    const filtered = await store.readAll({ after: start, maxCount: 10, types: ['EntryAdded', 'TeamRegistered'] });
    expect(filtered.map((e) => [e.type, e.revision])).toEqual([['TeamRegistered', 0], ['EntryAdded', 1], ['EntryAdded', 3]]);
    expect(await store.readAll({ after: start, maxCount: 10, types: ['Nothing'] })).toEqual([]);
    expect(await store.readAll({ after: start, maxCount: 10, types: ['EntryAdded', 'EntryAdded'] })).toHaveLength(2);
    expect(await store.readAll({ after: filtered[0]!.globalPosition, maxCount: 1, types: ['EntryAdded'] })).toHaveLength(1);
  });

  test('data, metadata, schema version and recording time round-trip', async () => {
    const stream = newStream();
    const meta = metadata({
      actor: { userId: null, role: 'SYSTEM' },
      causationId: '3f1c1f8e-46a4-4bd5-9b8c-65d2c0d7e3a1',
      imported: true,
      commandId: 'cmd-42',
    });
    const data = { km: 12.34, note: 'Tänan! "quoted" \\ 🚶', nested: { list: [1, null, true] } };
    const written = event('EntryAdded', data, { schemaVersion: 3, metadata: meta });
    const before = new Date(Date.now() - 5_000);
    const { position } = await store.appendToStream(stream, [written], { expectedRevision: 'no_stream' });
    const [read] = await store.readStream(stream);
    expect(read).toMatchObject({ ...written, stream, revision: 0, globalPosition: position });
    expect(read!.recordedAt).toBeInstanceOf(Date);
    expect(read!.recordedAt.getTime()).toBeGreaterThan(before.getTime());
    expect(await store.findEvent(written.id)).toEqual(read);
    const [viaAll] = await store.readAll({ after: position - 1, maxCount: 1 });
    expect(viaAll).toEqual(read);
  });

  test('findEvent: null for an unknown id and for a non-UUID', async () => {
    expect(await store.findEvent('8c5d1a7e-0000-4000-8000-000000000000')).toBeNull();
    expect(await store.findEvent('not-a-uuid')).toBeNull();
  });

  test('headPosition of an empty log is 0', async () => {
    const empty = await migratedDatabase(1);
    try {
      expect(await new PostgresEventStore({ pool: empty.pool }).headPosition()).toBe(0);
    } finally {
      await empty.pool.end();
    }
  });
});

describe('close', () => {
  test("does not end a caller's pool; a store with its own pool ends it", async () => {
    const borrowed = new PostgresEventStore({ pool });
    await borrowed.close();
    await expect(borrowed.headPosition()).rejects.toThrow(/closed/);
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    const own = new PostgresEventStore({ connectionString: url });
    expect(await own.headPosition()).toBeGreaterThan(0);
    await own.close();
  });
});
