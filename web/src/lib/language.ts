/**
 * The interface language (spec §1, §9): Estonian by default, English on request. The choice is
 * kept in localStorage under `lang` as the spec's `est` or `eng` (SpecLanguage); i18next,
 * `<html lang>` and the code use `et`/`en` (Language, @sinilill/contracts).
 */
import { DEFAULT_LANGUAGE, toSpecLanguage, type Language } from '@sinilill/contracts';

export const LANG_STORAGE_KEY = 'lang';

/** The language for a stored value; anything but `eng` (missing, garbled) means Estonian. */
export function langFromStored(stored: string | null | undefined): Language {
  return stored === 'eng' ? 'en' : DEFAULT_LANGUAGE;
}

/** The other language: what the flag control switches to. */
export function otherLang(lang: Language): Language {
  return lang === 'et' ? 'en' : 'et';
}

/** Reads the stored choice; storage may be unavailable (privacy modes), which means the default. */
export function readStoredLang(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): Language {
  try {
    return langFromStored(storage?.getItem(LANG_STORAGE_KEY));
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/** Stores the choice; returns false when storage refused it. */
export function writeStoredLang(lang: Language, storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): boolean {
  try {
    storage?.setItem(LANG_STORAGE_KEY, toSpecLanguage(lang));
    return storage !== undefined;
  } catch {
    return false;
  }
}

/** The query parameter by which a link (every link in a mail) names the page's language: `est` or `eng`. */
export const LANG_QUERY_PARAM = 'lang';

/**
 * The language a link asks for (`?lang=est|eng`), stored as the device's choice and removed from
 * the address (history.replaceState, so a reload or a copied address does not ask again); null
 * when the address names none or an unknown value (the parameter is then left alone). The link's
 * language wins once over the stored one: a mail in English opens English on a device that chose
 * Estonian before, and from then on the device keeps English until the visitor switches back
 * (docs/decisions/0057).
 */
export function takeLangFromAddress(
  location: Pick<Location, 'href'> = window.location,
  history: Pick<History, 'replaceState' | 'state'> = window.history,
  storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage,
): Language | null {
  const url = new URL(location.href);
  const asked = url.searchParams.get(LANG_QUERY_PARAM);
  if (asked !== 'est' && asked !== 'eng') return null;
  const lang = langFromStored(asked);
  writeStoredLang(lang, storage);
  url.searchParams.delete(LANG_QUERY_PARAM);
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return lang;
}
