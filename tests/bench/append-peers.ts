/**
 * Append beside its peers. Unit: events/s — single-event appends to distinct,
 * new streams completed per second of wall time, with 1, 8 and 32 concurrent writers (each writer
 * appends, awaits the answer, appends again until the trial's time is up).
 *
 * Three writers of the same event-shaped row, on one scratch database of the bench's PostgreSQL
 * (synchronous_commit on, as the app runs it), each with its own pg pool of 32 connections:
 * - raw: one `INSERT INTO bench_raw (...) VALUES (...)` in autocommit (= INSERT + COMMIT, one
 *   round trip, a named prepared statement) into a table shaped like an event row (uuid primary
 *   key, stream, type, data jsonb, metadata jsonb, recorded_at default now()): the floor of what a
 *   durable single-row write costs here;
 * - ours: `PostgresEventStore.appendToStream('bench-<uuid>', [event], { expectedRevision:
 *   'no_stream' })` from @sinilill/event-store, schema migrated by the CLI's migrateToLatest;
 * - Emmett: `appendToStream('bench-<uuid>', [{ type, data }], { expectedStreamVersion:
 *   STREAM_DOES_NOT_EXIST })` of @event-driven-io/emmett-postgresql's getPostgreSQLEventStore on
 *   the same database (its schema made by its `schema.migrate()`), given a pg.Pool of 32 through
 *   `connectionOptions.pool` (its own pool would be pg's default of 10). Emmett 0.42 appends in an
 *   explicit transaction (BEGIN, its append function, COMMIT) and passes STREAM_DOES_NOT_EXIST to
 *   its SQL as "no check" (its `toExpectedVersion`): it checks less than ours does.
 *
 * Alternating rounds: in every round each writer count runs raw, ours and Emmett one after the
 * other (the order rotated by one each round, so that no store always goes first), each for a fixed
 * time; after a warm-up (every connection opened, a short unrecorded trial each) the figures are
 * the medians over the rounds, with ratios ours/raw and ours/Emmett.
 *
 * Targets: 32 writers: ours ≥ 1.0× raw and ≥ 1.5× Emmett; 1 and 8 writers: ours ≥ 0.8×
 * raw and ≥ 1.5× Emmett.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { STREAM_DOES_NOT_EXIST } from '@event-driven-io/emmett';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import { migrateToLatest } from '@sinilill/cli';
import { PostgresEventStore } from '@sinilill/event-store';
import { grouped, median, progress, spread, times, verdict, type Row } from './report';

export const WRITER_COUNTS = [1, 8, 32] as const;
export const PEERS = ['raw', 'ours', 'emmett'] as const;
export type Peer = (typeof PEERS)[number];

/** The connections of each store's pool: enough for the most writers. */
const POOL_SIZE = 32;

/** int8, json, jsonb: the types whose parsers Emmett's driver sets for the whole process. */
const DUMBO_TYPES = [20, 114, 3802];

/** The targets per writer count: ours as a multiple of raw and of Emmett, at least. */
export function appendTargets(writers: number): { raw: number; emmett: number } {
  return writers >= 32 ? { raw: 1.0, emmett: 1.5 } : { raw: 0.8, emmett: 1.5 };
}

export interface AppendPeersResult {
  rounds: number;
  seconds: number;
  /** Per writer count: every round's events/s of each store, and their medians. */
  byWriters: { writers: number; samples: Record<Peer, number[]>; median: Record<Peer, number> }[];
}

/** One trial: `writers` loops appending one event each until `seconds` are up; events/s. */
async function trial(append: (i: number) => Promise<unknown>, writers: number, seconds: number): Promise<number> {
  let next = 0;
  let done = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(Array.from({ length: writers }, async () => {
    while (performance.now() < deadline) {
      await append(next++);
      done++;
    }
  }));
  return done / ((performance.now() - started) / 1000);
}

/** Opens every connection of the pool (so that no trial pays for connecting). */
async function fill(pool: pg.Pool): Promise<void> {
  const clients = await Promise.all(Array.from({ length: POOL_SIZE }, () => pool.connect()));
  for (const client of clients) client.release();
}

/**
 * Measures the three stores on the (empty, scratch) database at `url`: `rounds` alternating
 * rounds of `seconds` per trial. Creates table `bench_raw`, our schemas and Emmett's there.
 */
