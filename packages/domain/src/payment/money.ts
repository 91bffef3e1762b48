/**
 * Money at the edges: the application counts integer EUR cents everywhere (house style); payment
 * providers (Montonio) and the payment result page's query take decimal euros. These convert
 * exactly, refusing anything with more than two decimals instead of rounding it away.
 *
 * the API's payment request and answers speak decimal euros too, as spec §3/§9 write the
 * fee ("15 EUR", "two decimals, euro sign"); `parseEuros` converts a request's amount at the
 * boundary and `centsToEuros` writes an answer's. The domain, events and read models keep cents.
 */
import { DomainError } from '../errors';

/** Cents → euros as a number for a provider's JSON (1500 → 15, 1999 → 19.99). */
export function centsToEuros(cents: number): number {
  return Number((cents / 100).toFixed(2));
}

/** Cents → euros with exactly two decimals and a point ("15.00"), for URLs and logs. */
export function euroText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const DECIMAL_EUROS = /^-?\d{1,9}(\.\d{1,2})?$/;

/**
 * Euros as a provider writes them (a JSON number such as 15 or 19.99, or a string such as
 * "15.00") → integer cents; null when it is not an amount with at most two decimals.
 */
export function eurosToCents(value: unknown): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // A float such as 19.99 prints as "19.99"; 0.1 + 0.2 would print with many digits and fail.
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  if (!DECIMAL_EUROS.test(text)) return null;
  const negative = text.startsWith('-');
  const [euros = '0', cents = ''] = (negative ? text.slice(1) : text).split('.');
  const total = Number(euros) * 100 + Number(cents.padEnd(2, '0'));
  return negative ? -total : total;
}

/** The largest amount a payment request may carry, EUR (100 000 000 cents). */
export const MAX_PAYMENT_EUROS = 1_000_000;

/** A non-negative amount of euros with at most two decimals, as JavaScript prints a JSON number. */
const REQUEST_EUROS = /^\d{1,7}(\.\d{1,2})?$/;

/**
 * A payment request's amount in EUR (a JSON number: 15, 15.00, 20.5, 20.50, 0.3) → integer EUR
 * cents (1500, 1500, 2050, 2050, 30), exactly: the number's shortest decimal text (what
 * `String(value)` prints, the same digits the JSON carried, so 0.3 reads "0.3" and 19.99 reads
 * "19.99") must have at most two decimals, and its digits become the cents — no float arithmetic,
 * so nothing drifts and nothing is rounded away. Spec §3 (payment request), §9 ("two decimals").
 * @throws DomainError INVALID_AMOUNT for anything else: a string (even "15"), more than two
 *   decimals (1.005, 20.505), a negative, NaN or ±Infinity, a number written with an exponent
 *   (1e-7, 1e+21), or more than MAX_PAYMENT_EUROS.
 */
export function parseEuros(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new DomainError('INVALID_AMOUNT', 'not a number of euros');
  const text = String(value);
  if (!REQUEST_EUROS.test(text)) throw new DomainError('INVALID_AMOUNT', `${text} is not euros with at most two decimals`);
  const [euros = '0', cents = ''] = text.split('.');
  const total = Number(euros) * 100 + Number(cents.padEnd(2, '0'));
  if (total > MAX_PAYMENT_EUROS * 100) throw new DomainError('INVALID_AMOUNT', `${text} is over ${MAX_PAYMENT_EUROS} EUR`);
  return total;
}
