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
