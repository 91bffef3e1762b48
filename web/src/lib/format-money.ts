import { formatNumber } from './format-number';
import type { Language } from '@sinilill/contracts';

/**
 * An amount of euro cents with two decimals and the euro sign (spec §9): "15,00 €" in Estonian,
 * "€15.00" in English; thousands separated by a no-break space as everywhere (format-number.ts).
 */
export function formatEuros(cents: number, lang: Language): string {
  const amount = formatNumber(cents / 100, { decimals: 2, lang });
  return lang === 'en' ? `€${amount}` : `${amount} €`;
}
