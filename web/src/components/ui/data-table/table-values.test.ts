import { describe, expect, it } from 'vitest';
import { compareValues, matchesSearch, normalizeSearchText } from './table-values';

describe('compareValues', () => {
  it('orders numbers and booleans by size', () => {
    expect([10, 2, 33.5, 0].sort((a, b) => compareValues(a, b, 'et'))).toEqual([0, 2, 10, 33.5]);
    expect(compareValues(false, true, 'en')).toBeLessThan(0);
  });

  it('orders texts in the page language, ignoring case, numbers by value', () => {
    const names = ['Õie', 'Zeta', 'anna', 'Šaak', 'Ülle', 'Saar', 'Toomas'];
    expect([...names].sort((a, b) => compareValues(a, b, 'et'))).toEqual(['anna', 'Saar', 'Šaak', 'Zeta', 'Toomas', 'Õie', 'Ülle']);
    expect(['Team 10', 'Team 2'].sort((a, b) => compareValues(a, b, 'en'))).toEqual(['Team 2', 'Team 10']);
  });
});

describe('search', () => {
  it('normalizes case and spaces', () => {
    expect(normalizeSearchText('  Mari   MAASIKAS ', 'et')).toBe('mari maasikas');
  });

  it('folds diacritics, so a search typed without them finds the names written with them', () => {
    const needle = normalizeSearchText('voru', 'et');
    expect(matchesSearch('Võru Jooksjad', needle, 'et')).toBe(true);
    expect(matchesSearch('ŠOKOLAAD', normalizeSearchText('sokolaad', 'et'), 'et')).toBe(true);
    expect(matchesSearch('Võru', normalizeSearchText('VÕRU', 'et'), 'et')).toBe(true);
  });

  it('matches a part of the text; an empty search matches everything', () => {
    const needle = normalizeSearchText('maasi', 'et');
    expect(matchesSearch('Mari Maasikas', needle, 'et')).toBe(true);
    expect(matchesSearch('Jaan Tamm', needle, 'et')).toBe(false);
    expect(matchesSearch('anything', '', 'et')).toBe(true);
  });
});
