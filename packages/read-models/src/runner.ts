/**
 * Running projections: catch up from a checkpoint, exactly once, and rebuild from scratch.
 *
 * Exactly once: each batch is applied in one PostgreSQL transaction that first takes the
 * projection's advisory lock (so two workers, or a worker and a replay, never interleave), reads
 * the checkpoint, applies the events read after it and moves the checkpoint to the last event's
 * position. A crash rolls all of it back; a duplicate wake-up finds nothing after the checkpoint.
 *
 * Rebuild (replay): builds every read model in a fresh schema (`rm_next`) from position 0 while
 * the live schema keeps answering, then, holding every projection's lock, applies the last events
 * that arrived meanwhile and renames `rm_next` to `rm` in the same transaction.
 *
 * Change notifications (./changes.ts): a batch applied to the live schema sends
 * `pg_notify('rm_changes', {projection, position, teams})` in its own transaction, so listeners
 * hear of it when, and only if, it commits; a rebuild's batches (private schema) say nothing, and
 * its swap says `teams: null` once.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { runMigrations, type EventStore, type RecordedEvent } from '@sinilill/event-store';
import { EVERY_PROJECTION, READ_MODEL_CHANGES_CHANNEL, changedTeams, type ReadModelChange } from './changes';
import { readModelMigrationSet } from './migrations';
import type { Projection } from './projection';
import { READ_MODEL_SCHEMA, REBUILD_SCHEMA, type ReadModelDatabase } from './schema';

export interface CatchUpResult {
  /** Events of handled types applied. */
  applied: number;
  /** Events read (of any type). */
  read: number;
  /** The checkpoint after the run. */
  position: number;
}

export interface CatchUpOptions {
  schema?: string;
  /** Events per transaction (default 2000). */
  batchSize?: number;
  /** Take the projection's advisory lock (default true; a rebuild's private schema needs none). */
  lock?: boolean;
  /** Called after each committed batch with the new checkpoint. */
  onBatch?: (progress: { position: number; read: number; applied: number }) => void;
  /** Stop after this position (for tests that simulate a crash mid-way). */
  stopAfter?: number;
}

/** Advisory-lock key of a projection in a schema (hashtext of "projection:<schema>.<name>"). */
function lockKey(schema: string, projection: string) {
  return sql`hashtext(${`projection:${schema}.${projection}`})`;
}

/** The checkpoint of `projection` in `schema` (0 when it has never run). */
export async function readCheckpoint(
  db: Kysely<ReadModelDatabase>,
  projection: string,
  schema = READ_MODEL_SCHEMA,
): Promise<number> {
  const row = await db.withSchema(schema).selectFrom('checkpoints').select('position')
    .where('projection', '=', projection).executeTakeFirst();
  return row?.position ?? 0;
}

/** Every projection's checkpoint in `schema`. */
export async function readCheckpoints(
  db: Kysely<ReadModelDatabase>,
  schema = READ_MODEL_SCHEMA,
): Promise<Record<string, number>> {
  const rows = await db.withSchema(schema).selectFrom('checkpoints').select(['projection', 'position']).execute();
  return Object.fromEntries(rows.map((r) => [r.projection, r.position]));
}

/** Queues a change notification in `trx`; PostgreSQL delivers it when `trx` commits. */
async function notifyChange(trx: Transaction<ReadModelDatabase>, change: ReadModelChange): Promise<void> {
  await sql`SELECT pg_notify(${READ_MODEL_CHANGES_CHANNEL}, ${JSON.stringify(change)})`.execute(trx);
}

/**
 * Applies one batch inside `trx` (already locked if needed); returns what it did. In the live
 * schema a batch that applied events also notifies which teams it touched (module docs).
 */
async function applyBatch(
  trx: Transaction<ReadModelDatabase>,
  store: EventStore,
  projection: Projection,
  schema: string,
  batchSize: number,
): Promise<{ read: number; applied: number; position: number }> {
  const db = trx.withSchema(schema);
  const checkpoint = await readCheckpoint(trx, projection.name, schema);
  const events = await store.readAll({ after: checkpoint, maxCount: batchSize });
  if (events.length === 0) return { read: 0, applied: 0, position: checkpoint };
  const handled = new Set(projection.handles);
  const relevant: RecordedEvent[] = events.filter((e) => handled.has(e.type));
  if (relevant.length > 0) await projection.apply(db, relevant);
  const position = events[events.length - 1]!.globalPosition;
  if (schema === READ_MODEL_SCHEMA && relevant.length > 0 && !projection.silent) {
    await notifyChange(trx, { projection: projection.name, position, teams: changedTeams(relevant) });
  }
  await db.insertInto('checkpoints').values({ projection: projection.name, position, updated_at: new Date() })
    .onConflict((oc) => oc.column('projection').doUpdateSet({ position, updated_at: new Date() }))
    .execute();
  return { read: events.length, applied: relevant.length, position };
}

