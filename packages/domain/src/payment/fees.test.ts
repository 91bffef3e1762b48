import { describe, expect, it } from 'vitest';
import { edition2025 } from '../edition/seed';
import type { Edition } from '../edition/types';
import { feeFor, isChild, minimumAmountCents } from './fees';

describe('the participation fee (spec §9: 15 EUR born 2010 or earlier, 5 EUR born 2011 or later)', () => {
  it.each([
    [1901, 1500, false],
    [1980, 1500, false],
    [2010, 1500, false],
    [2011, 500, true],
    [2012, 500, true],
    [2023, 500, true],
  ])('born %i pays %i cents (child: %s)', (birthYear, cents, child) => {
    expect(feeFor(birthYear, edition2025)).toBe(cents);
    expect(isChild(birthYear, edition2025)).toBe(child);
  });

  it('charges the adult fee when the birth year is unknown (erased)', () => {
    expect(isChild(null, edition2025)).toBe(false);
    expect(feeFor(null, edition2025)).toBe(edition2025.fees.adultCents);
  });

  it('takes its figures from the edition, not from code', () => {
    const other: Edition = { ...edition2025, fees: { ...edition2025.fees, adultCents: 2000, childCents: 700, childFromBirthYear: 2015 } };
    expect(feeFor(2014, other)).toBe(2000);
    expect(feeFor(2015, other)).toBe(700);
  });
});

describe('minimumAmountCents', () => {
  it('is the fee for a fee order and donationMinCents (1 EUR) for a donation', () => {
    expect(minimumAmountCents('fee', 500, edition2025)).toBe(500);
    expect(minimumAmountCents('donation', 500, edition2025)).toBe(100);
  });
});
