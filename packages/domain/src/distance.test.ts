import { describe, expect, it } from 'vitest';
import {
  fromHundredths,
  hasAtMostTwoDecimals,
  roundedKm,
  sumHundredths,
  teamDistanceKm,
  toHundredths,
} from './distance';
import { DomainError } from './errors';

describe('hasAtMostTwoDecimals', () => {
  it.each([0, 1, 12.3, 12.34, 0.01, 999.99, 1000, -5.25, 1e6])('accepts %s', (km) => {
    expect(hasAtMostTwoDecimals(km)).toBe(true);
  });
  it.each([12.345, 0.001, 0.1 + 0.2, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '1', null, 1e300])(
    'rejects %s',
    (km) => {
      expect(hasAtMostTwoDecimals(km)).toBe(false);
    },
  );
});

describe('toHundredths / fromHundredths', () => {
  it.each([
    [0, 0],
    [0.01, 1],
    [0.07, 7],
    [1.1, 110],
    [12.34, 1234],
    [1892.99, 189299],
    [4.35, 435], // 4.35 * 100 = 434.99999999999994 in floating point
    [-2.5, -250],
  ])('%s km = %s hundredths and back', (km, hundredths) => {
    expect(toHundredths(km)).toBe(hundredths);
    expect(fromHundredths(hundredths)).toBe(km);
  });
  it('turns -0 into 0', () => {
    expect(Object.is(toHundredths(-0), 0)).toBe(true);
  });
  it.each([12.345, Number.NaN, Number.POSITIVE_INFINITY, 0.1 + 0.2])('toHundredths(%s) throws INVALID_DISTANCE', (km) => {
    expect(() => toHundredths(km)).toThrow(DomainError);
    expect(() => toHundredths(km)).toThrow('INVALID_DISTANCE');
  });
  it.each([1.5, Number.NaN, 2 ** 53])('fromHundredths(%s) throws INVALID_DISTANCE', (h) => {
    expect(() => fromHundredths(h)).toThrow('INVALID_DISTANCE');
  });
});

describe('roundedKm (half away from zero)', () => {
  it.each([
    [0, 0],
    [49, 0],
    [50, 1],
    [149, 1],
    [150, 2],
    [151, 2],
    [189249, 1892],
    [189250, 1893],
    [-49, 0],
    [-50, -1],
    [-150, -2],
  ])('%s hundredths → %s km', (h, km) => {
    expect(roundedKm(h)).toBe(km);
  });
  it('throws INVALID_DISTANCE for a non-integer', () => {
    expect(() => roundedKm(1.5)).toThrow('INVALID_DISTANCE');
  });
});

describe('exact sums', () => {
  it('adds without float drift', () => {
    const tenths = Array.from({ length: 10 }, () => 0.1);
    expect(tenths.reduce((a, b) => a + b, 0)).not.toBe(1); // the drift this module avoids
    expect(sumHundredths(tenths)).toBe(100);
    expect(sumHundredths([])).toBe(0);
  });
  it('gives the team distance as the rounded exact sum (spec §4)', () => {
    expect(teamDistanceKm([1892.25, 0.24])).toBe(1892);
    expect(teamDistanceKm([1892.25, 0.25])).toBe(1893);
    expect(teamDistanceKm([0.3, 0.1, 0.1])).toBe(1); // 0.5 rounds up
    expect(teamDistanceKm([])).toBe(0);
  });
  it('rejects an entry with more than two decimals', () => {
    expect(() => teamDistanceKm([1, 2.005])).toThrow('INVALID_DISTANCE');
  });
});
