/**
 * The EventStore on PostgreSQL (schema `es`, see migrations/0001-event-log.ts).
 *
 * **Appends** go through group commit (append-batcher.ts): an append joins the next
 * batch, and a batch is one call of the PL/pgSQL function `es.append_batch` (migration 0002), one
 * round trip and one transaction in autocommit. For every group (one appendToStreams call) it
 * locks the stream rows (`es.streams`, in name order across the batch: batches cannot deadlock),
 * checks idempotency by event id, then the expected revisions, bumps the stream revisions and
 * finally inserts the events of every group it accepted. Two appends to one stream are never in
 * one batch and are serialised by the stream row lock across batches and processes, so a lost
 * race surfaces as WrongExpectedRevisionError, never as a unique violation.
 *
 * **Global order without skips.** Sequence values commit out of order: if transaction A takes
 * position 5 and B takes 6 and commits first, a reader at checkpoint 4 could see 6, move its
 * checkpoint to 6 and never see 5. Here positions are allocated *while holding a
 * transaction-scoped advisory lock* (`pg_advisory_xact_lock(APPEND_LOCK)`), taken as the last
 * step of the batch and released by PostgreSQL only after the commit is visible. The next
 * appender therefore allocates its positions only after every lower position is committed (and
 * visible to every new snapshot) or rolled back (a permanent gap). So any snapshot that sees
 * position p sees every committed position below p, and `readAll` can be a plain index range
 * scan `global_position > after`; the checkpoint stays a plain global position. The lock
 * serialises position allocation, the insert and the commit of *batches*; group commit is what
 * makes that cheap under load: 32 concurrent appends cost one lock hold and one WAL flush, not 32
 * (measurements in docs/decisions/0029).
 *
 * **Reads** are index range scans: readAll on the primary key, readStream on (stream, revision),
 * readAll with `types` through `es.read_all_of_types` (one ordered (type, position) range per
 * type, plan pinned so that stale statistics cannot turn a replay quadratic). ~100–350k events/s
 * in batches of 1000–5000.
 *
 * Positions and revisions travel as JS numbers (bigint columns parsed with Number()).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { planAppend, type AppendParameters } from './append-plan';
import { upcastEvent } from './upcasters';
import { AppendBatcher, batchValues, settleGroup, type BatchRow } from './append-batcher';
import { checkSelector } from './event-selector';
import {
  AppendConditionFailedError,
  DuplicateEventIdError,
  OMITTED_METADATA,
  type AppendCondition,
  type AppendRequest,
  type AppendResult,
  type EventData,
  type EventMetadata,
  type EventSelector,
  type EventStore,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadEventsOptions,
  type ReadStreamOptions,
  type ReadStreamsOptions,
  type ReadStreamsResult,
  type RecordedEvent,
} from './types';

/** How to reach the database: a pool the caller owns, or a URL for a pool the store owns. */
export type PostgresEventStoreOptions = ({ pool: pg.Pool } | { connectionString: string; poolSize?: number }) & {
  /**
   * Test-only hook: when set, each append runs alone (no group commit) in an explicit
   * transaction and this is awaited after `es.append_batch` returned and before COMMIT, i.e.
   * while the append still holds its locks.
   * Receives the results the append will have once committed. Never set it in production.
   */
  beforeCommit?: (results: readonly AppendResult[]) => Promise<void>;
};

/** A row of es.events as pg returns it (bigints as strings, or numbers from a reader that parses them). */
export interface EventRow {
  global_position: string | number;
  event_id: string;
  stream: string;
  revision: string | number;
  type: string;
  schema_version: number;
  data: unknown;
  /** Absent when read without metadata (ReadAllOptions.metadata false). */
  metadata?: EventMetadata;
  /** The recorded time: as a timestamp, or (readAll) as epoch milliseconds in recorded_ms. */
  recorded_at?: Date;
  recorded_ms?: number;
}

/** The columns of es.events a RecordedEvent is made of, in EventRow's order. */
export const EVENT_COLUMNS = 'global_position, event_id, stream, revision, type, schema_version, data, metadata, recorded_at';
const COLUMNS = EVENT_COLUMNS;
const RECORDED_MS = '(extract(epoch FROM recorded_at) * 1000)::float8 AS recorded_ms';
/** readAll's columns: EVENT_COLUMNS with recorded_at as epoch milliseconds. */
const FAST_COLUMNS = `global_position, event_id, stream, revision, type, schema_version, data, metadata, ${RECORDED_MS}`;
/** readAll's columns without the metadata (ReadAllOptions.metadata false). */
const LEAN_COLUMNS = `global_position, event_id, stream, revision, type, schema_version, data, ${RECORDED_MS}`;

