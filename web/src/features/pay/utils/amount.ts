import type { Lang } from '../../../lib/language';

/**
 * Euro amounts as people type and read them, and exact integer EUR cents as the API takes them
 * (house style: money in integer cents; spec §9: two decimals).
 */

/** A whole number of euros with up to two decimals, point or comma: "15", "15.00", "5,5". */
const EUROS = /^\d{1,7}([.,]\d{1,2})?$/;

/** What the amount inputs accept while typing: the start of such an amount ("", "15,", "15.5"). */
const EUROS_TYPED = /^\d{0,7}([.,]\d{0,2})?$/;

/**
 * The amount of the payment result page's query (spec §2 "/payment/{status}, query amount"):
 * euros as the payment service writes them ("15", "15.00", "15,5", or a number) in cents, or
 * null when it is missing or not an amount.
 */
export function amountCents(value: string | number | undefined): number | null {
  if (value === undefined) return null;
  const text = String(value).trim();
  if (!EUROS.test(text)) return null;
  const [euros = '0', cents = ''] = text.replace(',', '.').split('.');
  return Number(euros) * 100 + Number(cents.padEnd(2, '0'));
}

/**
 * The text of an amount input for `cents` in the page's language: euros with two decimals, a
 * decimal comma in Estonian and a point in English, no euro sign and no grouping ("15,00",
 * "1234.50") — what the inputs start with; amountInputCents reads either separator back.
 */
export function amountInputText(cents: number, lang: Lang): string {
  const text = (cents / 100).toFixed(2);
  return lang === 'en' ? text : text.replace('.', ',');
}

/**
 * The amount input's next text when the user typed `typed` over `previous`: spaces and euro signs
 * are dropped (a pasted "15 €"), and anything that cannot become an amount of euros with at most
 * two decimals is refused (the text stays `previous`), so the field only ever holds an amount or
 * the start of one.
 */
export function acceptAmountInput(previous: string, typed: string): string {
  const text = typed.replace(/[\s\u00a0€]/g, '');
  return EUROS_TYPED.test(text) ? text : previous;
}

/**
 * An amount input's text in EUR cents ("15" → 1500, "5,5" → 550, "15." → 1500), or null when it
 * holds no amount (empty, a lone separator).
 */
export function amountInputCents(text: string): number | null {
  return amountCents(text.trim().replace(/[.,]$/, ''));
}

/**
 * An amount of an API answer, EUR (a number with at most two decimals: 15, 20.5), in
 * EUR cents for formatEuros. Rounding only removes the binary float's noise (20.5 * 100 is exact,
 * 19.99 * 100 is 1998.9999…): the server never sends more than two decimals.
 */
export function centsOfEuros(euros: number): number {
  return Math.round(euros * 100);
}
