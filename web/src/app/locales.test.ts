import { describe, expect, it } from 'vitest';
import { resources } from './resources';

/** Every key path of a nested translation object, e.g. "footer.contact". */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => keyPaths(inner, prefix ? `${prefix}.${key}` : key));
}

/** Plural forms differ per language (i18next suffixes _one, _other): compare the base keys. */
function baseKeys(value: unknown): string[] {
  return [...new Set(keyPaths(value).map((path) => path.replace(/_(zero|one|two|few|many|other)$/, '')))].sort();
}

describe('translations', () => {
  for (const ns of Object.keys(resources.et) as (keyof typeof resources.et)[]) {
    it(`${ns}: English has exactly the Estonian keys`, () => {
      expect(baseKeys(resources.en[ns])).toEqual(baseKeys(resources.et[ns]));
    });

    it(`${ns}: no empty strings`, () => {
      for (const lang of ['et', 'en'] as const) {
        const strings = keyPaths(resources[lang][ns]).map((path) =>
          path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], resources[lang][ns]),
        );
        expect(strings.every((s) => typeof s === 'string' && s.trim().length > 0)).toBe(true);
      }
    });
  }
});
