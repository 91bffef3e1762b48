import { describe, expect, it } from 'vitest';
import { LANG_STORAGE_KEY, langFromStored, otherLang, readStoredLang, storedFromLang, writeStoredLang } from './language';

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

  it('stores est and eng', () => {
    expect(storedFromLang('et')).toBe('est');
    expect(storedFromLang('en')).toBe('eng');
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
});
