/**
 * A clock for tests that run in real time (tokens, rate limits, waits) but decide in an
 * edition's days: it starts at `start` and runs at the real clock's pace. Registration and
 * entries follow the current edition's dates (spec §4), so a test on today's date would find the
 * 2025 edition long over; this one keeps it in April 2025 while its seconds still pass.
 */

/** 15 April 2025, 12:00 in Tallinn: registration open, the event running (the 2025 edition). */
export const APRIL_2025 = '2025-04-15T09:00:00.000Z';

/** A clock starting at `start` (ISO-8601) now, advancing with the real one. */
export function runningClock(start: string = APRIL_2025): () => Date {
  const offset = Date.now() - Date.parse(start);
  return () => new Date(Date.now() - offset);
}
