/**
 * Exact distance arithmetic. Distances travel as km numbers with at most two decimals (spec §5:
 * step 0.01); sums are taken in integer hundredths of a km so that adding many entries never
 * drifts (house style: "summed exactly, never float drift").
 */
import { DomainError } from './errors';

/** Largest magnitude in hundredths that stays an exact integer in a double. */
const MAX_HUNDREDTHS = Number.MAX_SAFE_INTEGER;

/**
 * True when `km` is a finite number written with at most two decimals (12, 12.3, 12.34), i.e.
 * the double nearest to some integer number of hundredths. False for NaN, infinities, non-numbers
 * and values such as 12.345 or 0.1 + 0.2 (= 0.30000000000000004).
 *
 * Source: spec §5 (distance step 0.01).
 */
export function hasAtMostTwoDecimals(km: unknown): km is number {
  if (typeof km !== 'number' || !Number.isFinite(km)) return false;
  const hundredths = Math.round(km * 100);
  // Division is correctly rounded, so h / 100 is exactly the double a parser gives for "x.yz".
  return Math.abs(hundredths) <= MAX_HUNDREDTHS && hundredths / 100 === km;
}

/**
 * Converts km to an integer number of hundredths of a km (12.34 km → 1234). Exact for every
 * input with at most two decimals; -0 becomes 0. Negative inputs are allowed (differences).
 *
 * @throws DomainError('INVALID_DISTANCE') for NaN, infinities, non-numbers and more than two
 *   decimals. Source: spec §5 (step 0.01), house style (exact sums).
 */
export function toHundredths(km: number): number {
  if (!hasAtMostTwoDecimals(km)) throw new DomainError('INVALID_DISTANCE', `not a km value with at most two decimals: ${String(km)}`);
  return Math.round(km * 100) + 0;
}

/**
 * Converts an integer number of hundredths of a km back to km (1234 → 12.34), the double
 * nearest to the decimal value.
 *
 * @throws DomainError('INVALID_DISTANCE') when `hundredths` is not a safe integer.
 */
export function fromHundredths(hundredths: number): number {
  if (!Number.isSafeInteger(hundredths)) throw new DomainError('INVALID_DISTANCE', `not an integer number of hundredths: ${String(hundredths)}`);
  return hundredths / 100 + 0;
}

/**
 * The team's rounded distance in whole km from a sum in hundredths of a km: rounded half away
 * from zero (149 → 1, 150 → 2, -150 → -2), computed on integers so no float can tip it. This is
 * the figure every progress rule uses (spec §4: "team totalDistance is the rounded sum of entry
 * distances"); half away from zero is what PostgreSQL's ROUND(numeric) does, so a sum rounded in
 * SQL agrees with this one.
 *
 * @throws DomainError('INVALID_DISTANCE') when `hundredths` is not a safe integer.
 */
export function roundedKm(hundredths: number): number {
  if (!Number.isSafeInteger(hundredths)) throw new DomainError('INVALID_DISTANCE', `not an integer number of hundredths: ${String(hundredths)}`);
  const whole = Math.floor((Math.abs(hundredths) + 50) / 100);
  return hundredths < 0 && whole !== 0 ? -whole : whole;
}

/**
 * Exact sum of km values (each with at most two decimals), in hundredths of a km.
 *
 * @throws DomainError('INVALID_DISTANCE') when a value has more than two decimals or is not finite,
 *   or when the sum leaves the safe-integer range.
 */
export function sumHundredths(distancesKm: readonly number[]): number {
  let total = 0;
  for (const km of distancesKm) total += toHundredths(km);
  if (!Number.isSafeInteger(total)) throw new DomainError('INVALID_DISTANCE', 'sum out of range');
  return total;
}

/**
 * A team's distance as used by every progress rule: the exact sum of its entries' distances (km,
 * at most two decimals each), rounded to whole km half away from zero (spec §4).
 *
 * @throws DomainError('INVALID_DISTANCE') as sumHundredths.
 */
export function teamDistanceKm(distancesKm: readonly number[]): number {
  return roundedKm(sumHundredths(distancesKm));
}
