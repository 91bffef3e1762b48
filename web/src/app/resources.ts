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
import participantsEn from '../features/participants/locales/en.json';
import participantsEt from '../features/participants/locales/et.json';
import payEn from '../features/pay/locales/en.json';
import payEt from '../features/pay/locales/et.json';
import registrationEn from '../features/registration/locales/en.json';
import registrationEt from '../features/registration/locales/et.json';
import teamEn from '../features/team/locales/en.json';
import teamEt from '../features/team/locales/et.json';

export const resources = {
  et: { common: commonEt, errors: errorsEt, home: homeEt, registration: registrationEt, auth: authEt, account: accountEt, team: teamEt, pay: payEt, participants: participantsEt },
  en: { common: commonEn, errors: errorsEn, home: homeEn, registration: registrationEn, auth: authEn, account: accountEn, team: teamEn, pay: payEn, participants: participantsEn },
} as const;

/** Every namespace, for i18next's `ns` option. */
export const namespaces = Object.keys(resources.et) as (keyof (typeof resources)['et'])[];

/**
 * Page namespaces: the long texts of the content pages (history, guide, supporters, news,
 * privacy) and the admin console's (admin, adminAudit). Unlike the namespaces above they are not in the first download: each page's route
 * loads its namespace, in the page's language only, next to the page's own chunk
 * (i18n.ts loadPageNamespace, router.tsx loaders). Listed here so that `t()` keys are typed and
 * the locale test checks them like the rest.
 */
export const pageNamespaces = {
  history: { et: () => import('../features/history/locales/et.json'), en: () => import('../features/history/locales/en.json') },
  guide: { et: () => import('../features/guide/locales/et.json'), en: () => import('../features/guide/locales/en.json') },
  sponsors: { et: () => import('../features/sponsors/locales/et.json'), en: () => import('../features/sponsors/locales/en.json') },
  news: { et: () => import('../features/news/locales/et.json'), en: () => import('../features/news/locales/en.json') },
  privacy: { et: () => import('../features/privacy/locales/et.json'), en: () => import('../features/privacy/locales/en.json') },
  // The admin console (issue 6): users, teams, entries, password reset …
  admin: { et: () => import('../features/admin/locales/et.json'), en: () => import('../features/admin/locales/en.json') },
  // … and its audit side: event history, switches, replay, queue board.
  adminAudit: { et: () => import('../features/admin/locales/audit.et.json'), en: () => import('../features/admin/locales/audit.en.json') },
} as const;

export type PageNamespace = keyof typeof pageNamespaces;

/** The Estonian (reference) shape of each page namespace. */
type PageResources = { [Ns in PageNamespace]: Awaited<ReturnType<(typeof pageNamespaces)[Ns]['et']>>['default'] };

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: (typeof resources)['et'] & PageResources;
  }
}
