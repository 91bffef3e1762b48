/**
 * Readable texts for the audit: a field change of a timeline ("Distance: 40.25 → 25.5")
 * and a one-line summary of an event's data for the history table. The fields are named in the
 * page's language (a FieldLabel); values appear as the log holds them (km as numbers with a
 * decimal point, instants ISO-8601 UTC), not translated or reformatted: an audit shows what was
 * written.
 */
import type { FieldChange, HistoryActor } from '@sinilill/contracts';

/** Shown for a value that was not there (a field's first value, or one removed). */
export const NO_VALUE = '—';

/** Longest text of one value before it is cut with "…" (a data URL icon can be megabytes). */
export const MAX_VALUE_LENGTH = 80;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * One value as text: null/undefined "—", an empty string `""`, a string as it is, numbers and
 * booleans as JSON writes them, arrays and objects as compact JSON; all cut to `max` characters.
 */
export function formatValue(value: unknown, max: number = MAX_VALUE_LENGTH): string {
  if (value === null || value === undefined) return NO_VALUE;
  if (typeof value === 'string') return value === '' ? '""' : cut(value, max);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  return cut(json ?? String(value), max);
}

/** A field's name as a person reads it ("entryType" → "Type"); by default the name itself. */
export type FieldLabel = (field: string) => string;

const rawName: FieldLabel = (field) => field;

/**
 * A field's name in words when no translation names it: "entryType" and "entry_type" → "Entry
 * type". Better than the raw name for a field added later, still recognisable in the log.
 */
export function humanizeField(field: string): string {
  const words = field.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').trim().toLowerCase();
  return words === '' ? field : words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A field change as "label: before → after" ("Distance: 5 → 7.5"; a new field "Distance: — → 5");
 * `label` names the field (default: its raw name).
 */
export function formatChange(change: FieldChange, label: FieldLabel = rawName): string {
  return `${label(change.field)}: ${formatValue(change.before)} → ${formatValue(change.after)}`;
}

/** Longest summary of an event's data in the history table. */
export const MAX_SUMMARY_LENGTH = 160;

/**
 * An event's data in one line, "label: value" pairs joined by " · " in the data's own order,
 * each value cut as formatValue does and the whole cut to `max` characters. Data that is not an
 * object is shown as one value; an empty object as "—".
 */
export function summarizeData(data: unknown, max: number = MAX_SUMMARY_LENGTH, label: FieldLabel = rawName): string {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return formatValue(data, max);
  const pairs = Object.entries(data as Record<string, unknown>).map(([field, value]) => `${label(field)}: ${formatValue(value, 40)}`);
  return pairs.length === 0 ? NO_VALUE : cut(pairs.join(' · '), max);
}

/** How an actor reads: who (a user id, or nobody for the system), in which role. */
export type ActorView = { kind: 'none' } | { kind: 'system'; role: string } | { kind: 'user'; userId: string; role: string };

/**
 * The actor of an event for display: `none` for events written without one (before actors
 * were recorded), `system` when there is no user (the importer, operators' tools), else `user`.
 */
export function actorView(actor: HistoryActor): ActorView {
  if (actor === null) return { kind: 'none' };
  if (actor.userId === null) return { kind: 'system', role: actor.role };
  return { kind: 'user', userId: actor.userId, role: actor.role };
}
