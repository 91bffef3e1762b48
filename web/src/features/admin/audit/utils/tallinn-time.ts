/**
 * Wall-clock times in Europe/Tallinn ↔ ISO-8601 instants for the audit forms (the
 * history's time range and a team's "as of" moment). A `<input type="datetime-local">` holds a
 * zone-less wall-clock time ("2025-04-12T14:03"); the API wants an instant with a zone
 * (contracts/history.ts `Instant`). House style: times are kept in UTC and shown in
 * Europe/Tallinn. The project has no date library: the runtime's Intl time-zone data does it.
 */
import type { Lang } from '../../../../lib/language';
import { DISPLAY_TIME_ZONE, formatDateTime } from '../../../../lib/format-date';

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;

const partFormatters = new Map<string, Intl.DateTimeFormat>();

function partFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = partFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    partFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock of `ms` in `timeZone` as numbers (month 1..12). */
function wallClock(ms: number, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts = partFormatter(timeZone).formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? Number.NaN);
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour'), minute: part('minute'), second: part('second') };
}

/** The zone's offset from UTC at instant `ms`, in ms (Tallinn: +2 h in winter, +3 h in summer). */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  // The formatter drops milliseconds: compare with the instant cut to its second.
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * A datetime-local value ("2025-04-12T14:03", seconds optional), read as a wall-clock time in
 * `timeZone` (default Europe/Tallinn), as an ISO-8601 UTC instant: "2025-04-12T11:03:00.000Z".
 * A time the spring change skips (30 March 03:30) moves an hour later; a time the autumn change
 * repeats (26 October 03:30) is read as the later of the two.
 *
 * @returns null for an empty or unreadable value, or an impossible date or time ("2025-02-30T10:00").
 */
export function localInputToIso(value: string, timeZone: string = DISPLAY_TIME_ZONE): string | null {
  const match = LOCAL_INPUT.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((n) => Number(n ?? 0)) as [number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  // Date.UTC rolls 30 February over into March; a real calendar day and clock time read back the same.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    return null;
  }
  // The offset at the instant the wall clock would be in UTC is right except within hours of a
  // change; a second look at the offset of the first guess settles those.
  const guess = offsetAt(wall, timeZone);
  const settled = offsetAt(wall - guess, timeZone);
  return new Date(wall - settled).toISOString();
}

/**
 * An ISO instant as a datetime-local value in `timeZone` (default Europe/Tallinn), to the minute:
 * "2025-04-12T11:03:30Z" → "2025-04-12T14:03". Null for an unreadable instant.
 */
export function isoToLocalInput(iso: string, timeZone: string = DISPLAY_TIME_ZONE): string | null {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  const w = wallClock(ms, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(w.year).padStart(4, '0')}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}`;
}

/**
 * An instant as the audit shows it: DD-MMM-YYYY HH:mm:ss in Europe/Tallinn ("12-apr-2025
 * 14:03:07"; spec §9's date format, with seconds as the admin tables show creation times).
 * An unreadable value is returned unchanged.
 */
export function formatAuditTime(iso: string, lang: Lang): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const second = String(wallClock(ms, DISPLAY_TIME_ZONE).second).padStart(2, '0');
  return `${formatDateTime(iso, lang)}:${second}`;
}
