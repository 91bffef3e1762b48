/**
 * PostgresEventStore beyond the EventStore contract: what only PostgreSQL has or documents
 * (migrations, rows in es.streams, empty appends, request validation, races between connections
 * and held commits, pool ownership). The interface's behaviour (expected revisions, idempotency,
 * multi-stream atomicity, reads, ordering, erasure) is tested for every adapter by the contract
 * suite: event-store-contract.int.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import pg from 'pg';
import { event, migratedDatabase, sleep } from './int-test-support';
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
    const nothing = { name: 'event store', schema: 'es', adopted: [], renamed: [], applied: [], latest: '0004-lean-append' };
    const migrate = () => runMigrations(pool, [eventStoreMigrations]);
    expect(await Promise.all([migrate(), migrate()])).toEqual([[nothing], [nothing]]);
    const { rows } = await pool.query('SELECT name FROM es.kysely_migration ORDER BY name');
    expect(rows).toEqual([{ name: '0001-event-log' }, { name: '0002-append-batch' }, { name: '0003-payload-indexes' }, { name: '0004-lean-append' }]);
  });
});

describe('expected revision', () => {
  test("a conflict on a missing stream leaves no row in es.streams", async () => {
    const stream = newStream();
    await wrongRevision(store.appendToStream(stream, [event()], { expectedRevision: 'stream_exists' }));
    expect((await pool.query('SELECT 1 FROM es.streams WHERE stream = $1', [stream])).rowCount).toBe(0);
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
});

describe('multi-stream append', () => {
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
  test('findEvent: null for a non-UUID (not a query error)', async () => {
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
