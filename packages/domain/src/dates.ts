/**
 * Pure date helpers. Instants are ISO-8601 strings with an explicit offset (normally UTC, "Z");
 * calendar dates are `YYYY-MM-DD` in the edition's time zone (Europe/Tallinn). Time-zone maths
 * uses the runtime's `Intl` data (no I/O, no clock): the current instant always comes in as an
 * argument (DecisionContext.now).
 */
import type { Edition } from './edition/types';
import { DomainError } from './errors';

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;
// An explicit offset is required: without one, `Date` would read the host's zone (impure).
const INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/**
 * True when `value` is a `YYYY-MM-DD` string naming a real Gregorian calendar day
 * ('2025-04-31' and '2025-02-29' are false; '2024-02-29' is true).
 */
export function isValidCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = YMD.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Parses an ISO-8601 instant with an explicit offset ('2025-05-03T20:59:59Z',
 * '2025-05-03T23:59:59.123+03:00') to epoch milliseconds.
 *
 * @throws DomainError('INVALID_REQUEST') when the string is not such an instant (no offset,
 *   impossible date or time, anything `Date` would silently roll over).
 */
export function parseInstant(instantIso: string): number {
  const m = typeof instantIso === 'string' ? INSTANT.exec(instantIso) : null;
  const valid =
    m !== null &&
    isValidCalendarDate(m[1]) &&
    Number(m[2]) <= 23 &&
    Number(m[3]) <= 59 &&
    Number(m[4] ?? 0) <= 59 &&
    Number(m[5] ?? 0) <= 23 &&
    Number(m[6] ?? 0) <= 59;
  const ms = valid ? new Date(instantIso).getTime() : Number.NaN;
  if (Number.isNaN(ms)) throw new DomainError('INVALID_REQUEST', `not an ISO-8601 instant with an offset: ${String(instantIso)}`);
  return ms;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        calendar: 'gregory',
        numberingSystem: 'latn',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
    } catch {
      throw new DomainError('INVALID_REQUEST', `unknown time zone: ${timeZone}`);
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * The calendar date (`YYYY-MM-DD`) of an instant in an IANA time zone:
 * localDate('2025-05-03T21:00:00Z', 'Europe/Tallinn') === '2025-05-04' (UTC+3 in summer).
 *
 * @throws DomainError('INVALID_REQUEST') for an instant without an offset or an unknown zone.
 */
export function localDate(instantIso: string, timeZone: string): string {
  const ms = parseInstant(instantIso);
  const parts = formatterFor(timeZone).formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}

/**
 * True when `dateYmd` is a real calendar date (`YYYY-MM-DD`) from the edition's first to its
 * last day, both inclusive (2025: 2025-04-01..2025-04-30). Entries must be performed within
 * (spec §5 "performed-at within April", §9).
 */
export function isPerformedWithinEdition(dateYmd: unknown, edition: Edition): boolean {
  return isValidCalendarDate(dateYmd) && dateYmd >= edition.startDate && dateYmd <= edition.endDate;
}

/**
 * True while entries may still be added, edited or deleted: the local date of `nowIso` in the
 * edition's time zone (Europe/Tallinn) is on or before `edition.lateEntriesUntil` — i.e. until
 * midnight at the end of 3 May 2025 local time (2025-05-03T20:59:59Z open, 21:00:00Z closed).
 * It says nothing about the start: before 1 April no entry can qualify anyway, because its
 * performed-at date must lie within the edition.
 *
 * Source: spec §4 "distances may be added until midnight on 3 May", §9.
 * @throws DomainError('INVALID_REQUEST') when `nowIso` is not an instant with an offset.
 */
export function isEntryWindowOpen(nowIso: string, edition: Edition): boolean {
  return localDate(nowIso, edition.timeZone) <= edition.lateEntriesUntil;
}
