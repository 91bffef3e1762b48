/**
 * The checkpoint-reader guarantee: a reader that repeatedly calls readAll({ after: checkpoint })
 * and moves its checkpoint to the last position it saw eventually sees every committed event,
 * even though transactions commit in another order than they started.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import pg from 'pg';
import { event, migratedDatabase, sleep } from './int-test-support';
import { PostgresEventStore } from './postgres-event-store';
import { WrongExpectedRevisionError, type EventStore, type RecordedEvent } from './types';

let url: string;
let pool: pg.Pool;

beforeAll(async () => {
  ({ url, pool } = await migratedDatabase(30));
});
afterAll(async () => {
  await pool.end();
});

/** A reader that keeps a checkpoint, as the projector does. */
function checkpointReader(store: EventStore, after = 0, maxCount = 100) {
  const seen: RecordedEvent[] = [];
  return {
    seen,
    get checkpoint() {
      return after;
    },
    async poll(): Promise<RecordedEvent[]> {
      const batch = await store.readAll({ after, maxCount });
      seen.push(...batch);
      if (batch.length > 0) after = batch.at(-1)!.globalPosition;
      return batch;
    },
    async drain(): Promise<void> {
      while ((await this.poll()).length > 0);
    },
  };
}

/** A latch: `open()` lets everybody awaiting `opened` continue. */
function latch() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('out-of-order commits', () => {
  test('a naive design (sequence positions, no ordering) skips an event: the reason for the lock', async () => {
    // Given positions from a plain sequence, as a bigserial would give them.
    await pool.query('CREATE TABLE naive_log (position bigserial PRIMARY KEY, label text)');
    const a = new pg.Client({ connectionString: url });
    const b = new pg.Client({ connectionString: url });
    await a.connect();
    await b.connect();
    try {
      // When A takes position 1 but commits after B took position 2 and committed,
      await a.query('BEGIN');
      await a.query("INSERT INTO naive_log (label) VALUES ('A')");
      await b.query("INSERT INTO naive_log (label) VALUES ('B')");
      // and a reader polls in between and then after A's commit,
      const read = async (after: number) =>
        (await pool.query<{ position: string; label: string }>('SELECT position, label FROM naive_log WHERE position > $1 ORDER BY position', [after])).rows;
      const first = await read(0);
      const checkpoint = Number(first.at(-1)!.position);
      await a.query('COMMIT');
      const second = await read(checkpoint);
      // Then the reader moved its checkpoint past A's position without ever seeing A.
      expect(first.map((r) => r.label)).toEqual(['B']);
      expect(checkpoint).toBe(2);
      expect(second).toEqual([]);
      expect((await read(0)).map((r) => r.label)).toEqual(['A', 'B']);
    } finally {
      await a.end();
      await b.end();
    }
  });

  test('the store: while A holds its commit, B cannot become visible first, and the reader sees A then B', async () => {
    const store = new PostgresEventStore({ pool });
    const reader = checkpointReader(store, await store.headPosition());
    const release = latch();
    const aHolding = latch();
    const slowStore = new PostgresEventStore({
      pool,
      beforeCommit: async () => {
        aHolding.open();
        await release.opened;
      },
    });
    // Given A has appended (positions allocated, locks held) and not committed,
    const eventA = event('A');
    const appendA = slowStore.appendToStream('order-a', [eventA], { expectedRevision: 'no_stream' });
    await aHolding.opened;
    // when B appends to another stream meanwhile,
    const eventB = event('B');
    let bDone = false;
    const appendB = store.appendToStream('order-b', [eventB], { expectedRevision: 'no_stream' }).finally(() => (bDone = true));
    await sleep(200);
    // then B waits for A, and a reader polling now sees neither and keeps its checkpoint.
    expect(bDone).toBe(false);
    const checkpoint = reader.checkpoint;
    expect(await reader.poll()).toEqual([]);
    expect(reader.checkpoint).toBe(checkpoint);
    // When A commits, B follows with a higher position; the reader sees A, then B.
    release.open();
    const [resultA, resultB] = await Promise.all([appendA, appendB]);
    expect(resultB.position).toBeGreaterThan(resultA.position);
    await reader.drain();
    expect(reader.seen.map((e) => e.id)).toEqual([eventA.id, eventB.id]);
  });

  test('the store: a reader polling between A-held and B never advances past an unseen event', async () => {
    // Same interleaving with the reader polling continuously while A holds and B waits.
    const store = new PostgresEventStore({ pool });
    const reader = checkpointReader(store, await store.headPosition(), 1);
    const release = latch();
    const aHolding = latch();
    const slowStore = new PostgresEventStore({ pool, beforeCommit: async () => { aHolding.open(); await release.opened; } });
    const appendA = slowStore.appendToStream('order-c', [event('A')], { expectedRevision: 'no_stream' });
    await aHolding.opened;
    const appendsB = Promise.all([1, 2, 3].map((i) => store.appendToStream(`order-d${i}`, [event('B')], { expectedRevision: 'no_stream' })));
    let polling = true;
    const polls = (async () => {
      while (polling) {
        await reader.poll();
        await sleep(5);
      }
    })();
    await sleep(150);
    expect(reader.seen).toEqual([]);
    release.open();
    const results = [await appendA, ...(await appendsB)];
    polling = false;
    await polls;
    await reader.drain();
    expect(reader.seen.map((e) => e.globalPosition)).toEqual(results.map((r) => r.position).sort((x, y) => x - y));
    expect(reader.seen[0]!.type).toBe('A');
  });
});

