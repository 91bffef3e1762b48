/**
 * i18next for the whole app: Estonian by default, English when localStorage `lang` says `eng`
 * (spec §1, §9). All resources are bundled: two small languages do not justify a loading round
 * trip, and a synchronous init means no flash of untranslated keys.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Lang } from '../lib/language';
import { namespaces, resources } from './resources';

/** Initialises the global i18next instance in `lang` and sets `<html lang>` to match. */
export function initI18n(lang: Lang): typeof i18next {
  void i18next.use(initReactI18next).init({
    lng: lang,
    fallbackLng: 'et',
    supportedLngs: ['et', 'en'],
    ns: namespaces,
    defaultNS: 'common',
    resources,
    initAsync: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
  });
  document.documentElement.lang = lang;
  return i18next;
}
