/**
 * The error catalogue on the client (spec §8): every code the server may answer with
 * (`{ message: CODE }`) has a text in both languages, in the `errors` namespace. Unknown codes
 * show GENERIC_ERROR.
 */
import { ERROR_CODES, MAX_ENTRY_DISTANCE_KM, type ErrorCode } from '@sinilill/domain';
import type { TFunction } from 'i18next';
import { passwordMin, siteLimits } from '../site-edition';
import type errorsEt from './locales/et.json';

/**
 * Codes the server answers with that `ERROR_CODES` of `@sinilill/domain` does not list yet
 * (added on the server side). Once they are in ERROR_CODES this list is redundant
 * and can go; the union below stays correct either way.
 */
export const SERVER_ONLY_CODES = ['PASSWORD_TOO_SHORT', 'REGISTRATION_DISABLED', 'TOO_MANY_REQUESTS'] as const;

/** Every code the client can show a text for. */
export const CATALOGUE_CODES: readonly string[] = [...new Set<string>([...ERROR_CODES, ...SERVER_ONLY_CODES])];

export type CatalogueCode = ErrorCode | (typeof SERVER_ONLY_CODES)[number];

// Compile-time half of the catalogue test: the Estonian file (the reference the English one is
// checked against) must name every code. A missing code fails `tsc -b`.
type MissingCodes = Exclude<CatalogueCode, keyof typeof errorsEt>;
const _everyCodeHasText: MissingCodes extends never ? true : MissingCodes = true;
void _everyCodeHasText;

/** True when `value` is a code of the catalogue. */
export function isCatalogueCode(value: unknown): value is CatalogueCode {
  return typeof value === 'string' && CATALOGUE_CODES.includes(value);
}

/**
 * The catalogue code for an error answer: its `message` when that is a known code; otherwise
 * TOO_MANY_REQUESTS for HTTP 429 (a rate limiter may answer in its own words), else GENERIC_ERROR.
 */
export function toCatalogueCode(message: unknown, status = 0): CatalogueCode {
  if (isCatalogueCode(message)) return message;
  if (status === 429) return 'TOO_MANY_REQUESTS';
  return 'GENERIC_ERROR';
}

/** "5MB": an image limit (bytes, the edition's `limits.imageMaxBytes`, spec §5) in whole megabytes. */
export function maxImageSizeLabel(imageMaxBytes: number): string {
  return `${Math.round(imageMaxBytes / (1024 * 1024))}MB`;
}

/**
 * The text shown for `code` in `t`'s language (any unknown code: GENERIC_ERROR's text).
 * MAX_IMAGE_SIZE's text is followed by the limit ("… is 5MB", spec §5); PASSWORD_TOO_SHORT
 * names the minimum length, and INVALID_DISTANCE the largest entry (the entry decider's limit, km),
 * so that "4 200" typed for 4,2 is told what is allowed rather than only that it is not.
 * The limits are the site edition's (./site-edition.ts); before the editions are read the
 * password minimum is the account rule's and MAX_IMAGE_SIZE's text stands without the size.
 */
export function errorText(t: TFunction, code: string): string {
  const known = toCatalogueCode(code);
  const text = t(known, { ns: 'errors', min: passwordMin(), maxKm: MAX_ENTRY_DISTANCE_KM });
  const imageMaxBytes = siteLimits()?.imageMaxBytes;
  return known === 'MAX_IMAGE_SIZE' && imageMaxBytes !== undefined ? `${text} ${maxImageSizeLabel(imageMaxBytes)}` : text;
}
