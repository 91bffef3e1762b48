import { describe, expect, it } from 'vitest';
import { formatAuditTime, isoToLocalInput, localInputToIso } from './tallinn-time';

describe('localInputToIso (Europe/Tallinn wall clock → UTC instant)', () => {
  it('reads summer times as UTC+3 and winter times as UTC+2', () => {
    expect(localInputToIso('2025-04-12T14:03')).toBe('2025-04-12T11:03:00.000Z');
    expect(localInputToIso('2025-01-15T12:00')).toBe('2025-01-15T10:00:00.000Z');
    expect(localInputToIso('2025-05-03T23:59:59')).toBe('2025-05-03T20:59:59.000Z');
  });

  it('crosses midnight into the previous UTC day', () => {
    expect(localInputToIso('2025-04-01T00:00')).toBe('2025-03-31T21:00:00.000Z');
  });

  it('moves a time skipped in spring an hour later, and reads a repeated autumn time as the later one', () => {
    // 30 March 2025: 03:00 EET becomes 04:00 EEST.
    expect(localInputToIso('2025-03-30T03:30')).toBe('2025-03-30T01:30:00.000Z');
    expect(localInputToIso('2025-03-30T02:59')).toBe('2025-03-30T00:59:00.000Z');
    expect(localInputToIso('2025-03-30T04:00')).toBe('2025-03-30T01:00:00.000Z');
    // 26 October 2025: 04:00 EEST becomes 03:00 EET; 03:30 happens twice.
    expect(localInputToIso('2025-10-26T03:30')).toBe('2025-10-26T01:30:00.000Z');
  });

  it('takes another zone when asked', () => {
    expect(localInputToIso('2025-04-12T14:03', 'UTC')).toBe('2025-04-12T14:03:00.000Z');
  });

  it('refuses empty, malformed and impossible values', () => {
    for (const value of ['', 'yesterday', '2025-04-12', '2025-02-30T10:00', '2025-04-12T24:00', '2025-04-12T10:60', '12.04.2025 14:03']) {
      expect(localInputToIso(value), value).toBeNull();
    }
  });
});

describe('isoToLocalInput', () => {
  it('writes an instant as the Tallinn wall clock to the minute', () => {
    expect(isoToLocalInput('2025-04-12T11:03:30Z')).toBe('2025-04-12T14:03');
    expect(isoToLocalInput('2025-01-15T10:00:00.000Z')).toBe('2025-01-15T12:00');
    expect(isoToLocalInput('2025-03-31T21:00:00Z')).toBe('2025-04-01T00:00');
  });

  it('round-trips with localInputToIso', () => {
    expect(localInputToIso(isoToLocalInput('2025-04-20T06:45:00.000Z')!)).toBe('2025-04-20T06:45:00.000Z');
  });

  it('answers null for an unreadable instant', () => {
    expect(isoToLocalInput('not a time')).toBeNull();
  });
});

describe('formatAuditTime', () => {
  it('writes DD-MMM-YYYY HH:mm:ss in Tallinn', () => {
    expect(formatAuditTime('2025-04-12T11:03:07.123Z', 'et')).toBe('12-apr-2025 14:03:07');
    expect(formatAuditTime('2025-01-15T10:00:00Z', 'en')).toBe('15-Jan-2025 12:00:00');
  });

  it('returns an unreadable value unchanged', () => {
    expect(formatAuditTime('soon', 'et')).toBe('soon');
  });
});
