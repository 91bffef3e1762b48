/**
 * All translations, by language and namespace. Each feature brings its own namespace (house
 * style: namespace = feature); `common` holds the frame's and the shared components' strings,
 * `errors` the error catalogue of spec §8. The Estonian files are the reference: their shape
 * types `t()` keys, and a unit test checks English has the same keys.
 */
import commonEn from './locales/en.json';
import commonEt from './locales/et.json';
import errorsEn from '../lib/errors/locales/en.json';
import errorsEt from '../lib/errors/locales/et.json';
import accountEn from '../features/account/locales/en.json';
import accountEt from '../features/account/locales/et.json';
import authEn from '../features/auth/locales/en.json';
import authEt from '../features/auth/locales/et.json';
import homeEn from '../features/home/locales/en.json';
import homeEt from '../features/home/locales/et.json';
import payEn from '../features/pay/locales/en.json';
import payEt from '../features/pay/locales/et.json';
import registrationEn from '../features/registration/locales/en.json';
import registrationEt from '../features/registration/locales/et.json';
import teamEn from '../features/team/locales/en.json';
import teamEt from '../features/team/locales/et.json';

export const resources = {
  et: { common: commonEt, errors: errorsEt, home: homeEt, registration: registrationEt, auth: authEt, account: accountEt, team: teamEt, pay: payEt },
  en: { common: commonEn, errors: errorsEn, home: homeEn, registration: registrationEn, auth: authEn, account: accountEn, team: teamEn, pay: payEn },
} as const;

/** Every namespace, for i18next's `ns` option. */
export const namespaces = Object.keys(resources.et) as (keyof (typeof resources)['et'])[];

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: (typeof resources)['et'];
  }
}
