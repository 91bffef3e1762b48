import { describe, expect, it } from 'vitest';
import { isEntryWindowOpen, isPerformedWithinEdition, isValidCalendarDate, localDate, parseInstant } from './dates';
import { edition2025 } from './edition/seed';

describe('localDate', () => {
  it.each([
    ['2025-04-01T00:00:00Z', 'Europe/Tallinn', '2025-04-01'],
    ['2025-03-31T21:00:00Z', 'Europe/Tallinn', '2025-04-01'], // UTC+3 (summer time since 30 March)
    ['2025-03-31T20:59:59Z', 'Europe/Tallinn', '2025-03-31'],
    ['2025-01-15T22:00:00Z', 'Europe/Tallinn', '2025-01-16'], // UTC+2 in winter
    ['2025-01-15T21:59:59Z', 'Europe/Tallinn', '2025-01-15'],
    ['2025-05-03T20:59:59Z', 'Europe/Tallinn', '2025-05-03'],
    ['2025-05-03T21:00:00Z', 'Europe/Tallinn', '2025-05-04'],
    ['2025-05-03T21:00:00Z', 'UTC', '2025-05-03'],
    ['2025-05-03T23:30:00+03:00', 'UTC', '2025-05-03'],
    ['2025-05-04T00:30:00.123456+03:00', 'Europe/Tallinn', '2025-05-04'],
  ])('%s in %s is %s', (instant, zone, date) => {
    expect(localDate(instant, zone)).toBe(date);
  });

  it.each(['2025-05-03T21:00:00', '2025-05-03', '2025-02-30T00:00:00Z', '2025-04-10T24:00:00Z', 'yesterday', ''])(
    'rejects %j (no offset, or not a real instant) with INVALID_REQUEST',
    (instant) => {
      expect(() => localDate(instant, 'Europe/Tallinn')).toThrow('INVALID_REQUEST');
    },
  );

  it('rejects an unknown time zone with INVALID_REQUEST', () => {
    expect(() => localDate('2025-04-01T00:00:00Z', 'Mars/Olympus')).toThrow('INVALID_REQUEST');
  });
});

describe('parseInstant', () => {
  it('reads offsets', () => {
    expect(parseInstant('2025-05-03T21:00:00Z')).toBe(parseInstant('2025-05-04T00:00:00+03:00'));
  });
});

describe('isValidCalendarDate', () => {
  it.each(['2025-04-01', '2025-04-30', '2024-02-29', '2000-02-29'])('accepts %s', (d) => {
    expect(isValidCalendarDate(d)).toBe(true);
  });
  it.each(['2025-04-31', '2025-02-29', '1900-02-29', '2025-13-01', '2025-00-10', '2025-4-1', '2025-04-01T00:00', 20250401])(
    'rejects %s',
    (d) => {
      expect(isValidCalendarDate(d)).toBe(false);
    },
  );
});

describe('isPerformedWithinEdition (2025-04-01..2025-04-30, spec §5)', () => {
  it.each([
    ['2025-04-01', true],
    ['2025-04-15', true],
    ['2025-04-30', true],
    ['2025-03-31', false],
    ['2025-05-01', false],
    ['2025-04-31', false],
    ['2024-04-15', false],
    ['15.04.2025', false],
    ['', false],
  ])('%s → %s', (date, expected) => {
    expect(isPerformedWithinEdition(date, edition2025)).toBe(expected);
  });
});

describe('isEntryWindowOpen (until midnight at the end of 3 May, Tallinn; spec §4)', () => {
  it.each([
    ['2025-04-10T09:00:00Z', true],
    ['2025-05-03T20:59:59Z', true],
    ['2025-05-03T20:59:59.999Z', true],
    ['2025-05-03T21:00:00Z', false],
    ['2025-05-04T10:00:00Z', false],
    ['2025-03-20T10:00:00Z', true], // before the event: entries still need a date in April
  ])('at %s → %s', (now, expected) => {
    expect(isEntryWindowOpen(now, edition2025)).toBe(expected);
  });
});
