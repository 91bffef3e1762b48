/**
 * Read-only, filtered reads of the event log for the administrators' history, through the
 * EventStore's filtered reads (readEvents, countEvents) on either engine, from the protected
 * store (withPersonalDataProtection), so personal data follows the same rules as every other
 * read: an erased person's fields read null. Paging is a keyset on the global position, or
 * numbered pages (skip).
 *
 * Costs: on PostgreSQL one statement per page; stream and type filters use the log's indexes,
 * the team, participant and actor filters read jsonb without an index (a scan, bounded by the
 * position and the page size) — fine for an audit screen at one edition's size. On KurrentDB a
 * filtered read of `$all` (docs/event-store-engines.md).
 */
import type { HistoryEntity } from '@sinilill/contracts';
import type { DataCondition, EventSelector, EventStore, RecordedEvent } from '@sinilill/event-store';
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

/** Entities whose events share one stream, not a `<kind>-<id>` prefix. */
const SINGLE_STREAM: ReadonlySet<HistoryEntity> = new Set(['settings', 'operations']);

/** The filter as the store's selector. */
function selectorOf(filter: HistoryFilter): EventSelector {
  const selector: EventSelector = {};
  const single = filter.entity !== undefined && SINGLE_STREAM.has(filter.entity);
  if (filter.stream !== undefined) {
    // A stream of another single-stream entity matches nothing.
    selector.streams = single && filter.stream !== filter.entity ? [] : [filter.stream];
  } else if (single) {
    selector.streams = [filter.entity!];
  }
  if (filter.entity !== undefined && !single) selector.category = filter.entity;
  if (filter.type !== undefined) selector.types = [filter.type];
  const data: DataCondition[] = [];
  if (filter.team !== undefined) data.push({ field: 'teamId', values: [filter.team] });
  if (filter.participant !== undefined) data.push({ field: 'participantId', values: [filter.participant] });
  if (data.length > 0) selector.data = data;
  if (filter.actor !== undefined) selector.actorUserId = filter.actor;
  if (filter.from !== undefined) selector.recordedFrom = filter.from;
  if (filter.to !== undefined) selector.recordedBefore = filter.to;
  if (filter.until !== undefined) selector.until = filter.until;
  return selector;
}

/** Reads the event log for the admin history through the protected store (decrypted; erased fields null). */
export class HistoryReader {
  constructor(private readonly store: EventStore) {}

  /**
   * Events matching `filter` listed after global position `after` in `order` (ascending: greater
   * than it; descending: smaller, 0 meaning from the newest), at most `limit`, personal data
   * decrypted (null once erased).
   */
  page(filter: HistoryFilter, after: number, limit: number, order: 'asc' | 'desc' = 'asc'): Promise<RecordedEvent[]> {
    const bound = order === 'asc' ? { after } : after > 0 ? { before: after } : {};
    return this.store.readEvents({ ...selectorOf(filter), ...bound }, { direction: order === 'asc' ? 'forwards' : 'backwards', maxCount: limit });
  }

  /**
   * Events matching `filter` in `order`, skipping the first `offset`, at most `limit` (numbered
   * pages: the log is some tens of thousands of events).
   */
  pageAt(filter: HistoryFilter, order: 'asc' | 'desc', offset: number, limit: number): Promise<RecordedEvent[]> {
    return this.store.readEvents(selectorOf(filter), { direction: order === 'asc' ? 'forwards' : 'backwards', skip: offset, maxCount: limit });
  }

  /**
   * How many events match `filter`; with `listedBefore`, only those listed before the moment in
   * `order` (newest first: recorded after it; oldest first: recorded before it).
   */
  count(filter: HistoryFilter, listedBefore?: { at: Date; order: 'asc' | 'desc' }): Promise<number> {
    const selector = selectorOf(filter);
    if (listedBefore?.order === 'desc') selector.recordedAfter = listedBefore.at;
    // Both bounds are "before": the later one is already implied by the earlier.
    if (listedBefore?.order === 'asc') selector.recordedBefore = selector.recordedBefore && selector.recordedBefore < listedBefore.at ? selector.recordedBefore : listedBefore.at;
    return this.store.countEvents(selector);
  }

  /** One stream's events in revision order, decrypted (the store's own read). */
  stream(stream: string): Promise<RecordedEvent[]> {
    return this.store.readStream(stream);
  }

  /**
   * Everything teamAsOf needs for `teamId`, recorded at or before `at`, in global order (the
   * whole millisecond of `at` counts: PostgreSQL keeps microseconds, the API shows milliseconds,
   * and an event listed as recorded at `at` must be in the figures as of `at`): the team's stream
   * and every participant or entry stream whose events ever named the team (all of such a
   * stream's events, so that a move to another team is seen as one). Two filtered reads: the
   * streams that named the team, then their events.
   */
  async teamEvents(teamId: number, at: Date): Promise<RecordedEvent[]> {
    const naming = await this.store.readEvents({ data: [{ field: 'teamId', values: [teamId] }] });
    const streams = [...new Set(naming.map((event) => event.stream))];
    if (streams.length === 0) return [];
    return this.store.readEvents({ streams, types: [...TEAM_AS_OF_EVENTS], recordedBefore: new Date(at.getTime() + 1) });
  }
}
