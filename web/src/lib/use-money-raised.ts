import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatEuros } from './format-money';
import { useLang } from './use-lang';

/** A money-raised figure as the page shows it. */
export interface MoneyRaisedText {
  /** "13 960,00 €", or "vähemalt 13 960,00 €" / "at least €13 960.00" when some amounts are unknown. */
  text: string;
  /** The amount alone, "13 960,00 €" (for a layout that writes "at least" apart). */
  amount: string;
  /** "vähemalt" / "at least" when the figure is a lower bound; undefined when it is complete. */
  atLeast: string | undefined;
  /** Why the figure is a lower bound (a tooltip); undefined when it is complete. */
  note: string | undefined;
}

/**
 * Formats money raised (EUR cents) with how many paid fees of unknown amount it lacks (the
 * answers' raised_unknown_count): a complete figure as formatEuros writes it, an incomplete one
 * as "at least …" with a note saying how many payments are missing, never as if it were whole.
 */
export function useMoneyRaised(): (cents: number | undefined, unknownCount: number | undefined) => MoneyRaisedText {
  const { t } = useTranslation('common');
  const lang = useLang();
  return useCallback((cents, unknownCount) => {
    const amount = formatEuros(cents ?? 0, lang);
    const unknown = unknownCount ?? 0;
    if (unknown <= 0) return { text: amount, amount, atLeast: undefined, note: undefined };
    return {
      text: t('moneyRaised.atLeast', { amount }), amount, atLeast: t('moneyRaised.atLeastWord'), note: t('moneyRaised.unknown', { count: unknown }),
    };
  }, [lang, t]);
}
