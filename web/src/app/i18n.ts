/**
 * i18next for the whole app: Estonian by default, English when localStorage `lang` says `eng`
 * (spec §1, §9). The frame's and the app pages' texts are bundled: two small languages do not
 * justify a loading round trip, and a synchronous init means no flash of untranslated keys. The
 * long texts of the content pages (resources.ts pageNamespaces) come with their page instead:
 * the route's loader calls loadPageNamespace before the page renders.
 */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Lang } from '../lib/language';
import { namespaces, pageNamespaces, resources, type PageNamespace } from './resources';

/** Page namespaces some route has asked for: loaded again in the other language when it changes. */
const requestedPageNamespaces = new Set<PageNamespace>();

/**
 * Makes `ns` available in `instance`'s current language (fetching that language's file the first
 * time). Resolves once `t()` can use it; rejects when the file could not be fetched.
 */
export async function loadPageNamespace(ns: PageNamespace, instance: I18n = i18next): Promise<void> {
  requestedPageNamespaces.add(ns);
  const lang: Lang = instance.language === 'en' ? 'en' : 'et';
  if (instance.hasResourceBundle(lang, ns)) return;
  const { default: bundle } = await pageNamespaces[ns][lang]();
  instance.addResourceBundle(lang, ns, bundle, true, true);
}

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
    // A page namespace that arrives after the first render (a language switched in place, see
    // language-store.ts) re-renders the components that use it.
    react: { bindI18nStore: 'added' },
  });
  i18next.on('languageChanged', () => {
    for (const ns of requestedPageNamespaces) void loadPageNamespace(ns).catch(() => undefined);
  });
  document.documentElement.lang = lang;
  return i18next;
}
