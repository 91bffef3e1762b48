import { useCallback } from 'react';
import { formatDistance, formatNumber } from './format-number';
import { useLang } from './use-lang';

/**
 * `formatNumber` bound to the page's language: a no-break space between thousands in both
 * languages, a decimal comma in Estonian and a decimal point in English.
 */
export function useNumberFormat(): (value: number, decimals?: number) => string {
  const lang = useLang();
  return useCallback((value: number, decimals = 0) => formatNumber(value, { decimals, lang }), [lang]);
}

/** `formatDistance` (km, two decimals) bound to the page's language. */
export function useDistanceFormat(): (km: number) => string {
  const lang = useLang();
  return useCallback((km: number) => formatDistance(km, lang), [lang]);
}
