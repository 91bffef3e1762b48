import type { Language } from '@sinilill/contracts';

/** Options of {@link formatNumber}. */
export interface FormatNumberOptions {
  /** Digits after the decimal separator (rounded half away from zero). Default 0. */
  decimals?: number;
  /** The page's language: a decimal comma in Estonian (the default), a decimal point in English. */
  lang?: Language;
}

/**
 * The thousands separator of both languages: U+00A0 NO-BREAK SPACE, the group separator Intl's
 * et-EE gives, so a number never wraps inside. English keeps it too (spec §2 "Home": numbers use
 * a space as thousands separator): a comma there would read as the decimal comma that number
 * fields accept in both languages. docs/decisions/0055-numbers-in-the-page-locale.md.
 */
export const THOUSANDS_SEPARATOR = '\u00a0';

const LOCALES: Record<Language, string> = { et: 'et-EE', en: 'en-GB' };
const formatters = new Map<string, Intl.NumberFormat>();

function formatter(lang: Language, decimals: number): Intl.NumberFormat {
  const key = `${lang}:${decimals}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.NumberFormat(LOCALES[lang], {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      // et-EE alone groups only from five digits (CLDR's minimum grouping of 2): "1 005" is wanted.
      useGrouping: 'always',
      // "-0" and "-0,00" are shown without the sign.
      signDisplay: 'negative',
    });
    formatters.set(key, found);
  }
  return found;
}

/**
 * A number in the page's language with Intl.NumberFormat: thousands separated by a no-break
 * space (U+00A0) in both languages, a decimal comma in Estonian and a point in English —
 * 196445 → "196 445", 1234.5 with 2 decimals → "1 234,50" (et) / "1 234.50" (en).
 * Non-finite input gives "0" (an empty statistic, never "NaN").
 */
export function formatNumber(value: number, options: FormatNumberOptions = {}): string {
  const { decimals = 0, lang = 'et' } = options;
  const parts = formatter(lang, decimals).formatToParts(Number.isFinite(value) ? value : 0);
  return parts.map((part) => (part.type === 'group' ? THOUSANDS_SEPARATOR : part.value)).join('');
}

/**
 * A distance in km with exactly two decimals, as the page's language writes it (spec §9
 * "distances two decimals"): 40.25 → "40,25" (et) / "40.25" (en), 1234.5 → "1 234,50" /
 * "1 234.50" (a no-break space between thousands). Non-finite input gives "0,00" / "0.00".
 */
export function formatDistance(km: number, lang: Language): string {
  return formatNumber(km, { decimals: 2, lang });
}

/**
 * The texts a table's search matches a distance by: as shown in the page's language and with a
 * plain point and no grouping ("1 234,50 1234.50 1234,50"), so that a person finds it whichever
 * way they type it.
 */
export function distanceSearchText(km: number, lang: Language): string {
  const plain = (Number.isFinite(km) ? km : 0).toFixed(2);
  return `${formatDistance(km, lang)} ${plain} ${plain.replace('.', ',')}`;
}
