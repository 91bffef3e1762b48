import { DISPLAY_TIME_ZONE, formatDate } from '../../../lib/format-date';
import type { Language } from '@sinilill/contracts';

const dayFormatter = new Intl.DateTimeFormat('en-CA', { timeZone: DISPLAY_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Europe/Tallinn calendar day (YYYY-MM-DD) of an ISO instant, or null when it is unreadable. */
export function tallinnDay(isoInstant: string): string | null {
  const ms = Date.parse(isoInstant);
  if (Number.isNaN(ms)) return null;
  const parts = dayFormatter.formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * A story's publication instant as its Europe/Tallinn day, DD-MMM-YYYY (spec §9): "04-May-2025",
 * in Estonian "04-mai-2025". An unreadable value is returned unchanged.
 */
export function storyDate(isoInstant: string, lang: Language): string {
  const day = tallinnDay(isoInstant);
  return day === null ? isoInstant : formatDate(day, lang);
}
