/**
 * Rebuild (replay, docs/decisions/0005): builds every read model from the whole log into a fresh
 * schema (`rm_next`) while the live schema keeps answering, compares the two table by table, and
 * swaps the rebuilt one in.
 *
 * At scale (a million events) the rebuild:
 * - reads the log ONCE for all projections, in large batches (REBUILD_BATCH_SIZE events), ahead
 *   of the projections (BatchFeed), so PostgreSQL serialises events while Node folds them; memory
 *   holds at most READ_AHEAD batches beyond the slowest projection's (flat, whatever the log's
 *   length);
 * - every projection takes the batches in order at its own pace, each batch in its own
 *   transaction on its own connection (their tables are disjoint), with its checkpoint in
 *   `rm_next` — the same exactly-once batches and parking as the live projector
 *   (runner.applyEvents);
 * - a projection with a rebuild session (Projection.rebuild, docs/decisions/0043: team-stats, team-directory)
 *   keeps its team and member rows in memory across the batches and writes them after the pass
 *   (`finish`), and loads an entry's row only when an earlier batch wrote it: `rm_next` is
 *   consistent only once the pass has ended (a rebuild that stops half-way leaves it for the next
 *   one, which drops it);
 * - loads into unlogged tables and builds the secondary indexes of `rm_next` after the load, not
 *   row by row during it (the unique and primary keys stay, the upserts need them), then makes
 *   the tables logged and ANALYZEs them;
 * - in one transaction holding every live projection's lock: applies to `rm_next` the events that
 *   arrived meanwhile, catches the live schema up to the same position (when it lags by at most
 *   LIVE_CATCH_UP_LIMIT events; else the live side of the comparison is left out), computes both
 *   schemas' checksums per table (checksums.ts), renames `rm` away and `rm_next` to `rm`, and notifies
 *   `{ projection: '*', position, teams: null }` once. Queries see the old tables or the new ones,
 *   never a half-built state; live projectors wait for the lock only during that transaction.
 */
import { sql, type Kysely } from 'kysely';
import { runMigrations, type EventStore, type RecordedEvent } from '@sinilill/event-store';
import { EVERY_PROJECTION } from './changes';
import { compareReadModels, readModelTables, type TableComparison } from './checksums';
import { readModelMigrationSet } from './migrations';
import type { ParkReport } from './parking';
import type { Projection } from './projection';
import { applyBatch, applyEvents, lockKey, notifyChange, readCheckpoints } from './runner';
import { READ_MODEL_SCHEMA, REBUILD_SCHEMA, type ReadModelDatabase } from './schema';

/** Events per read of the log during a rebuild (each applied to every projection). */
export const REBUILD_BATCH_SIZE = 10_000;

/**
 * Batches the reader may be ahead of the slowest projection (memory: about READ_AHEAD + projections'
 * batches). 2 ran as fast as 3 on the synthetic million, with less memory (docs/decisions/0043).
 */
export const READ_AHEAD = 2;

/**
 * The batches of one pass over the log, shared by `consumers` projections that each take them in
 * order at their own pace: a batch is dropped once every consumer released it, and the reader
 * waits (room) while it is `ahead` batches ahead of the slowest. A failure (fail) ends every wait.
 */
export class BatchFeed {
  private readonly batches = new Map<number, RecordedEvent[]>();
  private readonly next: number[];
  private pushed = 0;
  private ended = false;
  private failure: { error: unknown } | null = null;
  private waiters: (() => void)[] = [];

  constructor(consumers: number, private readonly ahead: number) {
    this.next = new Array<number>(consumers).fill(0);
  }

