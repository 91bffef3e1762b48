import type { PaymentMethodsAnswer } from '@sinilill/contracts';
import { describe, expect, it } from 'vitest';
import { chosenMethod, countryName, initialCountry, listedCountries, methodsOf } from './methods';

const bank = (code: string, uiPosition: number) => ({ code, name: code.toUpperCase(), logoUrl: `https://logos.example/${code}.png`, uiPosition });

const answer: PaymentMethodsAnswer = {
  provider: 'sandbox',
  countries: [
    { country: 'EE', methods: [bank('seb', 2), bank('swedbank', 1), bank('lhv', 3)] },
    { country: 'LV', methods: [bank('citadele', 1)] },
    { country: 'FI', methods: [] },
    { country: 'LT', methods: [bank('luminor', 1)] },
  ],
};

describe('listedCountries', () => {
  it('lists the provider\'s countries in reverse order, banks by uiPosition, none without banks', () => {
    const countries = listedCountries(answer);
    expect(countries.map((entry) => entry.country)).toEqual(['LT', 'LV', 'EE']);
    expect(countries[2]?.methods.map((method) => method.code)).toEqual(['swedbank', 'seb', 'lhv']);
  });

  it('leaves the answer as it was', () => {
    listedCountries(answer);
    expect(answer.countries[0]?.country).toBe('EE');
    expect(answer.countries[0]?.methods[0]?.code).toBe('seb');
  });
});

describe('initialCountry', () => {
  const countries = listedCountries(answer);

  it('selects EE by default, although it is listed last', () => {
    expect(initialCountry(countries, null)).toBe('EE');
  });

  it('keeps the payer\'s earlier choice when it is listed', () => {
    expect(initialCountry(countries, 'LV')).toBe('LV');
    expect(initialCountry(countries, 'FI')).toBe('EE');
  });

  it('falls back to the first listed country without EE, and to null without any', () => {
    expect(initialCountry(countries.filter((entry) => entry.country !== 'EE'), null)).toBe('LT');
    expect(initialCountry([], 'EE')).toBeNull();
  });
});

describe('methodsOf and chosenMethod', () => {
  const countries = listedCountries(answer);

  it('gives the country\'s banks, none for an unlisted one', () => {
    expect(methodsOf(countries, 'LV').map((method) => method.code)).toEqual(['citadele']);
    expect(methodsOf(countries, 'FI')).toEqual([]);
    expect(methodsOf(countries, null)).toEqual([]);
  });

  it('counts a bank as chosen only among the country\'s banks', () => {
    const estonian = methodsOf(countries, 'EE');
    expect(chosenMethod(estonian, 'seb')).toBe('seb');
    expect(chosenMethod(estonian, 'citadele')).toBeNull();
    expect(chosenMethod(estonian, null)).toBeNull();
  });
});

describe('countryName', () => {
  it('names the country in the page\'s language', () => {
    expect(countryName('EE', 'et')).toBe('Eesti');
    expect(countryName('EE', 'en')).toBe('Estonia');
    expect(countryName('LV', 'et')).toBe('Läti');
  });

  it('gives the code when there is no name', () => {
    expect(countryName('XX', 'et')).toBe('XX');
  });
});
