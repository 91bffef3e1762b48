import { describe, expect, it } from 'vitest';
import { formatEuros } from './format-money';

describe('formatEuros', () => {
  it('shows two decimals and the euro sign', () => {
    expect(formatEuros(1500, 'et')).toBe('15,00 €');
    expect(formatEuros(500, 'et')).toBe('5,00 €');
    expect(formatEuros(1500, 'en')).toBe('€15.00');
    expect(formatEuros(123456, 'en')).toBe('€1\u00a0234.56');
    expect(formatEuros(123456, 'et')).toBe('1\u00a0234,56 €');
  });
});
