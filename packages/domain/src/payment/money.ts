/**
 * Money at the edges: the application counts integer EUR cents everywhere (house style); payment
 * providers (Montonio) and the payment result page's query take decimal euros. These convert
 * exactly, refusing anything with more than two decimals instead of rounding it away.
 */

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