/**
 * Applies every event after the projection's checkpoint, batch by batch, each batch in its own
 * transaction with the checkpoint. Returns when a read finds nothing new.
 */
export async function catchUp(
  db: Kysely<ReadModelDatabase>,
  store: EventStore,
  projection: Projection,
  options: CatchUpOptions = {},
): Promise<CatchUpResult> {
  const schema = options.schema ?? READ_MODEL_SCHEMA;
  const batchSize = options.batchSize ?? 2000;
  const total: CatchUpResult = { applied: 0, read: 0, position: 0 };
  for (;;) {
    const result = await db.transaction().execute(async (trx) => {
      if (options.lock ?? true) await sql`SELECT pg_advisory_xact_lock(${lockKey(schema, projection.name)})`.execute(trx);
      return applyBatch(trx, store, projection, schema, batchSize);
    });
    total.position = result.position;
    if (result.read === 0) return total;
    total.read += result.read;
    total.applied += result.applied;
    options.onBatch?.({ position: result.position, read: total.read, applied: total.applied });
    if (options.stopAfter !== undefined && result.position >= options.stopAfter) return total;
  }
}

export interface RebuildProgress {
  projection: string;
  position: number;
  head: number;
  read: number;
}

export interface RebuildResult {
  events: number;
  /** The position the swapped-in read models reflect. */
  position: number;
  milliseconds: number;
}

/**
 * Rebuilds every read model from the whole event log into fresh tables and swaps them in
 * atomically; the live ones keep answering meanwhile (see module docs). The swap notifies
 * `{ projection: '*', position, teams: null }` once: every team may have changed.
 */
export async function rebuildReadModels(
  db: Kysely<ReadModelDatabase>,
  store: EventStore,
  projections: readonly Projection[],
  options: { batchSize?: number; onProgress?: (progress: RebuildProgress) => void } = {},
): Promise<RebuildResult> {
  const started = performance.now();
  const batchSize = options.batchSize ?? 5000;
  await sql`DROP SCHEMA IF EXISTS ${sql.id(REBUILD_SCHEMA)} CASCADE`.execute(db);
  await runMigrations(db, [readModelMigrationSet(REBUILD_SCHEMA)]);
  const head = await store.headPosition();
  let events = 0;
  for (const projection of projections) {
    const result = await catchUp(db, store, projection, {
      schema: REBUILD_SCHEMA, batchSize, lock: false,
      onBatch: ({ position, read }) => options.onProgress?.({ projection: projection.name, position, head, read }),
    });
    events = Math.max(events, result.read);
  }
  const position = await db.transaction().execute(async (trx) => {
    for (const projection of projections) {
      await sql`SELECT pg_advisory_xact_lock(${lockKey(READ_MODEL_SCHEMA, projection.name)})`.execute(trx);
    }
    let last = 0;
    for (const projection of projections) {
      for (;;) {
        const batch = await applyBatch(trx, store, projection, REBUILD_SCHEMA, batchSize);
        last = batch.position;
        if (batch.read === 0) break;
      }
    }
    const live = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = ${READ_MODEL_SCHEMA}`.execute(trx);
    if ((live.rows[0]?.n ?? 0) > 0) {
      await sql`ALTER SCHEMA ${sql.id(READ_MODEL_SCHEMA)} RENAME TO ${sql.id(`${READ_MODEL_SCHEMA}_old`)}`.execute(trx);
    }
    await sql`ALTER SCHEMA ${sql.id(REBUILD_SCHEMA)} RENAME TO ${sql.id(READ_MODEL_SCHEMA)}`.execute(trx);
    await sql`DROP SCHEMA IF EXISTS ${sql.id(`${READ_MODEL_SCHEMA}_old`)} CASCADE`.execute(trx);
    await notifyChange(trx, { projection: EVERY_PROJECTION, position: last, teams: null });
    return last;
  });
  return { events, position, milliseconds: performance.now() - started };
}
