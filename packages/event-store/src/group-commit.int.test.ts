/**
 * Group commit (append-batcher.ts): concurrent appends share a batch, and each
 * is still checked and answered on its own. Real PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { event, migratedDatabase } from './int-test-support';
import { PostgresEventStore } from './postgres-event-store';
import { AppendConditionFailedError, DuplicateEventIdError, WrongExpectedRevisionError, type AppendResult } from './types';

let pool: pg.Pool;
let store: PostgresEventStore;
/** How many es.append_batch calls went to PostgreSQL. */
let batches = 0;
let streamNo = 0;
const newStream = () => `grouped-${++streamNo}`;

beforeAll(async () => {
  ({ pool } = await migratedDatabase(40));
  // A killed backend (the fault tests) ends its client; the pool reports it here.
  pool.on('error', () => undefined);
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  // Counts the batches the store sends (every other query passes through unchanged).
  (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args: unknown[]) => {
    const config = args[0] as { text?: string } | string;
    if (typeof config === 'object' && config.text?.includes('es.append_batch')) batches++;
    return query(...args);
  };
  store = new PostgresEventStore({ pool });
});
afterAll(async () => {
  await store.close();
  await pool.end();
});

const settle = <T>(promise: Promise<T>): Promise<T | Error> => promise.then((value) => value, (error: unknown) => error as Error);

