/**
 * Where an edition stands on the event's own calendar (spec §4, §9: the event 1–30 April 2025,
 * late entries until midnight at the end of 3 May, the prize draw on 5 May at 17:00, all in
 * Europe/Tallinn). Pure: "now" comes in as an argument, read from the app's clock (the server's
 * `today` in GET /api/stats), never from the browser's.
 */
import { isValidCalendarDate, type Edition } from '@sinilill/domain';

/**
 * - `before`: before the first day;
 * - `during`: the event's days (1–30 April);
 * - `lateEntries`: after the last day, while April's distances may still be added (1–3 May);
 * - `counting`: entries closed, the results are being counted and the draw is still to come;
 * - `afterDraw`: the prizes have been drawn.
 */
export type EditionPhase = 'before' | 'during' | 'lateEntries' | 'counting' | 'afterDraw';

const LOCAL_NOW = /^(\d{4}-\d{2}-\d{2})(?:T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?)?$/;

/**
 * The phase of `edition` at `localNow`: a local day `YYYY-MM-DD` (what GET /api/stats answers as
 * `today`) or a local date-time `YYYY-MM-DDTHH:mm[:ss]`, both in the edition's time zone.
 *
 * A day alone says nothing about the hour, so on the draw's day it counts as before the draw
 * (`counting`) until the day is over; with a time the draw's minute decides (17:00 is after).
 * Returns null when `localNow` is not such a value (no answer yet, or a garbled one).
 */
export function editionPhase(edition: Pick<Edition, 'startDate' | 'endDate' | 'lateEntriesUntil' | 'prizeDraw'>, localNow: string): EditionPhase | null {
  const match = LOCAL_NOW.exec(localNow);
  const day = match?.[1];
  if (day === undefined || !isValidCalendarDate(day)) return null;
  if (day < edition.startDate) return 'before';
  if (day <= edition.endDate) return 'during';
  if (day <= edition.lateEntriesUntil) return 'lateEntries';
  // Local date-times of the same shape compare as text; a bare day sorts before any time of it.
  return localNow < edition.prizeDraw ? 'counting' : 'afterDraw';
}

/** The edition's dates as the texts name them: days of the month and the draw's hour and minute. */
export interface EditionMoments {
  startDay: number;
  endDay: number;
  /** The last day (until its midnight) on which entries are accepted. */
  lateEntriesDay: number;
  drawDay: number;
  /** "17:00": hour and minute of the draw, as in the edition's data. */
  drawTime: string;
}

/** Reads the days and the draw's time from the edition's `YYYY-MM-DD` and `YYYY-MM-DDTHH:mm` values. */
export function editionMoments(edition: Pick<Edition, 'startDate' | 'endDate' | 'lateEntriesUntil' | 'prizeDraw'>): EditionMoments {
  const dayOf = (isoDay: string) => Number(isoDay.slice(8, 10));
  return {
    startDay: dayOf(edition.startDate),
    endDay: dayOf(edition.endDate),
    lateEntriesDay: dayOf(edition.lateEntriesUntil),
    drawDay: dayOf(edition.prizeDraw),
    drawTime: edition.prizeDraw.slice(11, 16),
  };
}
