/** Options of {@link formatNumber}. */
export interface FormatNumberOptions {
  /** Digits after the decimal separator (rounded half away from zero by toFixed). Default 0. */
  decimals?: number;
  /** Default ',' (Estonian); English pages pass '.'. */
  decimalSeparator?: string;
}

/**
 * Formats a number with a plain space (U+0020) as the thousands separator (spec §2 "Home":
 * "numbers use a space as thousands separator"): 196445 → "196 445", 1005 → "1 005".
 * A plain space rather than a no-break space so that tests can compare textContent with a
 * typed string; where a number must not wrap, its element carries `white-space: nowrap`.
 * Non-finite input gives "0" (an empty statistic, never "NaN").
 */
export function formatNumber(value: number, options: FormatNumberOptions = {}): string {
  const { decimals = 0, decimalSeparator = ',' } = options;
  if (!Number.isFinite(value)) return formatNumber(0, options);
  const fixed = Math.abs(value).toFixed(decimals);
  const [whole = '0', fraction] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  // "-0" and "-0,00" are shown without the sign.
  const negative = value < 0 && /[1-9]/.test(fixed);
  return (negative ? '-' : '') + grouped + (fraction === undefined ? '' : decimalSeparator + fraction);
}

/**
 * A distance in km with exactly two decimals, as the tables show it (spec §9 "distances two
 * decimals"): 40.25 → "40.25", 12.5 → "12.50", 1234.5 → "1234.50". A decimal point and no
 * grouping in both languages — the same text a person types into the distance field (a number
 * input, which takes a point) and searches for. Non-finite input gives "0.00".
 */
export function formatDistance(km: number): string {
  return (Number.isFinite(km) ? km : 0).toFixed(2);
}
