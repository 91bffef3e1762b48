/**
 * All translations, by language and namespace. Each feature brings its own namespace (house
 * style: namespace = feature); `common` holds the frame's and the shared components' strings,
 * `errors` the error catalogue of spec §8. The Estonian files are the reference: their shape
 * types `t()` keys, and a unit test checks English has the same keys.
 *
 * What the first page needs (the home route's JavaScript at most 150 KB
 * gzipped) is split from the rest, and only the page's language is downloaded:
 * - start namespaces (common, errors, home): one chunk per language (start-resources-et.ts,
 *   start-resources-en.ts), loaded before the first render (i18n.ts initI18n); the HTML starts
 *   fetching the page's language's chunk together with the entry (vite.config.ts);
 * - page namespaces (every other feature's): not in the first download; each page's route loads
 *   its namespaces, in the page's language only, next to the page's own chunk (i18n.ts
 *   loadPageNamespace, router.tsx loaders).
 */
import type { Lang } from '../lib/language';
import type { startResourcesEt } from './start-resources-et';

/** The start namespaces of each language (each promise rejects when its chunk could not be fetched). */
export const startResources: Record<Lang, () => Promise<StartResources>> = {
  et: () => import('./start-resources-et').then((module) => module.startResourcesEt),
  en: () => import('./start-resources-en').then((module) => module.startResourcesEn),
};

/** The start namespaces' texts of one language, by namespace (Estonian's shape: the reference). */
export type StartResources = typeof startResourcesEt;
export type StartNamespace = keyof StartResources;

/** The start namespaces, for i18next's `ns` option (a unit test checks the list is complete). */
export const startNamespaces: readonly StartNamespace[] = ['common', 'errors', 'home'];

/**
 * Page namespaces: every namespace but the start ones, one per feature page (admin's two:
 * the console's and its audit side's). Listed here so that `t()` keys are typed and the locale
 * test checks them like the rest.
 */
export const pageNamespaces = {
  registration: { et: () => import('../features/registration/locales/et.json'), en: () => import('../features/registration/locales/en.json') },
  auth: { et: () => import('../features/auth/locales/et.json'), en: () => import('../features/auth/locales/en.json') },
  account: { et: () => import('../features/account/locales/et.json'), en: () => import('../features/account/locales/en.json') },
  team: { et: () => import('../features/team/locales/et.json'), en: () => import('../features/team/locales/en.json') },
  pay: { et: () => import('../features/pay/locales/et.json'), en: () => import('../features/pay/locales/en.json') },
  participants: { et: () => import('../features/participants/locales/et.json'), en: () => import('../features/participants/locales/en.json') },
  history: { et: () => import('../features/history/locales/et.json'), en: () => import('../features/history/locales/en.json') },
  guide: { et: () => import('../features/guide/locales/et.json'), en: () => import('../features/guide/locales/en.json') },
  sponsors: { et: () => import('../features/sponsors/locales/et.json'), en: () => import('../features/sponsors/locales/en.json') },
  news: { et: () => import('../features/news/locales/et.json'), en: () => import('../features/news/locales/en.json') },
  privacy: { et: () => import('../features/privacy/locales/et.json'), en: () => import('../features/privacy/locales/en.json') },
  // The public prize draw page /loos.
  draw: { et: () => import('../features/draw/locales/et.json'), en: () => import('../features/draw/locales/en.json') },
  certificates: { et: () => import('../features/certificates/locales/et.json'), en: () => import('../features/certificates/locales/en.json') },
  // The admin console: users, teams, entries, password reset …
  admin: { et: () => import('../features/admin/locales/et.json'), en: () => import('../features/admin/locales/en.json') },
  // … and its audit side: event history, switches, replay, queue board.
  adminAudit: { et: () => import('../features/admin/locales/audit.et.json'), en: () => import('../features/admin/locales/audit.en.json') },
  // The public unsubscribe page of announcement mails.
  unsubscribe: { et: () => import('../features/unsubscribe/locales/et.json'), en: () => import('../features/unsubscribe/locales/en.json') },
} as const;

export type PageNamespace = keyof typeof pageNamespaces;

/** The Estonian (reference) shape of each page namespace. */
type PageResources = { [Ns in PageNamespace]: Awaited<ReturnType<(typeof pageNamespaces)[Ns]['et']>>['default'] };

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: StartResources & PageResources;
  }
}