describe('stress: concurrent appenders with random delays and a checkpoint reader', () => {
  test('the reader sees exactly every committed event once, in increasing position order', async () => {
    const appenders = 20;
    const appendsEach = 15;
    const start = await new PostgresEventStore({ pool }).headPosition();
    // Some appenders hold their transaction open for a random while before COMMIT, which is
    // exactly when a later-started append could overtake them.
    const stores = Array.from({ length: appenders }, (_, i) =>
      i % 2 === 0
        ? new PostgresEventStore({ pool })
        : new PostgresEventStore({ pool, beforeCommit: () => sleep(Math.random() * 15) }),
    );
    const committed = new Set<string>();
    let conflicts = 0;
    let done = false;

    const appender = async (i: number) => {
      const store = stores[i]!;
      for (let n = 0; n < appendsEach; n++) {
        await sleep(Math.random() * 10);
        // Shared streams make appenders conflict; a lost race writes nothing.
        const stream = `stress-${Math.floor(Math.random() * 8)}`;
        const events = Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => event('Stress', { i, n }));
        const head = (await store.readStream(stream)).at(-1)?.revision;
        try {
          if (Math.random() < 0.2) {
            const own = event('Stress');
            await store.appendToStreams([
              { stream, events, expectedRevision: head ?? 'no_stream' },
              { stream: `stress-own-${i}`, events: [own], expectedRevision: 'any' },
            ]);
            committed.add(own.id);
          } else {
            await store.appendToStream(stream, events, { expectedRevision: head ?? 'no_stream' });
          }
          for (const e of events) committed.add(e.id);
        } catch (error) {
          if (!(error instanceof WrongExpectedRevisionError)) throw error;
          conflicts++;
        }
      }
    };

    const reader = checkpointReader(new PostgresEventStore({ pool }), start, 7);
    const reading = (async () => {
      while (!done) {
        await reader.poll();
        await sleep(Math.random() * 3);
      }
      await reader.drain();
    })();
    await Promise.all(Array.from({ length: appenders }, (_, i) => appender(i)));
    done = true;
    await reading;

    const positions = reader.seen.map((e) => e.globalPosition);
    for (let k = 1; k < positions.length; k++) expect(positions[k]!).toBeGreaterThan(positions[k - 1]!);
    const seenIds = reader.seen.map((e) => e.id);
    expect(new Set(seenIds).size).toBe(seenIds.length);
    expect(new Set(seenIds)).toEqual(committed);
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM es.events WHERE global_position > $1', [start]);
    expect(Number(rows[0]!.n)).toBe(committed.size);
    expect(conflicts).toBeGreaterThan(0); // the run did exercise lost races
  });
});
