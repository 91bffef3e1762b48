/**
 * The engine-neutral half of EventStore.readEvents / countEvents / appendToStreamsIf: checking an
 * EventSelector and its read options, and deciding whether one recorded event matches it. The
 * KurrentDB adapter filters with `matchesSelector` what it cannot ask the server to filter; the
 * PostgreSQL adapter translates the same selector to SQL (postgres-event-store.ts) and must agree
 * with this function (the contract suite runs the same cases on both).
 */
import type { EventSelector, ReadEventsOptions, RecordedEvent } from './types';

/** A payload field a selector may name: a plain top-level property name. */
export const DATA_FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Refuses a malformed selector before any engine sees it.
 * @throws TypeError naming the bad part (a data field that is not a plain name, a position that
 *   is not a non-negative safe integer, an invalid date).
 */
export function checkSelector(selector: EventSelector, options: ReadEventsOptions = {}): void {
  for (const condition of selector.data ?? []) {
    if (!DATA_FIELD.test(condition.field)) throw new TypeError(`readEvents: invalid data field ${JSON.stringify(condition.field)}`);
  }
  for (const key of ['after', 'before', 'until'] as const) {
    const value = selector[key];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) throw new TypeError(`readEvents: invalid ${key} ${String(value)}`);
  }
  for (const key of ['recordedFrom', 'recordedAfter', 'recordedBefore'] as const) {
    const value = selector[key];
    if (value !== undefined && Number.isNaN(value.getTime())) throw new TypeError(`readEvents: invalid ${key}`);
  }
  if (options.maxCount !== undefined && (!Number.isSafeInteger(options.maxCount) || options.maxCount < 1)) {
    throw new TypeError(`readEvents: invalid maxCount ${String(options.maxCount)}`);
  }
  if (options.skip !== undefined && (!Number.isSafeInteger(options.skip) || options.skip < 0)) throw new TypeError(`readEvents: invalid skip ${String(options.skip)}`);
}

/**
 * A payload value as PostgreSQL's `data->>'field'` renders it: strings as they are, numbers and
 * booleans as JSON text; null, absent, objects and arrays as null (they match no selector value).
 */
export function dataText(data: unknown, field: string): string | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const value = (data as Record<string, unknown>)[field];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  return null;
}

/** Whether `event` is one that `selector` picks (every given criterion holds). */
export function matchesSelector(event: RecordedEvent, selector: EventSelector): boolean {
  const position = event.globalPosition;
  if (selector.after !== undefined && position <= selector.after) return false;
  if (selector.before !== undefined && position >= selector.before) return false;
  if (selector.until !== undefined && position > selector.until) return false;
  if (selector.streams && !selector.streams.includes(event.stream)) return false;
  if (selector.category !== undefined && !event.stream.startsWith(`${selector.category}-`)) return false;
  if (selector.types && !selector.types.includes(event.type)) return false;
  for (const condition of selector.data ?? []) {
    const text = dataText(event.data, condition.field);
    if (text === null || !condition.values.some((value) => String(value) === text)) return false;
  }
  if (selector.actorUserId !== undefined && event.metadata.actor.userId !== selector.actorUserId) return false;
  const at = event.recordedAt.getTime();
  if (selector.recordedFrom !== undefined && at < selector.recordedFrom.getTime()) return false;
  if (selector.recordedAfter !== undefined && at <= selector.recordedAfter.getTime()) return false;
  if (selector.recordedBefore !== undefined && at >= selector.recordedBefore.getTime()) return false;
  return true;
}
