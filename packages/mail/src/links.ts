/** Links in mails (spec §1: the languages `est` and `eng`). */
import type { SpecLanguage } from '@sinilill/domain';

/**
 * `link` with the mail's language as its `lang` query parameter (`?lang=est|eng`, replacing one it
 * had): the site opens in that language on a device that never chose one, or chose the other
 * (web/src/lib/language.ts takes it once, stores it and removes it from the address).
 */
export function withLang(link: string, lang: SpecLanguage): string {
  const url = new URL(link);
  url.searchParams.set('lang', lang);
  return url.toString();
}
