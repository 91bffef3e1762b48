/**
 * Running projections: catch up from a checkpoint, exactly once (the rebuild from scratch that
 * replay runs is in rebuild.ts and uses applyEvents from here).
 *
 * Exactly once: each batch is applied in one PostgreSQL transaction that first takes the
 * projection's advisory lock (so two workers, or a worker and a replay, never interleave), reads
 * the checkpoint, applies the events read after it and moves the checkpoint to the last event's
 * position. A crash rolls all of it back; a duplicate wake-up finds nothing after the checkpoint.
 *
 * Parking (./parking.ts): a batch that fails because of one event's data is split to
 * find that event; the events around it are applied, it is recorded in `parked_events` with its
 * error, and the checkpoint moves past it — in the batch's transaction, each attempt inside a
 * savepoint. Any other failure rolls the whole batch back. The administrators'
 * decisions (ProjectionEventSkipped, ProjectionEventRetryRequested in stream `operations`) are
 * acted on when the projection reaches them in the log: a skip resolves the park, a retry applies
 * the parked event again. A rebuild parks and decides the same way in its private schema.
 *
 * Change notifications (./changes.ts): every batch applied to the live schema sends
 * `pg_notify('rm_changes', {projection, position, teams})` in its own transaction (teams `[]`
 * when it changed no team's rows), so listeners hear of it when, and only if, it commits; a rebuild's batches (private schema) say nothing, and
 * its swap says `teams: null` once.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { EventStore, RecordedEvent } from '@sinilill/event-store';
import { READ_MODEL_CHANGES_CHANNEL, changedTeams, type ReadModelChange } from './changes';
import { applyOrPark, describeFailure, isDeterministicFailure, parkDecisionFor, type ParkDecision, type ParkReport } from './parking';
import type { Projection } from './projection';
import { READ_MODEL_SCHEMA, type ReadModelDatabase } from './schema';

export interface CatchUpResult {
  /** Events of handled types applied (parked ones not counted; a retried one counted when it applies). */
  applied: number;
  /** Events read (of any type). */
  read: number;
  /** The checkpoint after the run. */
  position: number;
  /** Events newly parked by the run. */
  parked: number;
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
  /**
   * Told, after its batch committed, of every park the run made or resolved: an event
   * parked, applied by a retry, still failing after a retry, or skipped. Never the event's data.
   */
  onPark?: (report: ParkReport) => void;
}

