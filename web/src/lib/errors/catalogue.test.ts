import { ERROR_CODES } from '@sinilill/domain';
import i18next, { type TFunction } from 'i18next';
import { edition2025 } from '@sinilill/domain/seed';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheEditions, clearEditions } from '../test-editions';
import { CATALOGUE_CODES, errorText, SERVER_ONLY_CODES, toCatalogueCode } from './catalogue';
import errorsEn from './locales/en.json';
import errorsEt from './locales/et.json';

const catalogues = { et: errorsEt as Record<string, string>, en: errorsEn as Record<string, string> };

/** An i18next instance of its own (the app's global one is not initialised in unit tests). */
async function translator(lng: 'et' | 'en'): Promise<TFunction> {
  const instance = i18next.createInstance();
  await instance.init({
    lng,
    resources: { et: { errors: errorsEt }, en: { errors: errorsEn } },
    ns: ['errors'],
    interpolation: { escapeValue: false },
  });
  return instance.t;
}

describe('error catalogue', () => {
  // Every code the server can answer with: ERROR_CODES, plus the codes added on the server
  // side for as long as ERROR_CODES does not list them yet.
  const codes = [...new Set<string>([...ERROR_CODES, ...SERVER_ONLY_CODES])];

  for (const lang of ['et', 'en'] as const) {
    it(`has a text for every code in ${lang === 'et' ? 'Estonian' : 'English'}`, () => {
      const missing = codes.filter((code) => typeof catalogues[lang][code] !== 'string' || catalogues[lang][code].trim() === '');
      expect(missing).toEqual([]);
    });
  }

  it('covers the same codes in both languages', () => {
    expect(Object.keys(errorsEn).sort()).toEqual(Object.keys(errorsEt).sort());
  });

  it('knows exactly the codes the client can show', () => {
    expect([...CATALOGUE_CODES].sort()).toEqual(codes.sort());
  });

  it('gives the English texts of spec §8', async () => {
    const t = await translator('en');
    expect(errorText(t, 'INVALID_CREDENTIALS')).toBe('Invalid credentials!');
    expect(errorText(t, 'PASSWORDS_DONT_MATCH')).toBe("Passwords don't match!");
    expect(errorText(t, 'USER_NOT_APPROVED')).toBe('User is not approved; a confirmation link was sent.');
  });

  afterEach(clearEditions);

  it('appends the image limit of the edition, 5MB in 2025, to MAX_IMAGE_SIZE in both languages', async () => {
    cacheEditions(edition2025);
    expect(errorText(await translator('en'), 'MAX_IMAGE_SIZE')).toBe('Largest allowed image size is 5MB');
    expect(errorText(await translator('et'), 'MAX_IMAGE_SIZE')).toMatch(/ 5MB$/);
  });

  it('says MAX_IMAGE_SIZE without a size before the editions are read', async () => {
    expect(errorText(await translator('en'), 'MAX_IMAGE_SIZE')).toBe('Largest allowed image size is');
  });

  it('names the minimum password length of the edition', async () => {
    cacheEditions({ ...edition2025, limits: { ...edition2025.limits, passwordMin: 8 } });
    expect(errorText(await translator('en'), 'PASSWORD_TOO_SHORT')).toContain('at least 8 characters');
  });

  it('names the minimum password length', async () => {
    expect(errorText(await translator('en'), 'PASSWORD_TOO_SHORT')).toContain('at least 6 characters');
    expect(errorText(await translator('et'), 'PASSWORD_TOO_SHORT')).toContain('vähemalt 6 tähemärki');
  });

  it('shows GENERIC_ERROR for unknown codes', async () => {
    const t = await translator('et');
    expect(errorText(t, 'NO_SUCH_CODE')).toBe('Oih, midagi läks valesti...');
    expect(toCatalogueCode('NO_SUCH_CODE', 400)).toBe('GENERIC_ERROR');
    expect(toCatalogueCode(undefined, 500)).toBe('GENERIC_ERROR');
  });

  it('maps a rate limiter answer in its own words to TOO_MANY_REQUESTS', () => {
    expect(toCatalogueCode('Rate limit exceeded, retry in 1 minute', 429)).toBe('TOO_MANY_REQUESTS');
    expect(toCatalogueCode('INVALID_EMAIL', 429)).toBe('INVALID_EMAIL');
  });
});
