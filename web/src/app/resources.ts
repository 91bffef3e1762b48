/**
 * All translations, by language and namespace. Each feature brings its own namespace (house
 * style: namespace = feature); `common` holds the frame's strings. The Estonian files are the
 * reference: their shape types `t()` keys, and a unit test checks English has the same keys.
 */
import commonEn from './locales/en.json';
import commonEt from './locales/et.json';
import homeEn from '../features/home/locales/en.json';
import homeEt from '../features/home/locales/et.json';

export const resources = {
  et: { common: commonEt, home: homeEt },
  en: { common: commonEn, home: homeEn },
} as const;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: (typeof resources)['et'];
  }
}
