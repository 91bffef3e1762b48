import { describe, expect, it } from 'vitest';
import { centsToEuros, euroText, eurosToCents } from './money';

describe('money at the edges', () => {
  it.each([[1500, 15], [1999, 19.99], [5, 0.05], [100_000_000, 1_000_000]])('%i cents are %d euros, and back', (cents, euros) => {
    expect(centsToEuros(cents)).toBe(euros);
    expect(eurosToCents(euros)).toBe(cents);
    expect(eurosToCents(String(euros))).toBe(cents);
  });

  it('writes two decimals with a point', () => {
    expect(euroText(1500)).toBe('15.00');
    expect(euroText(505)).toBe('5.05');
    expect(euroText(7)).toBe('0.07');
  });

  it('reads "15.00" and "15.5", and refuses what is not an amount of cents', () => {
    expect(eurosToCents('15.00')).toBe(1500);
    expect(eurosToCents('15.5')).toBe(1550);
    for (const bad of ['15.001', '15,00', '', 'abc', null, undefined, Number.NaN, Number.POSITIVE_INFINITY, 0.1 + 0.2, {}]) {
      expect(eurosToCents(bad)).toBeNull();
    }
  });
});
