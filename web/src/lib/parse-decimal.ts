/**
 * Reads a decimal number as a person types it on an Estonian or English page (the GOV.UK
 * pattern: a text field with inputmode="decimal" and a parser, never a number input (type=number), which drops
 * a decimal comma in some browsers and changes the magnitude without a word).
 *
 * Accepted in both languages: a decimal comma or point ("4,2", "4.2" → 4.2), and thousands
 * grouped by a space, a no-break space (U+00A0) or a narrow no-break space (U+202F) in groups of
 * exactly three digits ("4 200" → 4200, "1 234,5" → 1234.5). Refused, never guessed: both a comma
 * and a point ("4,2.5", "1,234.5"), a second separator ("1,2,3"), a group that is not three digits
 * ("4 20"), letters or signs, and more decimals than allowed — so "4,200" or "4.200" (a thousand
 * separator in one convention, three decimals in the other) is refused for km, not read as 4.2.
 */

/** Why a text is not a number, for the message that says what to type instead. */
export type DecimalProblem = 'empty' | 'malformed' | 'mixedSeparators' | 'grouping' | 'tooManyDecimals';

export type DecimalResult = { ok: true; value: number } | { ok: false; problem: DecimalProblem };

/** Options of {@link parseDecimal}. */
export interface ParseDecimalOptions {
  /** Most digits allowed after the decimal separator (km: 2). Default 2. */
  maxDecimals?: number;
}

/** The spaces a thousands group may be separated by. */
const GROUP_SPACE = /[ \u00a0\u202f]/;

/**
 * `text` as a number, or the reason it is not one (see the module's description). Leading and
 * trailing white space is ignored. Only non-negative numbers are read; a sign is `malformed`.
 */
export function parseDecimal(text: string, options: ParseDecimalOptions = {}): DecimalResult {
  const { maxDecimals = 2 } = options;
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'empty' };
  if (!/^[0-9 \u00a0\u202f.,]+$/.test(trimmed)) return { ok: false, problem: 'malformed' };
  if (trimmed.includes(',') && trimmed.includes('.')) return { ok: false, problem: 'mixedSeparators' };
  const parts = trimmed.split(/[.,]/);
  if (parts.length > 2) return { ok: false, problem: 'malformed' };
  const [whole = '', fraction] = parts;
  if (fraction !== undefined && !/^\d+$/.test(fraction)) return { ok: false, problem: 'malformed' };
  if (!/^\d/.test(whole)) return { ok: false, problem: 'malformed' };
  if (GROUP_SPACE.test(whole)) {
    if (!/^\d{1,3}([ \u00a0\u202f]\d{3})+$/.test(whole)) return { ok: false, problem: 'grouping' };
  } else if (!/^\d+$/.test(whole)) {
    return { ok: false, problem: 'malformed' };
  }
  if (fraction !== undefined && fraction.length > maxDecimals) return { ok: false, problem: 'tooManyDecimals' };
  const digits = whole.replace(/[ \u00a0\u202f]/g, '') + (fraction === undefined ? '' : `.${fraction}`);
  return { ok: true, value: Number(digits) };
}
