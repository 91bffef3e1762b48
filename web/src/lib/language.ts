/**
 * The interface language (spec §1, §9): Estonian by default, English on request. The choice is
 * kept in localStorage under `lang` as `est` or `eng`; i18next and `<html lang>` use `et`/`en`.
 */
export type Lang = 'et' | 'en';
export type StoredLang = 'est' | 'eng';

export const LANG_STORAGE_KEY = 'lang';
export const DEFAULT_LANG: Lang = 'et';

/** The language for a stored value; anything but `eng` (missing, garbled) means Estonian. */
export function langFromStored(stored: string | null | undefined): Lang {
  return stored === 'eng' ? 'en' : DEFAULT_LANG;
}

/** The value stored for a language. */
export function storedFromLang(lang: Lang): StoredLang {
  return lang === 'en' ? 'eng' : 'est';
}

/** The other language: what the flag control switches to. */
export function otherLang(lang: Lang): Lang {
  return lang === 'et' ? 'en' : 'et';
}

/** Reads the stored choice; storage may be unavailable (privacy modes), which means the default. */
export function readStoredLang(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): Lang {
  try {
    return langFromStored(storage?.getItem(LANG_STORAGE_KEY));
  } catch {
    return DEFAULT_LANG;
  }
}

/** Stores the choice; returns false when storage refused it. */
export function writeStoredLang(lang: Lang, storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): boolean {
  try {
    storage?.setItem(LANG_STORAGE_KEY, storedFromLang(lang));
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
): Lang | null {
  const url = new URL(location.href);
  const asked = url.searchParams.get(LANG_QUERY_PARAM);
  if (asked !== 'est' && asked !== 'eng') return null;
  const lang = langFromStored(asked);
  writeStoredLang(lang, storage);
  url.searchParams.delete(LANG_QUERY_PARAM);
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return lang;
}
