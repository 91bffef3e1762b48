import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay } from './format-date';

describe('formatDay', () => {
  it('writes Estonian days as DD.MM.YYYY', () => {
    expect(formatDay('2025-04-30', 'et')).toBe('30.04.2025');
    expect(formatDay('2025-04-01', 'et')).toBe('01.04.2025');
  });

  it('writes English days with the month name', () => {
    expect(formatDay('2025-04-30', 'en')).toBe('30 April 2025');
  });

  it('returns anything else unchanged', () => {
    expect(formatDay('', 'et')).toBe('');
    expect(formatDay('30.04.2025', 'en')).toBe('30.04.2025');
  });
});

describe('formatDate (DD-MMM-YYYY)', () => {
  it('writes the month abbreviation of the language', () => {
    expect(formatDate('2025-04-05', 'en')).toBe('05-Apr-2025');
    expect(formatDate('2025-04-05', 'et')).toBe('05-apr-2025');
    expect(formatDate('2025-03-31', 'et')).toBe('31-märts-2025');
  });

  it('returns anything else unchanged', () => {
    expect(formatDate('2025-13-01', 'en')).toBe('2025-13-01');
    expect(formatDate('', 'et')).toBe('');
  });
});

describe('formatDateTime (DD-MMM-YYYY HH:mm, Europe/Tallinn)', () => {
  it('shows UTC instants in Tallinn time (UTC+3 in summer, UTC+2 in winter)', () => {
    expect(formatDateTime('2025-04-12T11:03:00Z', 'en')).toBe('12-Apr-2025 14:03');
    expect(formatDateTime('2025-04-30T21:30:00.000Z', 'et')).toBe('01-mai-2025 00:30');
    expect(formatDateTime('2025-01-15T22:05:00Z', 'en')).toBe('16-Jan-2025 00:05');
  });

  it('takes another zone, and returns unreadable values unchanged', () => {
    expect(formatDateTime('2025-04-12T11:03:00Z', 'en', 'UTC')).toBe('12-Apr-2025 11:03');
    expect(formatDateTime('yesterday', 'en')).toBe('yesterday');
  });
});