/** Advisory-lock key of a projection in a schema (hashtext of "projection:<schema>.<name>"). */
export function lockKey(schema: string, projection: string) {
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
export async function notifyChange(trx: Transaction<ReadModelDatabase>, change: ReadModelChange): Promise<void> {
  await sql`SELECT pg_notify(${READ_MODEL_CHANGES_CHANNEL}, ${JSON.stringify(change)})`.execute(trx);
}

/** What one batch did. */
export interface BatchResult {
  read: number;
  applied: number;
  position: number;
  /** Parks made or resolved, for CatchUpOptions.onPark once the batch has committed. */
  parks: ParkReport[];
  /** The checkpoint's move and its notification, when events were read. */
  change?: ReadModelChange;
}

/** The savepoint each attempt to apply events runs in (attempts never nest). */
const ATTEMPT = sql.raw('apply_attempt');

/**
 * Applies `events` to the projection inside a savepoint of `trx`: all or nothing. A deterministic
 * failure (parking.ts) is rolled back to the savepoint, so the transaction goes on; any other
 * leaves the transaction to fail as a whole.
 */
async function attemptApply(trx: Transaction<ReadModelDatabase>, store: EventStore, projection: Projection, schema: string, events: readonly RecordedEvent[]): Promise<void> {
  await sql`SAVEPOINT ${ATTEMPT}`.execute(trx);
  try {
    await projection.apply(trx.withSchema(schema), events, { store });
  } catch (error) {
    if (isDeterministicFailure(error)) {
      await sql`ROLLBACK TO SAVEPOINT ${ATTEMPT}`.execute(trx);
      await sql`RELEASE SAVEPOINT ${ATTEMPT}`.execute(trx);
    }
    throw error;
  }
  await sql`RELEASE SAVEPOINT ${ATTEMPT}`.execute(trx);
}

/** Records `event` as parked by `projection` in `schema` (a repeat overwrites the error and counts the attempt). */
async function parkEvent(trx: Transaction<ReadModelDatabase>, projection: Projection, schema: string, event: RecordedEvent, error: unknown): Promise<ParkReport> {
  const failure = describeFailure(error);
  await trx.withSchema(schema).insertInto('parked_events').values({
    projection: projection.name, position: event.globalPosition, event_id: event.id, event_type: event.type,
    error_code: failure.code, error: failure.message, parked_at: new Date(), status: 'parked',
  }).onConflict((oc) => oc.columns(['projection', 'position']).doUpdateSet((eb) => ({
    error_code: failure.code, error: failure.message, status: 'parked', resolved_at: null,
    attempts: eb(eb.ref('parked_events.attempts'), '+', 1),
  }))).execute();
  return {
    projection: projection.name, position: event.globalPosition, eventId: event.id, eventType: event.type,
    errorCode: failure.code, error: failure.message, outcome: 'parked',
  };
}

/**
 * Acts on an administrator's decision about a park of `projection` (module docs): a skip marks
 * an open park skipped; a retry applies the parked event again (inside a savepoint) and marks
 * the park retried, or keeps it parked with the new error when it fails the same way. A decision
 * about an event that is not parked (any more) changes nothing.
 * @returns the report, plus the event when a retry applied it; null when nothing changed.
 * @throws what a retry threw when it is not a deterministic failure (the batch then rolls back).
 */
async function actOnDecision(
  trx: Transaction<ReadModelDatabase>,
  store: EventStore,
  projection: Projection,
  schema: string,
  decision: ParkDecision,
  decidedAt: Date,
): Promise<{ report: ParkReport; applied: RecordedEvent | null } | null> {
  const parks = trx.withSchema(schema);
  const row = await parks.selectFrom('parked_events').selectAll()
    .where('projection', '=', projection.name).where('position', '=', decision.position).where('status', '=', 'parked')
    .executeTakeFirst();
  if (!row) return null;
  const base = { projection: projection.name, position: row.position, eventId: row.event_id, eventType: row.event_type };
  const open = parks.updateTable('parked_events')
    .where('projection', '=', projection.name).where('position', '=', decision.position).where('status', '=', 'parked');
  if (decision.kind === 'skip') {
    await open.set({ status: 'skipped', resolved_at: decidedAt, reason: decision.reason }).execute();
    return { report: { ...base, errorCode: row.error_code, error: row.error, outcome: 'skipped' }, applied: null };
  }
  const [event] = await store.readAll({ after: decision.position - 1, maxCount: 1 });
  if (!event || event.globalPosition !== decision.position) return null;
  try {
    await attemptApply(trx, store, projection, schema, [event]);
  } catch (error) {
    if (!isDeterministicFailure(error)) throw error;
    const failure = describeFailure(error);
    await open.set((eb) => ({ error_code: failure.code, error: failure.message, attempts: eb(eb.ref('attempts'), '+', 1) })).execute();
    return { report: { ...base, errorCode: failure.code, error: failure.message, outcome: 'still-parked' }, applied: null };
  }
  await open.set((eb) => ({ status: 'retried', resolved_at: decidedAt, attempts: eb(eb.ref('attempts'), '+', 1) })).execute();
  return { report: { ...base, errorCode: row.error_code, error: row.error, outcome: 'retried' }, applied: event };
}

/**
 * Applies `events` (read after the projection's checkpoint, in global order, of any type) inside
 * `trx`, without moving the checkpoint: the result's `change` says where it goes and which teams
 * to notify (recordBatches). The events the projection handles are applied in runs between the
 * park decisions addressed to it, each run through applyOrPark (bisect and park what fails,
 * parking.ts), each decision in its place in the log.
 */
async function applyOnly(
  trx: Transaction<ReadModelDatabase>,
  store: EventStore,
  projection: Projection,
  schema: string,
  events: readonly RecordedEvent[],
  careful = true,
): Promise<BatchResult> {
  if (events.length === 0) return { read: 0, applied: 0, position: await readCheckpoint(trx, projection.name, schema), parks: [] };
  const handled = new Set(projection.handles);
  const applied: RecordedEvent[] = [];
  const parks: ParkReport[] = [];
  let run: RecordedEvent[] = [];
  const flush = async () => {
    if (run.length === 0) return;
    if (!careful) {
      // No savepoint: a data failure cannot be parked here, the batch goes again with them (applyTogether).
      try {
        await projection.apply(trx.withSchema(schema), run, { store });
      } catch (error) {
        throw isDeterministicFailure(error) ? new CarefulRetry(error) : error;
      }
      applied.push(...run);
      run = [];
      return;
    }
    const result = await applyOrPark(run, {
      attempt: (part) => attemptApply(trx, store, projection, schema, part),
      park: async (event, error) => { parks.push(await parkEvent(trx, projection, schema, event, error)); },
    });
    applied.push(...result.applied);
    run = [];
  };
  for (const event of events) {
    if (handled.has(event.type)) {
      run.push(event);
      continue;
    }
    const decision = parkDecisionFor(event, projection.name);
    if (!decision) continue;
    await flush();
    const outcome = await actOnDecision(trx, store, projection, schema, decision, event.recordedAt);
    if (outcome) parks.push(outcome.report);
    if (outcome?.applied) applied.push(outcome.applied);
  }
  await flush();
  const position = events[events.length - 1]!.globalPosition;
  // `teams: []` when no team's rows changed (nothing applied, or a silent projection), so live
  // team pages refetch only for their own team.
  const teams = applied.length > 0 && !projection.silent ? (projection.teamsOf ?? changedTeams)(applied) : [];
  return { read: events.length, applied: applied.length, position, parks, change: { projection: projection.name, position, teams } };
}

/**
 * Moves the checkpoints of `changes` in `trx` (one statement) and, in the live schema, queues
 * their change notifications (one statement; PostgreSQL delivers them on commit).
 */
async function recordBatches(trx: Transaction<ReadModelDatabase>, schema: string, changes: readonly ReadModelChange[]): Promise<void> {
  if (changes.length === 0) return;
  if (schema === READ_MODEL_SCHEMA) {
    // Every batch that moves a live checkpoint says so (a query waiting for a position is woken by these).
    await sql`SELECT ${sql.join(changes.map((change) => sql`pg_notify(${READ_MODEL_CHANGES_CHANNEL}, ${JSON.stringify(change)})`))}`.execute(trx);
  }
  const now = new Date();
  await trx.withSchema(schema).insertInto('checkpoints')
    .values(changes.map((change) => ({ projection: change.projection, position: change.position, updated_at: now })))
    .onConflict((oc) => oc.column('projection').doUpdateSet((eb) => ({ position: eb.ref('excluded.position'), updated_at: eb.ref('excluded.updated_at') })))
    .execute();
}

/**
 * Applies `events` (read after the projection's checkpoint, in global order, of any type) inside
 * `trx` and moves the checkpoint to the last one's position; returns what it did (applyOnly,
 * then the checkpoint and, in the live schema, the change notification: module docs). Used by
 * catchUp (one projection reading its own batches) and by the rebuild (rebuild.ts: one read of
 * the log shared by every projection).
 */
export async function applyEvents(
  trx: Transaction<ReadModelDatabase>,
  store: EventStore,
  projection: Projection,
  schema: string,
  events: readonly RecordedEvent[],
): Promise<BatchResult> {
  const result = await applyOnly(trx, store, projection, schema, events);
  if (result.change) await recordBatches(trx, schema, [result.change]);
  return result;
}

/** Reads up to `batchSize` events after the projection's checkpoint in `schema` and applies them (applyEvents). */
export async function applyBatch(
  trx: Transaction<ReadModelDatabase>,
  store: EventStore,
  projection: Projection,
  schema: string,
  batchSize: number,
): Promise<BatchResult> {
  const checkpoint = await readCheckpoint(trx, projection.name, schema);
  // Projections never read metadata (Projection.apply), so it is left out of the read.
  const events = await store.readAll({ after: checkpoint, maxCount: batchSize, metadata: false });
  if (events.length === 0) return { read: 0, applied: 0, position: checkpoint, parks: [] };
  return applyEvents(trx, store, projection, schema, events);
}

/**
 * Applies every event after the projection's checkpoint, batch by batch, each batch in its own
 * transaction with the checkpoint. Returns when a read finds nothing new. An event whose data
 * cannot be applied is parked and passed (module docs; reported to `onPark`).
 * @throws what a batch threw when it was not a deterministic data failure (that batch rolled
 *   back; the checkpoint stays before it, so the next run tries it again).
 */
export async function catchUp(
  db: Kysely<ReadModelDatabase>,
  store: EventStore,
  projection: Projection,
  options: CatchUpOptions = {},
): Promise<CatchUpResult> {
  const schema = options.schema ?? READ_MODEL_SCHEMA;
  const batchSize = options.batchSize ?? 2000;
  const total: CatchUpResult = { applied: 0, read: 0, position: 0, parked: 0 };
  for (;;) {
    const result = await db.transaction().execute(async (trx) => {
      if (options.lock ?? true) await sql`SELECT pg_advisory_xact_lock(${lockKey(schema, projection.name)})`.execute(trx);
      return applyBatch(trx, store, projection, schema, batchSize);
    });
    total.position = result.position;
    for (const park of result.parks) {
      if (park.outcome === 'parked') total.parked += 1;
      options.onPark?.(park);
    }
    if (result.read === 0) return total;
    total.read += result.read;
    total.applied += result.applied;
    options.onBatch?.({ position: result.position, read: total.read, applied: total.applied });
    if (options.stopAfter !== undefined && result.position >= options.stopAfter) return total;
  }
}

/**
 * Thrown by a batch applied without savepoints (applyTogether's first attempt) when an event's
 * data failed: the transaction is lost, and the batch goes again with a savepoint around each
 * apply, so that the event can be found and parked.
 */
class CarefulRetry extends Error {
  constructor(readonly failure: unknown) {
    super('a data failure in a batch without savepoints');
  }
}

/** One projection's part of a batch applied together (applyTogether). */
export interface ProjectionBatch {
  projection: Projection;
  /** Its checkpoint before the batch (a global position). */
  from: number;
  result: BatchResult;
}

/** What one batch applied together did. */
export interface TogetherResult {
  /** Events read from the log (of any type), after the lowest checkpoint. */
  read: number;
  /** The last position read (the lowest checkpoint when nothing was read). */
  position: number;
  /** The projections that had events after their checkpoint, in the order given. */
  batches: ProjectionBatch[];
  /**
   * The projections left out because another transaction held their lock (a projector that
   * has not yet let go of a lease, a rebuild): waiting for it would hold every other projection
   * of the batch back with it.
   */
  busy: string[];
}

export interface TogetherOptions {
  /** Most events read from the log for the batch. */
  maxCount: number;
  /**
   * Runs each projection's part (`work`) inside the batch's transaction: the projector puts its
   * trace span around it. Default: just `work()`.
   */
  around?: (projection: Projection, from: number, work: () => Promise<BatchResult>) => Promise<BatchResult>;
}

/**
 * One batch for several projections in ONE transaction (live schema): their advisory locks
 * (one statement, in the order given, the order every other taker uses, so two takers never
 * deadlock), their checkpoints, one read of the log after the lowest of them, then each
 * projection's events after its own checkpoint applied as catchUp applies them (applyEvents:
 * parking inside savepoints, change notification, checkpoint), and one commit.
 *
 * Why together: under a steady write load every projection's batch holds a handful of events,
 * and the cost of a batch is its round trips and its commit, not its rows. Six projections in
 * six transactions read the same events six times and wait for six WAL flushes; together they
 * read once and flush once (docs/decisions/0102). The first attempt applies without the
 * savepoints parking needs (two round trips per projection saved, nearly every batch); a batch
 * whose data fails is rolled back and applied again with them, to park the event that failed.
 * @throws what a projection's apply threw when it was not a deterministic data failure: the
 *   whole batch is rolled back, every checkpoint stays where it was (the projector then runs
 *   each projection alone, so that one failing projection does not hold the others back).
 */
export async function applyTogether(
  db: Kysely<ReadModelDatabase>,
  store: EventStore,
  projections: readonly Projection[],
  options: TogetherOptions,
): Promise<TogetherResult> {
  try {
    return await applyTogetherOnce(db, store, projections, options, false);
  } catch (error) {
    if (!(error instanceof CarefulRetry)) throw error;
    return applyTogetherOnce(db, store, projections, options, true);
  }
}

/** applyTogether's transaction; `careful`: a savepoint around each apply, to park what fails. */
async function applyTogetherOnce(
  db: Kysely<ReadModelDatabase>,
  store: EventStore,
  projections: readonly Projection[],
  options: TogetherOptions,
  careful: boolean,
): Promise<TogetherResult> {
  if (projections.length === 0) return { read: 0, position: 0, batches: [], busy: [] };
  const schema = READ_MODEL_SCHEMA;
  const around = options.around ?? ((_projection, _from, work) => work());
  return db.transaction().execute(async (trx) => {
    // Tried, not waited for: a lock held elsewhere leaves its projection out of this batch (the
    // caller tries it again), so one projection held back never holds the others back.
    const { rows: [taken] } = await sql<Record<string, boolean>>`SELECT ${sql.join(projections.map((p, i) => sql`pg_try_advisory_xact_lock(${lockKey(schema, p.name)}) AS ${sql.ref(`l${i}`)}`))}`.execute(trx);
    const busy = projections.filter((_p, i) => taken?.[`l${i}`] !== true).map((p) => p.name);
    if (busy.length === projections.length) return { read: 0, position: 0, batches: [], busy };
    return applyLocked(trx, store, projections.filter((p) => !busy.includes(p.name)), options, careful, busy, around);
  });
}

/** applyTogetherOnce's work once the locks of `projections` are held in `trx`. */
async function applyLocked(
  trx: Transaction<ReadModelDatabase>,
  store: EventStore,
  projections: readonly Projection[],
  options: TogetherOptions,
  careful: boolean,
  busy: string[],
  around: NonNullable<TogetherOptions['around']>,
): Promise<TogetherResult> {
  const schema = READ_MODEL_SCHEMA;
  const rows = await trx.withSchema(schema).selectFrom('checkpoints').select(['projection', 'position'])
    .where('projection', 'in', projections.map((p) => p.name)).execute();
  const checkpoints = new Map(rows.map((row) => [row.projection, Number(row.position)]));
  const from = projections.map((p) => checkpoints.get(p.name) ?? 0);
  const lowest = Math.min(...from);
  const events = await store.readAll({ after: lowest, maxCount: options.maxCount, metadata: false });
  if (events.length === 0) return { read: 0, position: lowest, batches: [], busy };
  const batches: ProjectionBatch[] = [];
  for (const [i, projection] of projections.entries()) {
    const after = from[i]!;
    // A projection ahead of the lowest (one just claimed from another process, say) takes only
    // the events after its own checkpoint.
    const own = after === lowest ? events : events.filter((event) => event.globalPosition > after);
    if (own.length === 0) continue;
    const result = await around(projection, after, () => applyOnly(trx, store, projection, schema, own, careful));
    batches.push({ projection, from: after, result });
  }
  // Every checkpoint in one statement, every notification in another.
  await recordBatches(trx, schema, batches.flatMap((batch) => (batch.result.change ? [batch.result.change] : [])));
  return { read: events.length, position: events[events.length - 1]!.globalPosition, batches, busy };
}
