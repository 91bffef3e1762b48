/**
 * Read-only, filtered reads of the event log (es.events) for the administrators' history.
 *
 * Why SQL beside the EventStore: readAll filters by type only, so a filter on a team, an actor
 * or a time range would scan the whole log through the API page by page. These queries filter
 * in PostgreSQL and then decrypt through the protected store (revealPersonalData), so personal
 * data follows the same rules as every other read: an erased person's fields read null.
 * Paging is a keyset on the global position; `global_position > after` is as safe as readAll
 * itself (positions become visible in order, see postgres-event-store.ts).
 *
 * Costs: stream and type filters use es.events' indexes; the team, participant and actor
 * filters read jsonb without an index (a scan, bounded by `after` and the page size). Fine
 * for an audit screen at one edition's size; an expression index is the remedy if it is not.
 * Works only while the store is the PostgreSQL one (docs/decisions/0016).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { HistoryEntity } from '@sinilill/contracts';
import type { ReadModelDatabase } from '@sinilill/read-models';
import { EVENT_COLUMNS, revealPersonalData, toRecordedEvent, type EventRow, type EventStore, type RecordedEvent } from '@sinilill/event-store';
import { TEAM_AS_OF_EVENTS } from './history-fold';

/** Filters of the history, combined with AND; absent ones do not filter. */
export interface HistoryFilter {
  stream?: string;
  entity?: HistoryEntity;
  type?: string;
  /** data.teamId */
  team?: number;
  /** data.participantId */
  participant?: number;
  /** metadata.actor.userId */
  actor?: string;
  /** recorded_at >= from */
  from?: Date;
  /** recorded_at < to */
  to?: Date;
  /** global_position <= until (an export's fixed end). */
  until?: number;
}

const COLUMNS = sql.raw(EVENT_COLUMNS);

/** Entities whose events share one stream, not a `<kind>-<id>` prefix. */
const SINGLE_STREAM: ReadonlySet<HistoryEntity> = new Set(['settings', 'operations']);

function conditions(filter: HistoryFilter): RawBuilder<unknown>[] {
  const where: RawBuilder<unknown>[] = [];
  if (filter.stream !== undefined) where.push(sql`stream = ${filter.stream}`);
  if (filter.entity !== undefined) {
    // Entity names hold no LIKE wildcards, so the prefix needs no escaping.
    where.push(SINGLE_STREAM.has(filter.entity) ? sql`stream = ${filter.entity}` : sql`stream LIKE ${`${filter.entity}-%`}`);
  }
  if (filter.type !== undefined) where.push(sql`type = ${filter.type}`);
  // Compared as text: ids are stored as JSON numbers, and ->> renders them without decoration.
  if (filter.team !== undefined) where.push(sql`data->>'teamId' = ${String(filter.team)}`);
  if (filter.participant !== undefined) where.push(sql`data->>'participantId' = ${String(filter.participant)}`);
  if (filter.actor !== undefined) where.push(sql`metadata->'actor'->>'userId' = ${filter.actor}`);
  if (filter.from !== undefined) where.push(sql`recorded_at >= ${filter.from}`);
  if (filter.to !== undefined) where.push(sql`recorded_at < ${filter.to}`);
  if (filter.until !== undefined) where.push(sql`global_position <= ${filter.until}`);
  return where;
}

/**
 * Reads the event log for the admin history: SQL filters over es.events (readAll filters only by
 * type), then the protected store's decryption, so erased personal data reads null.
 */
export class HistoryReader {
  constructor(
    private readonly db: Kysely<ReadModelDatabase>,
    private readonly store: EventStore,
  ) {}

  /**
   * Events matching `filter` listed after global position `after` in `order` (ascending: greater
   * than it; descending: smaller, 0 meaning from the newest), at most `limit`, personal data
   * decrypted (null once erased).
   */
  async page(filter: HistoryFilter, after: number, limit: number, order: 'asc' | 'desc' = 'asc'): Promise<RecordedEvent[]> {
    const bound = order === 'asc' ? [sql`global_position > ${after}`] : after > 0 ? [sql`global_position < ${after}`] : [];
    const where = [...bound, ...conditions(filter)];
    const direction = sql.raw(order === 'asc' ? 'ASC' : 'DESC');
    const { rows } = await sql<EventRow>`SELECT ${COLUMNS} FROM es.events WHERE ${where.length > 0 ? sql.join(where, sql` AND `) : sql`TRUE`}
      ORDER BY global_position ${direction} LIMIT ${limit}`.execute(this.db);
    return revealPersonalData(this.store, rows.map(toRecordedEvent));
  }

  /**
   * Events matching `filter` in `order`, skipping the first `offset`, at most `limit` (numbered
   * pages: the log is some tens of thousands of events, which OFFSET walks in milliseconds).
   */
  async pageAt(filter: HistoryFilter, order: 'asc' | 'desc', offset: number, limit: number): Promise<RecordedEvent[]> {
    const where = conditions(filter);
    const direction = sql.raw(order === 'asc' ? 'ASC' : 'DESC');
    const { rows } = await sql<EventRow>`SELECT ${COLUMNS} FROM es.events WHERE ${where.length > 0 ? sql.join(where, sql` AND `) : sql`TRUE`}
      ORDER BY global_position ${direction} LIMIT ${limit} OFFSET ${offset}`.execute(this.db);
    return revealPersonalData(this.store, rows.map(toRecordedEvent));
  }

  /**
   * How many events match `filter`; with `listedBefore`, only those listed before the moment in
   * `order` (newest first: recorded after it; oldest first: recorded before it).
   */
  async count(filter: HistoryFilter, listedBefore?: { at: Date; order: 'asc' | 'desc' }): Promise<number> {
    const where = conditions(filter);
    if (listedBefore) where.push(listedBefore.order === 'desc' ? sql`recorded_at > ${listedBefore.at}` : sql`recorded_at < ${listedBefore.at}`);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM es.events WHERE ${where.length > 0 ? sql.join(where, sql` AND `) : sql`TRUE`}`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  /** One stream's events in revision order, decrypted (the store's own read). */
  stream(stream: string): Promise<RecordedEvent[]> {
    return this.store.readStream(stream);
  }

  /**
   * Everything teamAsOf needs for `teamId`, recorded at or before `at`, in global order (the
   * whole millisecond of `at` counts: PostgreSQL keeps microseconds, the API shows milliseconds,
   * and an event listed as recorded at `at` must be in the figures as of `at`): the
   * team's stream and every participant or entry stream whose events ever named the team (all
   * of such a stream's events, so that a move to another team is seen as one).
   */
  async teamEvents(teamId: number, at: Date): Promise<RecordedEvent[]> {
    const { rows } = await sql<EventRow>`SELECT ${COLUMNS} FROM es.events
      WHERE stream IN (SELECT DISTINCT stream FROM es.events WHERE data->>'teamId' = ${String(teamId)})
        AND type = ANY(${[...TEAM_AS_OF_EVENTS]}::text[])
        AND recorded_at < ${new Date(at.getTime() + 1)}
      ORDER BY global_position`.execute(this.db);
    // Not decrypted: the fold reads ids, names of teams and distances only, none of them
    // personal, and these events never leave the server as they are.
    return rows.map(toRecordedEvent);
  }
}