const SQL = {
  appendBatch: 'SELECT request_index, outcome, next_expected_revision, last_position, detail FROM es.append_batch($1::int[], $2::text[], $3::text[], $4::int[], $5::jsonb, $6::uuid[])',
  readStream: `SELECT ${COLUMNS} FROM es.events WHERE stream = $1 AND revision >= $2 ORDER BY revision LIMIT $3`,
  // recorded_at as epoch milliseconds: a float is parsed ten times faster than a timestamp's text
  // (a replay reads a million of them).
  readAll: `SELECT ${FAST_COLUMNS} FROM es.events WHERE global_position > $1 ORDER BY global_position LIMIT $2`,
  readAllLean: `SELECT ${LEAN_COLUMNS} FROM es.events WHERE global_position > $1 ORDER BY global_position LIMIT $2`,
  // The streams' events (part 0) and the event looked up by id (part 1), in one round trip.
  // One (stream, revision) index probe per name, whatever the statistics say (a join over the
  // names was planned as a scan once the log outgrew its statistics: 0.6 s per 5 000 names).
  readStreams: `SELECT * FROM (
      SELECT 0 AS part, e.* FROM unnest($1::text[], $2::bigint[]) AS r(s, from_rev)
      CROSS JOIN LATERAL (
        SELECT ${COLUMNS} FROM es.events WHERE stream = r.s AND revision >= r.from_rev ORDER BY revision
      ) e
      UNION ALL
      SELECT 1 AS part, ${COLUMNS} FROM es.events WHERE event_id = $3::uuid
    ) x ORDER BY part, stream, revision`,
  // A function so that it can pin its plan (see migrations/0001-event-log.ts): at most types × $2 rows per batch.
  readAllTypes: `SELECT ${COLUMNS} FROM es.read_all_of_types($1, $2, $3::text[])`,
  head: 'SELECT coalesce(max(global_position), 0) AS head FROM es.events',
  findEvent: `SELECT ${COLUMNS} FROM es.events WHERE event_id = $1`,
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * EventStore backed by PostgreSQL; migrate schema `es` first (`runMigrations(pool, [eventStoreMigrations])`,
 * or the CLI's migrateToLatest).
 * Errors: WrongExpectedRevisionError / DuplicateEventIdError from appends (see the interface),
 * TypeError for malformed requests (planAppend), pg errors for anything else (connection...).
 */
export class PostgresEventStore implements EventStore {
  private readonly pool: pg.Pool;
  private readonly ownsPool: boolean;
  private readonly beforeCommit: PostgresEventStoreOptions['beforeCommit'];
  private readonly batcher: AppendBatcher;
  private closed = false;

  constructor(options: PostgresEventStoreOptions) {
    if ('pool' in options) {
      this.pool = options.pool;
      this.ownsPool = false;
    } else {
      this.pool = new pg.Pool({ connectionString: options.connectionString, max: options.poolSize ?? 10 });
      this.ownsPool = true;
    }
    this.beforeCommit = options.beforeCommit;
    this.batcher = new AppendBatcher(this.pool, SQL.appendBatch, translateAppendError);
  }

  /** See EventStore.appendToStream. `expectedRevision` is checked only when the append is not a repeat. */
  async appendToStream(
    stream: string,
    events: EventData[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    const [result] = await this.appendToStreams([{ stream, events, expectedRevision: options.expectedRevision }]);
    return result!;
  }

  /**
   * See EventStore.appendToStreams. Each request is idempotent on its own (a request whose ids
   * are all stored in its stream is a no-op returning the stored result, `repeated: true`). A
   * stream may appear only once per call (TypeError otherwise). An empty `events` list only
   * checks the revision (holding the stream's row lock until the append commits) and returns the
   * stream's revision (-1 when it does not exist) and its last event's position (0 when none).
   *
   * Group commit: the call joins the batch that goes to PostgreSQL next (see
   * AppendBatcher); it is checked and answered on its own, and a refused neighbour in the batch
   * changes nothing for it.
   */
  async appendToStreams(requests: AppendRequest[]): Promise<AppendResult[]> {
    this.assertOpen();
    const plan = planAppend(requests);
    if (this.beforeCommit) return this.appendHeld(requests, plan);
    return this.batcher.append(requests, plan);
  }

  /** The test-only path of `beforeCommit`: one group alone, in an explicit transaction. */
  private appendHeld(requests: AppendRequest[], plan: AppendParameters): Promise<AppendResult[]> {
    return this.appendAlone(requests, plan, (results) => this.beforeCommit!(results));
  }

  /**
   * See EventStore.appendToStreamsIf: one group alone, in an explicit transaction on its own
   * connection: `es.append_batch` (stream locks, checks, the global-order lock, the insert), then
   * the condition's statement on the same connection (nothing else can append meanwhile; the
   * append's own events do not count), then the test-only `beforeCommit`, then COMMIT or ROLLBACK.
   * @throws AppendConditionFailedError when a selector picks an event after `noneAfter`; the
   *   append's own errors; TypeError for a malformed selector.
   */
  async appendToStreamsIf(requests: AppendRequest[], condition: AppendCondition): Promise<AppendResult[]> {
    this.assertOpen();
    const plan = planAppend(requests);
    const check = conditionSql(condition, requests.flatMap((r) => r.events.map((e) => e.id)));
    return this.appendAlone(requests, plan, async (results, client) => {
      if (check) {
        const { rows } = await client.query<{ found: boolean }>(check.text, check.values);
        if (rows[0]?.found) throw new AppendConditionFailedError(requests.map((r) => r.stream));
      }
      await this.beforeCommit?.(results);
    });
  }

  /**
   * One group outside group commit, in an explicit transaction on a connection of its own:
   * `es.append_batch`, then `beforeCommit` (its results, the connection) while the append still
   * holds its locks, then COMMIT; any throw rolls back and reaches the caller (translated).
   */
  private async appendAlone(
    requests: AppendRequest[],
    plan: AppendParameters,
    beforeCommit: (results: AppendResult[], client: pg.PoolClient) => Promise<void>,
  ): Promise<AppendResult[]> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const rows = (await client.query<BatchRow>({ name: 'es.appendBatch', text: SQL.appendBatch, values: batchValues([{ requests, plan }]) })).rows;
      const results = settleGroup(requests, rows);
      if (results instanceof Error) throw results;
      await beforeCommit(results, client);
      await client.query('COMMIT');
      return results;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw translateAppendError(error);
    } finally {
      client.release();
    }
  }

  /**
   * See EventStore.readStreams: one statement for every stream, the event looked up by id and, with
   * `streamsOf`, the streams of the events the selector picks (its types written in as literals,
   * as readEvents does, so that the partial indexes serve it; named by its text).
   */
  async readStreams(
    requests: readonly { stream: string; fromRevision?: number }[],
    options: ReadStreamsOptions = {},
  ): Promise<ReadStreamsResult> {
    this.assertOpen();
    const eventId = options.eventId !== undefined && UUID.test(options.eventId) ? options.eventId : null;
    const streamsOf = options.streamsOf;
    if (requests.length === 0 && eventId === null && !streamsOf) return { streams: [], event: null };
    const values: unknown[] = [requests.map((r) => r.stream), requests.map((r) => r.fromRevision ?? 0), eventId];
    let query: { name: string; text: string } = { name: 'es.readStreams', text: SQL.readStreams };
    if (streamsOf) {
      checkSelector(streamsOf);
      const where = selectorWhere(streamsOf, values);
      const text = `${SQL.readStreams.slice(0, SQL.readStreams.lastIndexOf(') x ORDER BY'))}
      UNION ALL
      SELECT 2 AS part, e.* FROM (SELECT DISTINCT stream AS s FROM es.events WHERE ${where}) f
      CROSS JOIN LATERAL (SELECT ${COLUMNS} FROM es.events WHERE stream = f.s ORDER BY revision) e
    ) x ORDER BY part, stream, revision`;
      query = { name: `es.readStreamsOf:${createHash('sha1').update(text).digest('hex').slice(0, 16)}`, text };
    }
    const { rows } = await this.pool.query<EventRow & { part: number }>({ ...query, values });
    const byStream = new Map<string, RecordedEvent[]>(requests.map((r) => [r.stream, []]));
    let event: RecordedEvent | null = null;
    const found: RecordedEvent[][] = [];
    for (const row of rows) {
      if (row.part === 1) event = toRecordedEvent(row);
      else if (row.part === 2) {
        const last = found.at(-1);
        if (last && last[0]!.stream === row.stream) last.push(toRecordedEvent(row));
        else found.push([toRecordedEvent(row)]);
      } else byStream.get(row.stream)?.push(toRecordedEvent(row));
    }
    return { streams: requests.map((r) => byStream.get(r.stream) ?? []), event, ...(streamsOf ? { found } : {}) };
  }

  /** See EventStore.readStream. `fromRevision` inclusive (default 0), `maxCount` default all. */
  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const from = options.fromRevision ?? 0;
    const limit = options.maxCount ?? null;
    const { rows } = await this.pool.query<EventRow>({ name: 'es.readStream', text: SQL.readStream, values: [stream, from, limit] });
    return rows.map(toRecordedEvent);
  }

  /**
   * See EventStore.readAll: events with global position > `after`, ascending, at most `maxCount`
   * (an integer >= 1; TypeError otherwise), optionally only of `types`. Safe to use as a
   * checkpoint loop: see the module docs for why nothing is skipped.
   */
  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    this.assertOpen();
    const { after, maxCount, types, metadata = true } = options;
    if (!Number.isSafeInteger(after) || after < 0) throw new TypeError(`readAll: invalid after ${String(after)}`);
    if (!Number.isSafeInteger(maxCount) || maxCount < 1) throw new TypeError(`readAll: invalid maxCount ${String(maxCount)}`);
    const { rows } = types
      ? await this.pool.query<EventRow>({ name: 'es.readAllTypes', text: SQL.readAllTypes, values: [after, maxCount, [...new Set(types)]] })
      : metadata
        ? await this.pool.query<EventRow>({ name: 'es.readAll', text: SQL.readAll, values: [after, maxCount] })
        : await this.pool.query<EventRow>({ name: 'es.readAllLean', text: SQL.readAllLean, values: [after, maxCount] });
    return rows.map(toRecordedEvent);
  }

  /**
   * See EventStore.readEvents: one statement, in global-position order. The selector's types are
   * written into the statement as literals so that the planner can use partial indexes whose
   * predicate names them (e.g. the stream index's `(data->>'teamId', global_position) WHERE type =
   * 'ParticipantRegistered'`); everything else is a parameter.
   */
  async readEvents(selector: EventSelector, options: ReadEventsOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    checkSelector(selector, options);
    const values: unknown[] = [];
    const where = selectorWhere(selector, values);
    const direction = options.direction === 'backwards' ? 'DESC' : 'ASC';
    const limit = options.maxCount !== undefined ? ` LIMIT ${options.maxCount}` : '';
    const offset = options.skip ? ` OFFSET ${options.skip}` : '';
    const { rows } = await this.pool.query<EventRow>(`SELECT ${COLUMNS} FROM es.events WHERE ${where} ORDER BY global_position ${direction}${limit}${offset}`, values);
    return rows.map(toRecordedEvent);
  }

  /** See EventStore.countEvents: one count(*) statement over the same conditions as readEvents. */
  async countEvents(selector: EventSelector): Promise<number> {
    this.assertOpen();
    checkSelector(selector);
    const values: unknown[] = [];
    const { rows } = await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM es.events WHERE ${selectorWhere(selector, values)}`, values);
    return Number(rows[0]?.n ?? 0);
  }

  /** See EventStore.headPosition: the highest committed global position, 0 for an empty log. */
  async headPosition(): Promise<number> {
    this.assertOpen();
    const { rows } = await this.pool.query<{ head: string }>({ name: 'es.head', text: SQL.head });
    return Number(rows[0]?.head ?? 0);
  }

  /** See EventStore.findEvent; null also for a string that is not a UUID. */
  async findEvent(eventId: string): Promise<RecordedEvent | null> {
    this.assertOpen();
    if (!UUID.test(eventId)) return null;
    const { rows } = await this.pool.query<EventRow>({ name: 'es.findEvent', text: SQL.findEvent, values: [eventId] });
    const row = rows[0];
    return row ? toRecordedEvent(row) : null;
  }

  /** Marks the store closed; ends the pool only when the store created it (connectionString). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.end();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

/**
 * The WHERE clause of `selector` over es.events, its parameters pushed onto `values`. Types and
 * the data field are literals (escaped; the field was checked against DATA_FIELD), so partial and
 * expression indexes match; stream names, values, ids, times and positions are parameters.
 */
function selectorWhere(selector: EventSelector, values: unknown[]): string {
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const where: string[] = [];
  if (selector.streams) where.push(`stream = ANY(${param([...selector.streams])}::text[])`);
  if (selector.category !== undefined) where.push(`stream LIKE ${param(`${selector.category.replace(/[\\%_]/g, '\\$&')}-%`)}`);
  if (selector.types) where.push(selector.types.length === 0 ? 'FALSE' : `type IN (${[...new Set(selector.types)].map((t) => pg.escapeLiteral(t)).join(', ')})`);
  for (const condition of selector.data ?? []) where.push(`data->>${pg.escapeLiteral(condition.field)} = ANY(${param(condition.values.map(String))}::text[])`);
  if (selector.actorUserId !== undefined) where.push(`metadata->'actor'->>'userId' = ${param(selector.actorUserId)}`);
  if (selector.recordedFrom !== undefined) where.push(`recorded_at >= ${param(selector.recordedFrom)}`);
  if (selector.recordedAfter !== undefined) where.push(`recorded_at > ${param(selector.recordedAfter)}`);
  if (selector.recordedBefore !== undefined) where.push(`recorded_at < ${param(selector.recordedBefore)}`);
  if (selector.after !== undefined) where.push(`global_position > ${param(selector.after)}::bigint`);
  if (selector.before !== undefined) where.push(`global_position < ${param(selector.before)}::bigint`);
  if (selector.until !== undefined) where.push(`global_position <= ${param(selector.until)}::bigint`);
  return where.length > 0 ? where.join(' AND ') : 'TRUE';
}

/**
 * The statement that tells whether an AppendCondition fails: one EXISTS per selector (each can
 * use its own index), OR-ed, leaving out the append's own events (`ownIds`: it runs inside the
 * append's transaction, after the insert); null when there is no selector (the condition holds).
 * @throws TypeError for a malformed selector or position.
 */
function conditionSql(condition: AppendCondition, ownIds: readonly string[]): { text: string; values: unknown[] } | null {
  if (!Number.isSafeInteger(condition.noneAfter) || condition.noneAfter < 0) throw new TypeError(`appendToStreamsIf: invalid noneAfter ${String(condition.noneAfter)}`);
  if (condition.selectors.length === 0) return null;
  const values: unknown[] = [[...ownIds]];
  const parts = condition.selectors.map((selector) => {
    checkSelector(selector);
    const after = Math.max(selector.after ?? 0, condition.noneAfter);
    return `EXISTS (SELECT 1 FROM es.events WHERE ${selectorWhere({ ...selector, after }, values)} AND event_id <> ALL($1::uuid[]))`;
  });
  return { text: `SELECT ${parts.join(' OR ')} AS found`, values };
}

/**
 * One stream of the PostgreSQL log read with a caller's query runner (pg's Pool.query, or a
 * Kysely raw query), for code that has the database but no EventStore (a query API built without
 * one in tests); the same statement and result as PostgresEventStore.readStream. Anything that
 * has an EventStore reads through it instead (either engine).
 */
export function postgresStreamReader(run: (text: string, values: readonly unknown[]) => Promise<{ rows: readonly unknown[] }>): (stream: string) => Promise<RecordedEvent[]> {
  return async (stream) => (await run(SQL.readStream, [stream, 0, null])).rows.map((row) => toRecordedEvent(row as EventRow));
}

/** An es.events row as the store's RecordedEvent (personal fields still encrypted), upcast to its type's current schema version (upcasters.ts). */
export function toRecordedEvent(row: EventRow): RecordedEvent {
  return upcastEvent({
    id: row.event_id,
    type: row.type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata ?? OMITTED_METADATA,
    stream: row.stream,
    revision: Number(row.revision),
    globalPosition: Number(row.global_position),
    recordedAt: row.recorded_ms !== undefined ? new Date(row.recorded_ms) : row.recorded_at!,
  });
}

/**
 * Maps a failed append's unique violation to the interface's error: two appends racing with the
 * same event id into different streams (another process, uncommitted when this one probed), the
 * loser's insert collides. Wrong revisions and ids stored elsewhere come back as rows of
 * `es.append_batch` (settleGroup), not as errors.
 */
export function translateAppendError(error: unknown): unknown {
  if (!(error instanceof Error) || !('code' in error)) return error;
  const { code, detail, constraint } = error as pg.DatabaseError;
  if (code === '23505' && constraint === 'events_event_id_key') {
    const id = /\(event_id\)=\(([^)]+)\)/.exec(detail ?? '')?.[1] ?? 'unknown';
    return new DuplicateEventIdError(id);
  }
  return error;
}