describe('group commit', () => {
  test('64 concurrent appends go in fewer batches than appends, every one answered with its own position', async () => {
    const before = batches;
    const results = await Promise.all(Array.from({ length: 64 }, () =>
      store.appendToStream(newStream(), [event()], { expectedRevision: 'no_stream' })));
    expect(batches - before).toBeLessThan(64);
    const positions = results.map((r) => r.position);
    expect(new Set(positions).size).toBe(64);
    for (const result of results) expect(result).toMatchObject({ nextExpectedRevision: 0, repeated: false });
    // Each answered position holds that append's event.
    const all = await store.readAll({ after: Math.min(...positions) - 1, maxCount: 1000 });
    expect(all.filter((e) => positions.includes(e.globalPosition))).toHaveLength(64);
  });

  test('a refused append in a batch writes nothing and its neighbours are written', async () => {
    const taken = newStream();
    await store.appendToStream(taken, [event()], { expectedRevision: 'no_stream' });
    const stored = event();
    const elsewhere = newStream();
    await store.appendToStream(elsewhere, [stored], { expectedRevision: 'no_stream' });
    // Many at once so that they share batches: one wrong revision, one id stored in another stream.
    const fresh = Array.from({ length: 30 }, () => newStream());
    const wrong = newStream();
    const outcomes = await Promise.all([
      ...fresh.map((stream) => settle(store.appendToStream(stream, [event()], { expectedRevision: 'no_stream' }))),
      settle(store.appendToStream(taken, [event()], { expectedRevision: 'no_stream' })),
      settle(store.appendToStream(wrong, [stored], { expectedRevision: 'no_stream' })),
    ]);
    expect(outcomes.slice(0, 30).every((o) => !(o instanceof Error))).toBe(true);
    expect(outcomes[30]).toBeInstanceOf(WrongExpectedRevisionError);
    expect((outcomes[30] as WrongExpectedRevisionError).actual).toBe(0);
    expect(outcomes[31]).toBeInstanceOf(DuplicateEventIdError);
    expect(await store.readStream(taken)).toHaveLength(1);
    expect(await store.readStream(wrong)).toHaveLength(0);
    // The refused new stream left no row behind (it does not exist).
    expect((await pool.query('SELECT 1 FROM es.streams WHERE stream = $1', [wrong])).rowCount).toBe(0);
    for (const stream of fresh) expect(await store.readStream(stream)).toHaveLength(1);
  });

  test('a refused or repeated request leaves its existing stream at its revision, alone and in a batch', async () => {
    // The lock writes the new revision at once (migration 0004); what writes nothing must put it back.
    const revisionOf = async (stream: string) => Number((await pool.query('SELECT revision FROM es.streams WHERE stream = $1', [stream])).rows[0]?.revision);
    const alone = newStream();
    const first = event();
    await store.appendToStream(alone, [first, event()], { expectedRevision: 'no_stream' });
    // Alone (one request): a wrong revision, then a repeat of the first append's event.
    await expect(store.appendToStream(alone, [event()], { expectedRevision: 5 })).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    await expect(store.appendToStreams([{ stream: alone, events: [event()], expectedRevision: 0 }])).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(await revisionOf(alone)).toBe(1);
    await expect(store.appendToStream(alone, [first, event()], { expectedRevision: 1 })).rejects.toBeInstanceOf(DuplicateEventIdError);
    expect(await revisionOf(alone)).toBe(1);
    // In a batch: a group of two streams refused for its second stream, and a group that repeats.
    const together = newStream();
    const stored = event();
    await store.appendToStream(together, [stored], { expectedRevision: 'no_stream' });
    const fresh = Array.from({ length: 20 }, () => newStream());
    const outcomes = await Promise.all([
      ...fresh.map((stream) => settle(store.appendToStream(stream, [event()], { expectedRevision: 'no_stream' }))),
      settle(store.appendToStreams([
        { stream: alone, events: [event(), event()], expectedRevision: 1 },
        { stream: newStream(), events: [event()], expectedRevision: 3 },
      ])),
      settle(store.appendToStreams([{ stream: together, events: [stored], expectedRevision: 'no_stream' }])),
    ]);
    expect(outcomes[20]).toBeInstanceOf(WrongExpectedRevisionError);
    expect(outcomes[21]).toEqual([{ nextExpectedRevision: 0, position: expect.any(Number), repeated: true }]);
    expect(await revisionOf(alone)).toBe(1);
    expect(await revisionOf(together)).toBe(0);
    // Both go on from the revision they had.
    await store.appendToStream(alone, [event()], { expectedRevision: 1 });
    await store.appendToStream(together, [event()], { expectedRevision: 0 });
    expect((await store.readStream(alone)).map((e) => e.revision)).toEqual([0, 1, 2]);
    expect((await store.readStream(together)).map((e) => e.revision)).toEqual([0, 1]);
  });

  test('stream names with quotes, backslashes, commas and braces are stored as given, alone and in a batch', async () => {
    // The batch's arrays travel as array literals built by the store (arrayLiteral).
    const odd = ['say "hi" \\ {x}, y', 'NULL', `${newStream()} "\\"`, `Rõõmsad Ilvesed ${streamNo}`];
    await store.appendToStream(odd[0]!, [event()], { expectedRevision: 'no_stream' });
    const results = await Promise.all(odd.map((stream, i) => store.appendToStream(stream, [event()], { expectedRevision: i === 0 ? 0 : 'no_stream' })));
    expect(results.map((r) => r.nextExpectedRevision)).toEqual([1, 0, 0, 0]);
    for (const [i, stream] of odd.entries()) {
      expect((await store.readStream(stream)).map((e) => e.stream)).toEqual(i === 0 ? [stream, stream] : [stream]);
    }
  });

  test('a prepared append is checked when it is sent, not when it is prepared', async () => {
    const stream = newStream();
    // Prepared against the revision the stream will have once the append before it commits.
    const next = await store.prepareAppend([{ stream, events: [event(), event()], expectedRevision: 0 }]);
    await store.appendToStream(stream, [event()], { expectedRevision: 'no_stream' });
    expect(await next.append()).toEqual([{ nextExpectedRevision: 2, position: expect.any(Number), repeated: false }]);
    // One prepared for a stream that someone else creates first is refused at the send.
    const late = newStream();
    const refused = await store.prepareAppend([{ stream: late, events: [event()], expectedRevision: 'no_stream' }]);
    await store.appendToStream(late, [event()], { expectedRevision: 'no_stream' });
    await expect(refused.append()).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2]);
    expect(await store.readStream(late)).toHaveLength(1);
    // Malformed requests are refused when prepared.
    await expect(store.prepareAppend([{ stream, events: [{ ...event(), id: 'not-a-uuid' }], expectedRevision: 'any' }])).rejects.toBeInstanceOf(TypeError);
  });

  test('prepared appends sent together share a batch, each answered on its own', async () => {
    const streams = Array.from({ length: 20 }, () => newStream());
    const prepared = await Promise.all(streams.map((stream, i) =>
      store.prepareAppend([{ stream, events: [event()], expectedRevision: i === 5 ? 3 : 'no_stream' }])));
    const before = batches;
    const outcomes = await Promise.all(prepared.map((p) => settle(p.append())));
    expect(batches - before).toBeLessThan(20);
    expect(outcomes[5]).toBeInstanceOf(WrongExpectedRevisionError);
    const positions = outcomes.filter((o, i) => i !== 5).map((o) => (o as AppendResult[])[0]!.position);
    expect(new Set(positions).size).toBe(19);
    for (const [i, stream] of streams.entries()) expect(await store.readStream(stream)).toHaveLength(i === 5 ? 0 : 1);
  });

  test('a value PostgreSQL refuses fails only its own append, not the batch it shared', async () => {
    const streams = Array.from({ length: 20 }, () => newStream());
    const bad = newStream();
    const outcomes = await Promise.all([
      ...streams.map((stream) => settle(store.appendToStream(stream, [event()], { expectedRevision: 'no_stream' }))),
      // jsonb cannot hold U+0000: PostgreSQL refuses the whole statement it is in.
      settle(store.appendToStream(bad, [event('Happened', { text: 'a\u0000b' })], { expectedRevision: 'no_stream' })),
    ]);
    expect(outcomes.slice(0, 20).every((o) => !(o instanceof Error))).toBe(true);
    expect(outcomes[20]).toBeInstanceOf(Error);
    for (const stream of streams) expect(await store.readStream(stream)).toHaveLength(1);
    expect(await store.readStream(bad)).toHaveLength(0);
  });

  test('appends to one stream never share a batch: each sees the one before (no lost update)', async () => {
    const stream = newStream();
    // 20 appends with 'any' race for one stream; every one is written, revisions 0..19.
    const results: AppendResult[] = await Promise.all(Array.from({ length: 20 }, () =>
      store.appendToStream(stream, [event()], { expectedRevision: 'any' })));
    expect(results.map((r) => r.nextExpectedRevision).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect((await store.readStream(stream)).map((e) => e.revision)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});

describe('readStreams', () => {
  test('several streams in one query, each from its revision, in request order; a missing one is empty', async () => {
    const a = newStream();
    const b = newStream();
    await store.appendToStream(a, [event(), event(), event()], { expectedRevision: 'no_stream' });
    const first = event();
    await store.appendToStream(b, [first], { expectedRevision: 'no_stream' });
    const read = await store.readStreams([{ stream: a, fromRevision: 1 }, { stream: b }, { stream: newStream() }], { eventId: first.id });
    const [fromA, fromB, missing] = read.streams;
    expect(fromA!.map((e) => [e.stream, e.revision])).toEqual([[a, 1], [a, 2]]);
    expect(fromB!.map((e) => [e.stream, e.revision])).toEqual([[b, 0]]);
    expect(missing).toEqual([]);
    expect(read.event?.id).toBe(first.id);
    expect((await store.readStreams([{ stream: a }], { eventId: randomUUID() })).event).toBeNull();
  });
});

describe('appendToStreamsIf', () => {
  test('commits when the condition holds; its own events, written before the check, do not count', async () => {
    const stream = newStream();
    const head = await store.headPosition();
    const result = await store.appendToStreamsIf([{ stream, events: [event()], expectedRevision: 'no_stream' }], { noneAfter: head, selectors: [{ streams: [stream] }] });
    expect(result[0]).toMatchObject({ nextExpectedRevision: 0 });
    expect(await store.readStream(stream)).toHaveLength(1);
  });

  test('rolls back when the condition fails: AppendConditionFailedError, nothing written, no stream row', async () => {
    const stream = newStream();
    const watched = newStream();
    const head = await store.headPosition();
    await store.appendToStream(watched, [event()], { expectedRevision: 'no_stream' });
    const error = await store.appendToStreamsIf([{ stream, events: [event()], expectedRevision: 'no_stream' }], { noneAfter: head, selectors: [{ streams: [watched] }] })
      .then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(AppendConditionFailedError);
    expect(await store.readStream(stream)).toHaveLength(0);
    expect((await pool.query('SELECT 1 FROM es.streams WHERE stream = $1', [stream])).rowCount).toBe(0);
  });

  test('a writer of a watched stream waits until the conditional append ends (it cannot slip in between the check and the commit)', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => { entered = resolve; });
    // The test-only hook runs after the condition's check, under the append's locks.
    const holding = new PostgresEventStore({ pool, beforeCommit: async () => { entered(); await held; } });
    const [stream, watched] = [newStream(), newStream()];
    const head = await store.headPosition();
    const conditional = holding.appendToStreamsIf([{ stream, events: [event()], expectedRevision: 'no_stream' }], { noneAfter: head, selectors: [{ streams: [watched] }] });
    await inside;
    const other = store.appendToStream(watched, [event()], { expectedRevision: 'no_stream' });
    // Wait until the other writer is blocked on a lock the conditional append holds.
    while (Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM pg_locks WHERE NOT granted')).rows[0]!.n) === 0);
    release();
    const [done] = await conditional;
    expect((await other).position).toBeGreaterThan(done!.position);
  });
});

describe('faults', () => {
  /** Kills the backend of the batch that waits for a lock (a crash, a network cut), once it waits. */
  async function killWaitingBatch(): Promise<void> {
    for (let i = 0; i < 300; i++) {
      const { rows } = await pool.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE query LIKE '%es.append_batch%' AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`);
      if (rows[0]) {
        await pool.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('no batch waited for the lock');
  }

  /** Holds `stream`'s row in another session until `release` (the batch then waits inside es.append_batch). */
  async function holdStream(stream: string): Promise<{ release(): Promise<void> }> {
    const holder = await pool.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM es.streams WHERE stream = $1 FOR UPDATE', [stream]);
    return {
      async release() {
        await holder.query('COMMIT');
        holder.release();
      },
    };
  }

  test('a batch whose connection is killed: each of its appends is sent again alone and stored once', async () => {
    const blocked = newStream();
    await store.appendToStream(blocked, [event()], { expectedRevision: 'no_stream' });
    const hold = await holdStream(blocked);
    // The first append goes at once; the next six queue behind it and leave together as one batch.
    const first = store.appendToStream(newStream(), [event()], { expectedRevision: 'no_stream' });
    const free = Array.from({ length: 5 }, () => newStream());
    const grouped = [
      store.appendToStream(blocked, [event()], { expectedRevision: 0 }),
      ...free.map((stream) => store.appendToStream(stream, [event()], { expectedRevision: 'no_stream' })),
    ];
    await first;
    await killWaitingBatch();
    // Sent again alone: the free ones are written while the held stream still waits.
    for (const stream of free) {
      for (let i = 0; i < 300 && (await store.readStream(stream)).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await store.readStream(stream)).toHaveLength(1);
    }
    await hold.release();
    const results = await Promise.all(grouped);
    expect(results[0]).toMatchObject({ nextExpectedRevision: 1, repeated: false });
    expect(await store.readStream(blocked)).toHaveLength(2);
  });

  test('a lone append whose connection is killed is sent once more and stored once', async () => {
    const blocked = newStream();
    await store.appendToStream(blocked, [event()], { expectedRevision: 'no_stream' });
    const hold = await holdStream(blocked);
    const append = store.appendToStream(blocked, [event()], { expectedRevision: 0 });
    await killWaitingBatch();
    // The second try waits for the held row too; released, it is written.
    await waitingAgain();
    await hold.release();
    expect(await append).toMatchObject({ nextExpectedRevision: 1 });
    expect(await store.readStream(blocked)).toHaveLength(2);
  });

  /** Waits until a second try of a batch waits for the lock again (it was sent, not given up). */
  async function waitingAgain(): Promise<void> {
    for (let i = 0; i < 300; i++) {
      const { rows } = await pool.query(`SELECT 1 FROM pg_stat_activity WHERE query LIKE '%es.append_batch%' AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`);
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the append was not sent again');
  }
});
