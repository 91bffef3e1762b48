import { describe, expect, test } from 'vitest';
import { DEFAULT_LANGUAGE, LANGUAGES, fromSpecLanguage, toSpecLanguage } from './language';

describe('language', () => {
  test('the spec\'s est/eng and the code\'s et/en convert both ways', () => {
    expect(fromSpecLanguage('est')).toBe('et');
    expect(fromSpecLanguage('eng')).toBe('en');
    expect(toSpecLanguage('et')).toBe('est');
    expect(toSpecLanguage('en')).toBe('eng');
    for (const lang of LANGUAGES) expect(fromSpecLanguage(toSpecLanguage(lang))).toBe(lang);
  });

  test('Estonian is the default and comes first', () => {
    expect(DEFAULT_LANGUAGE).toBe('et');
    expect(LANGUAGES).toEqual(['et', 'en']);
  });
});
