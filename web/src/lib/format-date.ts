import type { Lang } from './language';

/**
 * A calendar day given as YYYY-MM-DD, written for the page's language: "30.04.2025" in
 * Estonian (numeric, so it reads right in any grammatical case), "30 April 2025" in English.
 * Anything that is not a valid YYYY-MM-DD is returned unchanged.
 */
export function formatDay(isoDay: string, lang: Lang): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDay);
  if (!match) return isoDay;
  const [, year, month, day] = match;
  if (lang === 'et') return `${day}.${month}.${year}`;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (Number.isNaN(date.getTime())) return isoDay;
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}
