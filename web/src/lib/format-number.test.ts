import { describe, expect, it } from 'vitest';
import { distanceSearchText, formatDistance, formatNumber } from './format-number';

/** The no-break space (U+00A0) Intl's et-EE puts between thousands. */
const nb = '\u00a0';

describe('formatNumber', () => {
  it('separates thousands with a no-break space, from four digits on', () => {
    expect(formatNumber(196445)).toBe(`196${nb}445`);
    expect(formatNumber(1005)).toBe(`1${nb}005`);
    expect(formatNumber(2491, { lang: 'en' })).toBe(`2${nb}491`);
    expect(formatNumber(1234567)).toBe(`1${nb}234${nb}567`);
  });

  it('leaves numbers below a thousand alone', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(7)).toBe('7');
    expect(formatNumber(121)).toBe('121');
    expect(formatNumber(999)).toBe('999');
  });

  it('rounds to whole numbers by default', () => {
    expect(formatNumber(1892.6)).toBe(`1${nb}893`);
  });

  it('writes a decimal comma in Estonian (the default) and a decimal point in English', () => {
    expect(formatNumber(1234.5, { decimals: 2 })).toBe(`1${nb}234,50`);
    expect(formatNumber(1234.5, { decimals: 2, lang: 'et' })).toBe(`1${nb}234,50`);
    expect(formatNumber(1234.567, { decimals: 2, lang: 'en' })).toBe(`1${nb}234.57`);
    expect(formatNumber(0.4, { decimals: 1 })).toBe('0,4');
    expect(formatNumber(6.25, { decimals: 2 })).toBe('6,25');
  });

  it('keeps the sign of negative numbers but never shows -0', () => {
    // Estonian writes the minus sign (U+2212), English a hyphen-minus, as Intl gives them.
    expect(formatNumber(-12345)).toBe(`\u221212${nb}345`);
    expect(formatNumber(-12345, { lang: 'en' })).toBe(`-12${nb}345`);
    expect(formatNumber(-0.001, { decimals: 2 })).toBe('0,00');
  });

  it('shows non-finite input as zero', () => {
    expect(formatNumber(Number.NaN)).toBe('0');
    expect(formatNumber(Number.POSITIVE_INFINITY, { decimals: 1 })).toBe('0,0');
  });
});

describe('formatDistance', () => {
  it('shows km with two decimals in the page language, grouped', () => {
    expect(formatDistance(40.25, 'et')).toBe('40,25');
    expect(formatDistance(40.25, 'en')).toBe('40.25');
    expect(formatDistance(12.5, 'et')).toBe('12,50');
    expect(formatDistance(0, 'en')).toBe('0.00');
    expect(formatDistance(1234.5, 'et')).toBe(`1${nb}234,50`);
    expect(formatDistance(1234.5, 'en')).toBe(`1${nb}234.50`);
    expect(formatDistance(Number.NaN, 'et')).toBe('0,00');
  });

  it('is found by a search typed either way', () => {
    const text = distanceSearchText(1234.5, 'et');
    for (const typed of [`1${nb}234,50`, '1234.50', '1234,5']) expect(text).toContain(typed);
  });
});
