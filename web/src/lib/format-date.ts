import type { Language } from '@sinilill/contracts';

/**
 * A calendar day given as YYYY-MM-DD, written for the page's language: "30.04.2025" in
 * Estonian (numeric, so it reads right in any grammatical case), "30 April 2025" in English.
 * Anything that is not a valid YYYY-MM-DD is returned unchanged.
 */
export function formatDay(isoDay: string, lang: Language): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDay);
  if (!match) return isoDay;
  const [, year, month, day] = match;
  if (lang === 'et') return `${day}.${month}.${year}`;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (Number.isNaN(date.getTime())) return isoDay;
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}

/** Month abbreviations of the tables' dates (spec §9 "MMM"), fixed so that every browser agrees. */
const MONTHS: Record<Language, readonly string[]> = {
  et: ['jaan', 'veebr', 'märts', 'apr', 'mai', 'juuni', 'juuli', 'aug', 'sept', 'okt', 'nov', 'dets'],
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
};

/** The zone dates and times are shown in (house style: times in UTC, shown in Europe/Tallinn). */
export const DISPLAY_TIME_ZONE = 'Europe/Tallinn';

function dayMonthYear(year: string, month: number, day: string, lang: Language): string | undefined {
  const name = MONTHS[lang][month - 1];
  return name === undefined ? undefined : `${day}-${name}-${year}`;
}

/**
 * A calendar day (YYYY-MM-DD) as DD-MMM-YYYY (spec §9): "05-Apr-2025", in Estonian "05-apr-2025".
 * Anything that is not YYYY-MM-DD is returned unchanged.
 */
export function formatDate(isoDay: string, lang: Language): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDay);
  if (!match) return isoDay;
  const [, year = '', month = '', day = ''] = match;
  return dayMonthYear(year, Number(month), day, lang) ?? isoDay;
}

const dateTimeFormatters = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = dateTimeFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    dateTimeFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * An instant (ISO-8601, e.g. "2025-04-12T11:03:00Z") as DD-MMM-YYYY HH:mm in `timeZone`
 * (default Europe/Tallinn; spec §9): "12-Apr-2025 14:03". An unreadable value is returned unchanged.
 */
export function formatDateTime(isoInstant: string, lang: Language, timeZone = DISPLAY_TIME_ZONE): string {
  const ms = Date.parse(isoInstant);
  if (Number.isNaN(ms)) return isoInstant;
  const parts = dateTimeFormatter(timeZone).formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const date = dayMonthYear(part('year'), Number(part('month')), part('day'), lang);
  return date === undefined ? isoInstant : `${date} ${part('hour')}:${part('minute')}`;
}

const clockFormatters = new Map<string, Intl.DateTimeFormat>();

/** An instant's wall-clock time HH:mm in `timeZone` (default Europe/Tallinn; spec §9), e.g. "14:05". */
export function formatClockTime(instant: Date, timeZone = DISPLAY_TIME_ZONE): string {
  let formatter = clockFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    clockFormatters.set(timeZone, formatter);
  }
  return formatter.format(instant);
}
