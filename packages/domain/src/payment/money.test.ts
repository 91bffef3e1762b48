import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { centsToEuros, euroText, eurosToCents, parseEuros } from './money';

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

describe('parseEuros (a payment request in euros, spec §3/§9)', () => {
  const codeOf = (value: unknown): string | null => {
    try {
      parseEuros(value);
      return null;
    } catch (error) {
      return error instanceof DomainError ? error.code : 'not a DomainError';
    }
  };

  it.each([
    [15, 1500], [15.0, 1500], [20.5, 2050], [20.50, 2050], [5, 500], [1, 100], [0.15, 15], [0.3, 30],
    [19.99, 1999], [0.01, 1], [0.07, 7], [1.1, 110], [4.35, 435], [1_000_000, 100_000_000], [0, 0], [-0, 0],
  ])('reads %d EUR as %i cents, exactly', (euros, cents) => {
    expect(parseEuros(euros)).toBe(cents);
  });

  it('reads what JSON.parse makes of the digits sent (20.50, 15.00, 0.30)', () => {
    const body = JSON.parse('{"a": 20.50, "b": 15.00, "c": 0.30, "d": 1.10}') as Record<string, number>;
    expect(Object.values(body).map(parseEuros)).toEqual([2050, 1500, 30, 110]);
  });

  it('never drifts: every cent from 0.00 to 100.00 EUR', () => {
    for (let cents = 0; cents <= 10_000; cents++) expect(parseEuros(Number(`${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`))).toBe(cents);
  });

  it('refuses INVALID_AMOUNT: more decimals, negatives, not-numbers, exponents, too much', () => {
    for (const bad of [1.005, 20.505, 0.1 + 0.2, 0.001, 1e-7, -5, -0.01, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY,
      '15', '15.00', '', null, undefined, {}, [15], true, 1e9, 1_000_000.01, 1e21]) {
      expect(codeOf(bad)).toBe('INVALID_AMOUNT');
    }
  });
});