  private changed(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private wait(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private check(): void {
    if (this.failure) throw this.failure.error;
  }

  /** Resolves when the reader may add a batch. @throws the failure, once one was reported. */
  async room(): Promise<void> {
    for (;;) {
      this.check();
      if (this.pushed - Math.min(...this.next) < this.ahead) return;
      await this.wait();
    }
  }

  /** Adds the next batch. */
  push(batch: RecordedEvent[]): void {
    this.batches.set(this.pushed, batch);
    this.pushed += 1;
    this.changed();
  }

  /** The log has no more events. */
  end(): void {
    this.ended = true;
    this.changed();
  }

  /** Stops every consumer and the reader with `error` (the first one reported wins). */
  fail(error: unknown): void {
    this.failure ??= { error };
    this.changed();
  }

  /** The consumer's next batch, or null at the end. @throws the failure, once one was reported. */
  async take(consumer: number): Promise<RecordedEvent[] | null> {
    for (;;) {
      this.check();
      const batch = this.batches.get(this.next[consumer]!);
      if (batch) return batch;
      if (this.ended) return null;
      await this.wait();
    }
  }

  /**
   * The consumer is done with its batch; returns how many batches every consumer has released
   * (a batch is dropped when all did).
   */
  release(consumer: number): number {
    const index = this.next[consumer]!;
    this.next[consumer] = index + 1;
    const passed = Math.min(...this.next);
    if (passed > index) this.batches.delete(index);
    this.changed();
    return passed;
  }
}

/**
 * Most events the live schema may lag behind the rebuilt one for the swap to catch it up and
 * compare the two (module docs); beyond it the live side of the checksums is left out.
 */
export const LIVE_CATCH_UP_LIMIT = 50_000;

/** Names the rebuild reports as its step (RebuildProgress.projection) while every projection is built at once. */
export function rebuildStep(projections: readonly Projection[]): string {
  return projections.map((p) => p.name).join(', ');
}

export interface RebuildProgress {
  /** The projections being built (rebuildStep), or EVERY_PROJECTION ('*') for the indexes, checksums and swap. */
  projection: string;
  /** The position the rebuilt read models reflect so far. */
  position: number;
  /** The log's head when the rebuild started. */
  head: number;
  /** Events read so far. */
  read: number;
}

export interface RebuildResult {
  events: number;
  /** The position the swapped-in read models reflect. */
  position: number;
  milliseconds: number;
  /** Each read-model table, rebuilt vs live, compared before the swap (checksums.ts). */
  checksums: TableComparison[];
}

export interface RebuildOptions {
  /** Events per read of the log (default REBUILD_BATCH_SIZE). */
  batchSize?: number;
  onProgress?: (progress: RebuildProgress) => void;
  /** Told of every park the rebuild made or resolved (as CatchUpOptions.onPark), once its batch committed. */
  onPark?: (report: ParkReport) => void;
  /**
   * Called inside the swap's transaction, after the checksums and before the rename (tests: to
   * see that the checksums are there before the swap, or to make the swap fail).
   */
  beforeSwap?: (checksums: readonly TableComparison[]) => Promise<void> | void;
}

/** An index of a schema that no constraint owns: dropped for the load, created again after it. */
interface DeferredIndex {
  name: string;
  definition: string;
}

/** Drops the secondary indexes of `schema` (none that backs a primary key or unique constraint); returns their definitions. */
async function dropSecondaryIndexes(db: Kysely<ReadModelDatabase>, schema: string): Promise<DeferredIndex[]> {
  const result = await sql<{ indexname: string; indexdef: string }>`
    SELECT i.indexname, i.indexdef FROM pg_indexes i
    WHERE i.schemaname = ${schema}
      AND NOT EXISTS (
        SELECT 1 FROM pg_constraint c JOIN pg_class ic ON ic.oid = c.conindid
        JOIN pg_namespace n ON n.oid = ic.relnamespace
        WHERE n.nspname = ${schema} AND ic.relname = i.indexname)
    ORDER BY i.indexname`.execute(db);
  for (const index of result.rows) {
    await sql`DROP INDEX ${sql.table(`${schema}.${index.indexname}`)}`.execute(db);
  }
  return result.rows.map((r) => ({ name: r.indexname, definition: r.indexdef }));
}

/**
 * Makes the rebuild's tables unlogged for the load (`logged` false: PostgreSQL then writes no
 * WAL for the millions of row versions a replay's upserts make; a crash meanwhile only loses
 * `rm_next`, which the next rebuild drops anyway) or logged again before the swap (one
 * sequential WAL write of each final table: crash-safe from then on, like any live table).
 */
async function setLogged(db: Kysely<ReadModelDatabase>, tables: readonly string[], logged: boolean): Promise<void> {
  await twoAtATime(tables, (table) =>
    sql`ALTER TABLE ${sql.table(`${REBUILD_SCHEMA}.${table}`)} ${sql.raw(logged ? 'SET LOGGED' : 'SET UNLOGGED')}`.execute(db));
}

/**
 * Runs `work` on each item, two at a time, on the pool's connections (a SET LOGGED rewrites its
 * table and a CREATE INDEX sorts in one backend each: two keep both cores busy).
 */
async function twoAtATime<T>(items: readonly T[], work: (item: T) => Promise<unknown>): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  };
  await Promise.all([worker(), worker()]);
}

