import { describe, expect, it } from 'vitest';
import { parseDecimal } from './parse-decimal';

const value = (text: string, maxDecimals?: number) => {
  const result = parseDecimal(text, { maxDecimals });
  return result.ok ? result.value : result.problem;
};

describe('parseDecimal', () => {
  it('reads a decimal comma and a decimal point alike', () => {
    expect(value('4,2')).toBe(4.2);
    expect(value('4.2')).toBe(4.2);
    expect(value('0,5')).toBe(0.5);
    expect(value('12.75')).toBe(12.75);
    expect(value(' 7 ')).toBe(7);
  });

  it('reads thousands grouped by a space, a no-break space or a narrow no-break space', () => {
    expect(value('4 200')).toBe(4200);
    expect(value('4\u00a0200')).toBe(4200);
    expect(value('4\u202f200')).toBe(4200);
    expect(value('1 234,5')).toBe(1234.5);
    expect(value('1 234 567.25')).toBe(1234567.25);
  });

  it('refuses a group that is not three digits', () => {
    expect(value('4 20')).toBe('grouping');
    expect(value('42 0000')).toBe('grouping');
    expect(value('1234 567')).toBe('grouping');
  });

  it('refuses a comma and a point together, and a second separator', () => {
    expect(value('4,2.5')).toBe('mixedSeparators');
    expect(value('1,234.5')).toBe('mixedSeparators');
    expect(value('1.234,5')).toBe('mixedSeparators');
    expect(value('1,2,3')).toBe('malformed');
    expect(value('1.2.3')).toBe('malformed');
  });

  it('refuses more decimals than allowed instead of guessing a thousands separator', () => {
    expect(value('4,200')).toBe('tooManyDecimals');
    expect(value('4.200')).toBe('tooManyDecimals');
    expect(value('4,125')).toBe('tooManyDecimals');
    expect(value('4,125', 3)).toBe(4.125);
  });

  it('refuses letters, signs, empty text and bare separators', () => {
    expect(value('')).toBe('empty');
    expect(value('   ')).toBe('empty');
    expect(value('4km')).toBe('malformed');
    expect(value('abc')).toBe('malformed');
    expect(value('-4')).toBe('malformed');
    expect(value('1e3')).toBe('malformed');
    expect(value(',5')).toBe('malformed');
    expect(value('4,')).toBe('malformed');
    expect(value('4 ,2')).toBe('grouping');
  });
});