export async function measureAppendPeers(url: string, options: { rounds: number; seconds: number }): Promise<AppendPeersResult> {
  // Emmett's driver (dumbo) replaces pg's process-wide parsers of int8, json and jsonb when its
  // pool is made (int8 as BigInt): kept for Emmett's own pool only, pg's restored for the rest.
  const emmettParsers = new Map<number, (value: string) => unknown>();
  const emmettTypes = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => emmettParsers.get(oid) ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  const pools = {
    raw: new pg.Pool({ connectionString: url, max: POOL_SIZE }),
    ours: new pg.Pool({ connectionString: url, max: POOL_SIZE }),
    emmett: new pg.Pool({ connectionString: url, max: POOL_SIZE, types: emmettTypes }),
  };
  try {
    await pools.raw.query(`CREATE TABLE bench_raw (
      id uuid PRIMARY KEY, stream text NOT NULL, type text NOT NULL, data jsonb NOT NULL, metadata jsonb NOT NULL,
      recorded_at timestamptz NOT NULL DEFAULT now())`);
    await migrateToLatest(pools.ours);
    const ours = new PostgresEventStore({ pool: pools.ours });
    const pgParsers = new Map(DUMBO_TYPES.map((oid) => [oid, pg.types.getTypeParser(oid, 'text')]));
    const emmett = getPostgreSQLEventStore(url, { connectionOptions: { pool: pools.emmett } });
    for (const [oid, parser] of pgParsers) {
      emmettParsers.set(oid, pg.types.getTypeParser(oid, 'text'));
      pg.types.setTypeParser(oid, parser);
    }
    await emmett.schema.migrate();

    const metadata = { actor: { userId: null, role: 'SYSTEM' as const }, correlationId: 'bench', causationId: null };
    const append: Record<Peer, (i: number) => Promise<unknown>> = {
      raw: (i) => pools.raw.query({
        name: 'bench_raw.insert',
        text: 'INSERT INTO bench_raw (id, stream, type, data, metadata) VALUES ($1, $2, $3, $4, $5)',
        values: [randomUUID(), `bench-${randomUUID()}`, 'BenchHappened', JSON.stringify({ i }), JSON.stringify(metadata)],
      }),
      ours: (i) => ours.appendToStream(`bench-${randomUUID()}`, [{
        id: randomUUID(), type: 'BenchHappened', schemaVersion: 1, data: { i }, metadata,
      }], { expectedRevision: 'no_stream' }),
      emmett: (i) => emmett.appendToStream(`bench-${randomUUID()}`, [{ type: 'BenchHappened', data: { i } }], {
        expectedStreamVersion: STREAM_DOES_NOT_EXIST,
      }),
    };

    progress('append peers: warming up (every connection open, 0.5 s per store at 32 writers)');
    await Promise.all(Object.values(pools).map(fill));
    for (const peer of PEERS) await trial(append[peer], POOL_SIZE, 0.5);

    const samples = new Map<number, Record<Peer, number[]>>(WRITER_COUNTS.map((w) => [w, { raw: [], ours: [], emmett: [] }]));
    for (let round = 0; round < options.rounds; round++) {
      const order = PEERS.map((_, k) => PEERS[(k + round) % PEERS.length]!);
      for (const writers of WRITER_COUNTS) {
        for (const peer of order) samples.get(writers)![peer].push(await trial(append[peer], writers, options.seconds));
      }
      const line = WRITER_COUNTS.map((w) => `${w}w ${PEERS.map((p) => `${p} ${Math.round(samples.get(w)![p].at(-1)!)}`).join(' ')}`).join(' | ');
      progress(`append peers: round ${round + 1}/${options.rounds} (order ${order.join(', ')}): ${line} events/s`);
    }
    await emmett.close();
    return {
      rounds: options.rounds,
      seconds: options.seconds,
      byWriters: WRITER_COUNTS.map((writers) => {
        const s = samples.get(writers)!;
        return { writers, samples: s, median: { raw: median(s.raw), ours: median(s.ours), emmett: median(s.emmett) } };
      }),
    };
  } finally {
    await Promise.all(Object.values(pools).map((pool) => (pool.ending ? undefined : pool.end())));
  }
}

/** What the table's append rows cannot say. */
export const APPEND_NOTES: readonly string[] = [
  'append peers ran on a scratch database of their own (pg pools of 32 each; the order of raw, ours and Emmett rotated each round). '
  + 'Emmett 0.42 appends in BEGIN/append/COMMIT and treats STREAM_DOES_NOT_EXIST as "no check" in its SQL: it checks less than ours.',
];

/** The table's rows: per writer count, raw and Emmett as peers, then ours with both ratios. */
export function appendRows(result: AppendPeersResult): Row[] {
  const rows: Row[] = [];
  const how = `1 event/append, new streams, median of ${result.rounds} × ${result.seconds} s`;
  for (const { writers, samples, median: m } of result.byWriters) {
    const target = appendTargets(writers);
    const value = (peer: Peer) => `${grouped(m[peer])} events/s (${spread(samples[peer])})`;
    rows.push({ measure: `append, ${writers} writer(s): raw INSERT+COMMIT (${how})`, result: value('raw'), ratio: '(peer)', target: '' });
    rows.push({ measure: `append, ${writers} writer(s): Emmett 0.42 PostgreSQL`, result: value('emmett'), ratio: '(peer)', target: '' });
    const raw = m.ours / m.raw;
    const emmett = m.ours / m.emmett;
    rows.push({
      measure: `append, ${writers} writer(s): ours (PostgresEventStore)`,
      result: value('ours'),
      ratio: `${times(m.ours, m.raw)} raw, ${times(m.ours, m.emmett)} Emmett`,
      target: `≥ ${target.raw.toFixed(1)}× raw (${verdict(raw >= target.raw)}), ≥ ${target.emmett.toFixed(1)}× Emmett (${verdict(emmett >= target.emmett)})`,
    });
  }
  return rows;
}