/** Creates `indexes` again, two at a time. */
async function createIndexes(db: Kysely<ReadModelDatabase>, indexes: readonly DeferredIndex[]): Promise<void> {
  await twoAtATime(indexes, (index) => sql.raw(index.definition).execute(db));
}

/**
 * Rebuilds every read model from the whole event log into fresh tables, compares them with the
 * live ones and swaps them in atomically; the live ones keep answering meanwhile (module docs).
 * An event that cannot be applied is parked in the rebuilt schema instead of failing the rebuild
 *; the parks of the old live schema go with it, the log's skip and retry decisions
 * resolve the new ones again.
 * @throws what a batch threw when it was not a deterministic data failure; the live schema is
 *   then untouched (`rm_next` is left for the next rebuild to drop).
 */
export async function rebuildReadModels(
  db: Kysely<ReadModelDatabase>,
  store: EventStore,
  projections: readonly Projection[],
  options: RebuildOptions = {},
): Promise<RebuildResult> {
  const started = performance.now();
  const batchSize = options.batchSize ?? REBUILD_BATCH_SIZE;
  const step = rebuildStep(projections);
  await sql`DROP SCHEMA IF EXISTS ${sql.id(REBUILD_SCHEMA)} CASCADE`.execute(db);
  await runMigrations(db, [readModelMigrationSet(REBUILD_SCHEMA)]);
  const deferred = await dropSecondaryIndexes(db, REBUILD_SCHEMA);
  const tables = await readModelTables(db, REBUILD_SCHEMA);
  await setLogged(db, tables, false);
  const head = await store.headPosition();
  const report = (parks: readonly ParkReport[]) => { for (const park of parks) options.onPark?.(park); };

  // One pass over the log: every projection takes the batches in order at its own pace, the reader
  // staying at most READ_AHEAD batches ahead of the slowest (no barrier per batch).
  const feed = new BatchFeed(projections.length, READ_AHEAD);
  // Projections with a rebuild session keep state across the pass (docs/decisions/0043) and write it at its end.
  const sessions = projections.map((projection) => projection.rebuild?.() ?? null);
  const passing = projections.map((projection, i): Projection => {
    const session = sessions[i];
    return session ? { name: projection.name, handles: projection.handles, silent: projection.silent, apply: (d, e, c) => session.apply(d, e, c) } : projection;
  });
  const reading = (async () => {
    let after = 0;
    for (;;) {
      await feed.room();
      const batch = await store.readAll({ after, maxCount: batchSize, metadata: false });
      if (batch.length === 0) return feed.end();
      after = batch[batch.length - 1]!.globalPosition;
      feed.push(batch);
    }
  })().catch((error: unknown) => feed.fail(error));
  let events = 0;
  let position = 0;
  let slowest = 0;
  await Promise.all(passing.map(async (projection, consumer) => {
    try {
      for (let batch = await feed.take(consumer); batch; batch = await feed.take(consumer)) {
        const result = await db.transaction().execute((trx) => applyEvents(trx, store, projection, REBUILD_SCHEMA, batch));
        report(result.parks);
        const passed = feed.release(consumer);
        if (passed > slowest) {
          // Every projection has applied the batches up to this one.
          slowest = passed;
          events += batch.length;
          position = batch[batch.length - 1]!.globalPosition;
          options.onProgress?.({ projection: step, position, head, read: events });
        }
      }
    } catch (error) {
      feed.fail(error);
      throw error;
    }
  }));
  await reading;
  for (const session of sessions) {
    if (session) await db.transaction().execute((trx) => session.finish(trx.withSchema(REBUILD_SCHEMA)));
  }

  options.onProgress?.({ projection: EVERY_PROJECTION, position, head, read: events });
  await setLogged(db, tables, true);
  await createIndexes(db, deferred);
  for (const table of tables) await sql`ANALYZE ${sql.table(`${REBUILD_SCHEMA}.${table}`)}`.execute(db);

  const lastParks: ParkReport[] = [];
  const swapped = await db.transaction().execute(async (trx) => {
    for (const projection of projections) {
      await sql`SELECT pg_advisory_xact_lock(${lockKey(READ_MODEL_SCHEMA, projection.name)})`.execute(trx);
    }
    // Both schemas to the head as it is now, so that their checksums describe the same log; the
    // live one only when it is close (a live schema far behind, e.g. never projected, would hold
    // the locks for as long as a rebuild: then its side of the checksums is left out).
    const catchUpWithin = async (schema: string) => {
      const total = { read: 0, position: 0, parks: [] as ParkReport[] };
      for (const projection of projections) {
        for (;;) {
          const batch = await applyBatch(trx, store, projection, schema, batchSize);
          total.parks.push(...batch.parks);
          total.position = Math.max(total.position, batch.position);
          if (batch.read === 0) break;
          total.read += batch.read;
        }
      }
      return total;
    };
    const rebuilt = await catchUpWithin(REBUILD_SCHEMA);
    lastParks.push(...rebuilt.parks);
    events += rebuilt.read;
    const last = Math.max(position, rebuilt.position);
    const liveExists = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = ${READ_MODEL_SCHEMA}`.execute(trx)).rows[0]!.n > 0;
    const checkpoints = liveExists ? await readCheckpoints(trx, READ_MODEL_SCHEMA) : {};
    const liveLowest = Math.min(...projections.map((p) => checkpoints[p.name] ?? 0));
    const compared = liveExists && last - liveLowest <= LIVE_CATCH_UP_LIMIT;
    if (compared) await catchUpWithin(READ_MODEL_SCHEMA);
    const checksums = await compareReadModels(trx, REBUILD_SCHEMA, compared ? READ_MODEL_SCHEMA : null);
    await options.beforeSwap?.(checksums);
    if (liveExists) {
      await sql`ALTER SCHEMA ${sql.id(READ_MODEL_SCHEMA)} RENAME TO ${sql.id(`${READ_MODEL_SCHEMA}_old`)}`.execute(trx);
    }
    await sql`ALTER SCHEMA ${sql.id(REBUILD_SCHEMA)} RENAME TO ${sql.id(READ_MODEL_SCHEMA)}`.execute(trx);
    await sql`DROP SCHEMA IF EXISTS ${sql.id(`${READ_MODEL_SCHEMA}_old`)} CASCADE`.execute(trx);
    await notifyChange(trx, { projection: EVERY_PROJECTION, position: last, teams: null });
    return { position: last, checksums };
  });
  report(lastParks);
  return { events, position: swapped.position, milliseconds: performance.now() - started, checksums: swapped.checksums };
}
