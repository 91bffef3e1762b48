/**
 * The two languages of the site (spec §1): Estonian, the default, and English.
 *
 * - `Language` ('et' | 'en', the ISO 639-1 codes of i18next and `<html lang>`) is what code uses.
 * - `SpecLanguage` ('est' | 'eng', ISO 639-2) is what the spec names at the edges: request fields
 *   (spec §3 registration payload, §7 calls), the `?lang=` of links in mails, the value kept in
 *   localStorage (§4), and the payloads of stored events, which are never rewritten.
 *
 * Convert at the edge with `fromSpecLanguage` / `toSpecLanguage`.
 */

/** A language as code uses it: 'et' (Estonian, the default) or 'en' (English). */
export type Language = 'et' | 'en';

/** A language as the spec names it at the edges (spec §1, §3, §4, §7): 'est' or 'eng'. */
export type SpecLanguage = 'est' | 'eng';

/** Both languages, Estonian first (the order pages and mails show them in). */
export const LANGUAGES: readonly Language[] = ['et', 'en'];

/** Estonian (spec §1: the default language). */
export const DEFAULT_LANGUAGE: Language = 'et';

/** 'est' → 'et', 'eng' → 'en'. */
export function fromSpecLanguage(lang: SpecLanguage): Language {
  return lang === 'eng' ? 'en' : 'et';
}

/** 'et' → 'est', 'en' → 'eng'. */
export function toSpecLanguage(lang: Language): SpecLanguage {
  return lang === 'en' ? 'eng' : 'est';
}
