import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { loadPageNamespace, loadStartNamespaces } from './i18n';
import { pageNamespaces, startNamespaces, startResources, type PageNamespace } from './resources';

/** Every key path of a nested translation object, e.g. "footer.contact". */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => keyPaths(inner, prefix ? `${prefix}.${key}` : key));
}

/** Plural forms differ per language (i18next suffixes _one, _other): compare the base keys. */
function baseKeys(value: unknown): string[] {
  return [...new Set(keyPaths(value).map((path) => path.replace(/_(zero|one|two|few|many|other)$/, '')))].sort();
}

/** Every string of a translation object, with its key path. */
function strings(value: unknown): [string, unknown][] {
  return keyPaths(value).map((path) => [path, path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], value)]);
}

describe('translations of the first page (one chunk per language)', () => {
  it('startNamespaces lists every namespace of the chunks', async () => {
    expect(Object.keys(await startResources.et()).sort()).toEqual([...startNamespaces].sort());
    expect(Object.keys(await startResources.en()).sort()).toEqual([...startNamespaces].sort());
  });

  for (const ns of startNamespaces) {
    it(`${ns}: English has exactly the Estonian keys, and no string is empty`, async () => {
      const [et, en] = await Promise.all([startResources.et(), startResources.en()]);
      expect(baseKeys(en[ns])).toEqual(baseKeys(et[ns]));
      for (const bundle of [et[ns], en[ns]]) {
        const empty = strings(bundle).filter(([, text]) => typeof text !== 'string' || text.trim() === '');
        expect(empty).toEqual([]);
      }
    });
  }

  it('loadStartNamespaces adds the first page\'s texts in the language asked for only', async () => {
    const instance = i18next.createInstance();
    await instance.init({ lng: 'en', fallbackLng: 'et', resources: {}, interpolation: { escapeValue: false } });
    await loadStartNamespaces('en', instance);
    for (const ns of startNamespaces) expect(instance.hasResourceBundle('en', ns)).toBe(true);
    expect(instance.hasResourceBundle('et', 'common')).toBe(false);
    expect(instance.t('skipToContent', { ns: 'common' })).toBe((await startResources.en()).common.skipToContent);
  });
});

describe('page translations (loaded with their page)', () => {
  for (const ns of Object.keys(pageNamespaces) as PageNamespace[]) {
    it(`${ns}: English has exactly the Estonian keys, and no string is empty`, async () => {
      const [et, en] = await Promise.all([pageNamespaces[ns].et(), pageNamespaces[ns].en()]);
      expect(baseKeys(en.default)).toEqual(baseKeys(et.default));
      for (const bundle of [et.default, en.default]) {
        const empty = strings(bundle).filter(([, text]) => typeof text !== 'string' || text.trim() === '');
        expect(empty).toEqual([]);
      }
    });
  }

  it('no page namespace shares a name with a bundled one', () => {
    expect(Object.keys(pageNamespaces).filter((ns) => (startNamespaces as readonly string[]).includes(ns))).toEqual([]);
  });

  it('loadPageNamespace adds the page\'s texts in the current language only', async () => {
    const instance = i18next.createInstance();
    await instance.init({ lng: 'en', fallbackLng: 'et', resources: { et: {}, en: {} }, interpolation: { escapeValue: false } });
    await loadPageNamespace('history', instance);
    expect(instance.hasResourceBundle('en', 'history')).toBe(true);
    expect(instance.hasResourceBundle('et', 'history')).toBe(false);
    expect(instance.t('title', { ns: 'history' })).toBe((await pageNamespaces.history.en()).default.title);
  });
});
