import { describe, expect, it } from 'vitest';
import { LANG_STORAGE_KEY, langFromStored, takeLangFromAddress, otherLang, readStoredLang, writeStoredLang } from './language';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('language', () => {
  it('is Estonian unless English is stored', () => {
    expect(langFromStored(null)).toBe('et');
    expect(langFromStored('est')).toBe('et');
    expect(langFromStored('eng')).toBe('en');
    expect(langFromStored('en')).toBe('et');
  });

  it('switches to the other language', () => {
    expect(otherLang('et')).toBe('en');
    expect(otherLang('en')).toBe('et');
  });

  it('round-trips through the lang key', () => {
    const storage = memoryStorage();
    expect(readStoredLang(storage)).toBe('et');
    expect(writeStoredLang('en', storage)).toBe(true);
    expect(storage.data.get(LANG_STORAGE_KEY)).toBe('eng');
    expect(readStoredLang(storage)).toBe('en');
  });

  it('falls back to Estonian when storage throws', () => {
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
    expect(readStoredLang(broken)).toBe('et');
    expect(writeStoredLang('en', broken)).toBe(false);
  });

  it('takes ?lang= from the address once: stores it and removes it, keeping the rest', () => {
    const storage = memoryStorage();
    storage.setItem(LANG_STORAGE_KEY, 'est');
    const replaced: string[] = [];
    const history = { state: null, replaceState: (_: unknown, __: string, url?: string | URL | null) => void replaced.push(String(url)) };
    expect(takeLangFromAddress({ href: 'https://sinilill.test/passwordreset/t/u?lang=eng&x=1#top' }, history, storage)).toBe('en');
    expect(storage.data.get(LANG_STORAGE_KEY)).toBe('eng');
    expect(replaced).toEqual(['/passwordreset/t/u?x=1#top']);
    expect(takeLangFromAddress({ href: 'https://sinilill.test/login?lang=fr' }, history, storage)).toBeNull();
    expect(takeLangFromAddress({ href: 'https://sinilill.test/login' }, history, storage)).toBeNull();
    expect(replaced).toHaveLength(1);
  });
});
