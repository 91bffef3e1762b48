import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from './format-number';

/**
 * `formatNumber` bound to the page's language: a space between thousands in both languages,
 * a decimal comma in Estonian and a decimal point in English.
 */
export function useNumberFormat(): (value: number, decimals?: number) => string {
  const { i18n } = useTranslation();
  const decimalSeparator = i18n.language === 'en' ? '.' : ',';
  return useCallback((value: number, decimals = 0) => formatNumber(value, { decimals, decimalSeparator }), [decimalSeparator]);
}
