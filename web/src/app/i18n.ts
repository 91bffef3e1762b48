/**
 * i18next for the whole app: Estonian by default, English when localStorage `lang` says `eng`
 * (spec §1, §9). Only the page's language is downloaded. What the first page needs (resources.ts
 * start namespaces) is there before the first render (initI18n's promise), so there is no flash
 * of untranslated keys. Every other page's texts (page namespaces) come with their page: the
 * route's loader calls loadPageNamespace before the page renders.
 */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '@sinilill/contracts';
import { pageNamespaces, startNamespaces, startResources, type PageNamespace } from './resources';

/** Page namespaces some route has asked for: loaded again in the other language when it changes. */
const requestedPageNamespaces = new Set<PageNamespace>();

/** `instance`'s current language as the app names it. */
function currentLang(instance: I18n): Language {
  return instance.language === 'en' ? 'en' : 'et';
}

/**
 * Makes `ns` available in `instance`'s current language (fetching that language's file the first
 * time). Resolves once `t()` can use it; rejects when the file could not be fetched.
 */
export async function loadPageNamespace(ns: PageNamespace, instance: I18n = i18next): Promise<void> {
  requestedPageNamespaces.add(ns);
  const lang = currentLang(instance);
  if (instance.hasResourceBundle(lang, ns)) return;
  const { default: bundle } = await pageNamespaces[ns][lang]();
  instance.addResourceBundle(lang, ns, bundle, true, true);
}

/**
 * Makes the start namespaces available in `lang` (fetching that language's chunk the first
 * time). Resolves once `t()` can use them; rejects when the chunk could not be fetched.
 */
export async function loadStartNamespaces(lang: Language, instance: I18n = i18next): Promise<void> {
  if (startNamespaces.every((ns) => instance.hasResourceBundle(lang, ns))) return;
  const bundles = await startResources[lang]();
  for (const ns of startNamespaces) instance.addResourceBundle(lang, ns, bundles[ns], true, true);
}

/**
 * Initialises the global i18next instance in `lang` and sets `<html lang>` to match. Resolves
 * when the first page's texts are there in `lang`. Should their chunk not arrive (twice), an
 * English page falls back on the Estonian texts (the fallback language); failing that it
 * resolves all the same, and the page shows its text keys rather than nothing.
 */
export async function initI18n(lang: Language): Promise<typeof i18next> {
  void i18next.use(initReactI18next).init({
    lng: lang,
    fallbackLng: 'et',
    supportedLngs: ['et', 'en'],
    ns: startNamespaces,
    defaultNS: 'common',
    // Filled in per namespace as their chunks arrive (addResourceBundle); having `resources`
    // tells i18next not to wait for a backend, so a namespace counts as loaded once added.
    resources: {},
    initAsync: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
    // A namespace that arrives after the first render (a language switched in place, see
    // language-store.ts) re-renders the components that use it.
    react: { bindI18nStore: 'added' },
  });
  i18next.on('languageChanged', (next: string) => {
    const changed: Language = next === 'en' ? 'en' : 'et';
    void loadStartNamespaces(changed).catch(() => undefined);
    for (const ns of requestedPageNamespaces) void loadPageNamespace(ns).catch(() => undefined);
  });
  document.documentElement.lang = lang;
  await loadStartNamespaces(lang)
    .catch(() => loadStartNamespaces(lang))
    .catch(() => (lang === 'et' ? undefined : loadStartNamespaces('et')))
    .catch(() => undefined);
  return i18next;
}
