import { describe, expect, it } from 'vitest';
import { formatDistance, formatNumber } from './format-number';

describe('formatNumber', () => {
  it('separates thousands with a plain space', () => {
    expect(formatNumber(196445)).toBe('196 445');
    expect(formatNumber(1005)).toBe('1 005');
    expect(formatNumber(2491)).toBe('2 491');
    expect(formatNumber(1234567)).toBe('1 234 567');
  });

  it('leaves numbers below a thousand alone', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(7)).toBe('7');
    expect(formatNumber(121)).toBe('121');
    expect(formatNumber(999)).toBe('999');
  });

  it('rounds to whole numbers by default', () => {
    expect(formatNumber(1892.6)).toBe('1 893');
  });

  it('writes decimals with the given separator, comma by default', () => {
    expect(formatNumber(1234.5, { decimals: 2 })).toBe('1 234,50');
    expect(formatNumber(1234.567, { decimals: 2, decimalSeparator: '.' })).toBe('1 234.57');
    expect(formatNumber(0.4, { decimals: 1 })).toBe('0,4');
  });

  it('keeps the sign of negative numbers but never shows -0', () => {
    expect(formatNumber(-12345)).toBe('-12 345');
    expect(formatNumber(-0.001, { decimals: 2 })).toBe('0,00');
  });

  it('shows non-finite input as zero', () => {
    expect(formatNumber(Number.NaN)).toBe('0');
    expect(formatNumber(Number.POSITIVE_INFINITY, { decimals: 1 })).toBe('0,0');
  });
});

describe('formatDistance', () => {
  it('shows km with two decimals and a point, ungrouped', () => {
    expect(formatDistance(40.25)).toBe('40.25');
    expect(formatDistance(12.5)).toBe('12.50');
    expect(formatDistance(0)).toBe('0.00');
    expect(formatDistance(1234.5)).toBe('1234.50');
    expect(formatDistance(Number.NaN)).toBe('0.00');
  });
});
