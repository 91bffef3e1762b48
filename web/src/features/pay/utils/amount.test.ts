import { describe, expect, it } from 'vitest';
import { amountCents } from './amount';

describe('amountCents', () => {
  it('reads euros with up to two decimals, point or comma, as exact cents', () => {
    expect(amountCents('15')).toBe(1500);
    expect(amountCents('15.00')).toBe(1500);
    expect(amountCents('5,5')).toBe(550);
    expect(amountCents(20.1)).toBe(2010);
    expect(amountCents(' 0.29 ')).toBe(29);
  });

  it('gives null for anything else', () => {
    for (const value of [undefined, '', 'abc', '-5', '1.234', '1e3', '15 EUR']) expect(amountCents(value)).toBeNull();
  });
});
