import i18next from 'i18next';
import { create } from 'zustand';
import { readStoredLang, writeStoredLang } from '../lib/language';
import type { Language } from '@sinilill/contracts';

interface LanguageState {
  /** The language the page was loaded in. */
  lang: Language;
  /**
   * Stores the choice under localStorage `lang` and reloads the page (spec §1: switching
   * reloads). If storage refuses the value a reload would lose it, so the language is
   * switched in place instead.
   */
  switchTo: (lang: Language) => void;
}

export const useLanguageStore = create<LanguageState>()((set) => ({
  lang: readStoredLang(),
  switchTo: (lang) => {
    if (writeStoredLang(lang)) {
      window.location.reload();
      return;
    }
    void i18next.changeLanguage(lang);
    document.documentElement.lang = lang;
    set({ lang });
  },
}));
