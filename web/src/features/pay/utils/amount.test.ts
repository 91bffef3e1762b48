import { describe, expect, it } from 'vitest';
import { acceptAmountInput, amountCents, amountInputCents, amountInputText, centsOfEuros } from './amount';

describe('amountCents', () => {
  it('reads euros with up to two decimals, point or comma, as exact cents', () => {
    expect(amountCents('15')).toBe(1500);
    expect(amountCents('15.00')).toBe(1500);
    expect(amountCents('5,5')).toBe(550);
    expect(amountCents(20.1)).toBe(2010);
    // No float drift: 0.29 * 100 is 28.999… in binary floating point.
    expect(amountCents(' 0.29 ')).toBe(29);
    expect(amountCents('1234567.89')).toBe(123456789);
  });

  it('gives null for anything else', () => {
    for (const value of [undefined, '', 'abc', '-5', '1.234', '1e3', '15 EUR', '1.2.3', '15.']) expect(amountCents(value)).toBeNull();
  });
});

describe('amountInputText', () => {
  it('writes cents as euros with two decimals in the page\'s language: a comma in Estonian, a point in English', () => {
    expect(amountInputText(1500, 'et')).toBe('15,00');
    expect(amountInputText(500, 'et')).toBe('5,00');
    expect(amountInputText(29, 'et')).toBe('0,29');
    expect(amountInputText(123450, 'et')).toBe('1234,50');
    expect(amountInputText(1500, 'en')).toBe('15.00');
    expect(amountInputText(123450, 'en')).toBe('1234.50');
  });

  it('is read back by amountInputCents in either language', () => {
    for (const lang of ['et', 'en'] as const) {
      for (const cents of [0, 1, 29, 100, 550, 1500, 99999]) expect(amountInputCents(amountInputText(cents, lang))).toBe(cents);
    }
  });

  it('reads "15,50" and "15.50" alike, never as another magnitude', () => {
    expect(amountInputCents('15,50')).toBe(1550);
    expect(amountInputCents('15.50')).toBe(1550);
    expect(amountInputCents('1.234,50')).toBeNull();
  });
});

describe('acceptAmountInput', () => {
  it('takes an amount or the start of one', () => {
    for (const typed of ['', '1', '15', '15,', '15.', '15,5', '15.50', '.5', '0']) expect(acceptAmountInput('15.00', typed)).toBe(typed);
  });

  it('drops spaces and euro signs (a pasted "15 €")', () => {
    expect(acceptAmountInput('', '15 €')).toBe('15');
    expect(acceptAmountInput('', '€ 1 000,50')).toBe('1000,50');
  });

  it('keeps the previous text when the typed one cannot become an amount', () => {
    for (const typed of ['15.005', 'abc', '-5', '1e3', '1,2,3', '15.0a', '12345678']) expect(acceptAmountInput('15.00', typed)).toBe('15.00');
  });
});

describe('amountInputCents', () => {
  it('reads what the inputs hold, a trailing separator included', () => {
    expect(amountInputCents('15')).toBe(1500);
    expect(amountInputCents('15,')).toBe(1500);
    expect(amountInputCents('5.5')).toBe(550);
    expect(amountInputCents('.5')).toBeNull();
  });

  it('gives null for no amount', () => {
    for (const text of ['', ' ', '.', ',']) expect(amountInputCents(text)).toBeNull();
  });
});

describe('centsOfEuros', () => {
  it('reads an answer\'s euros as exact cents', () => {
    for (const [euros, cents] of [[15, 1500], [20.5, 2050], [19.99, 1999], [0.29, 29], [1.1, 110], [0, 0], [1234567.89, 123456789]] as const) {
      expect(centsOfEuros(euros)).toBe(cents);
    }
  });
});
