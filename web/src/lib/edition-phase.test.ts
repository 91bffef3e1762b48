import { edition2025 } from '@sinilill/domain/seed';
import { describe, expect, it } from 'vitest';
import { editionMoments, editionPhase } from './edition-phase';

const phase = (now: string) => editionPhase(edition2025, now);

describe('editionPhase (2025: 1–30 April, late entries to 3 May, draw 5 May 17:00)', () => {
  it('is before until the last day of March', () => {
    expect(phase('2025-01-15')).toBe('before');
    expect(phase('2025-03-31')).toBe('before');
    expect(phase('2025-03-31T23:59:59')).toBe('before');
  });

  it('is during from 1 to 30 April', () => {
    expect(phase('2025-04-01')).toBe('during');
    expect(phase('2025-04-20')).toBe('during');
    expect(phase('2025-04-30T23:59')).toBe('during');
  });

  it('is the late-entry window from 1 May to the end of 3 May', () => {
    expect(phase('2025-05-01')).toBe('lateEntries');
    expect(phase('2025-05-02')).toBe('lateEntries');
    expect(phase('2025-05-03T23:59:59')).toBe('lateEntries');
  });

  it('is counting from 4 May until the draw; a bare draw day is before the draw', () => {
    expect(phase('2025-05-04')).toBe('counting');
    expect(phase('2025-05-04T00:00')).toBe('counting');
    expect(phase('2025-05-05')).toBe('counting');
    expect(phase('2025-05-05T16:59:59')).toBe('counting');
  });

  it('is after the draw from 5 May 17:00 on', () => {
    expect(phase('2025-05-05T17:00')).toBe('afterDraw');
    expect(phase('2025-05-05T17:00:01')).toBe('afterDraw');
    expect(phase('2025-05-06')).toBe('afterDraw');
    expect(phase('2026-02-01')).toBe('afterDraw');
  });

  it('is null without a readable local day or time', () => {
    for (const value of ['', '2025-04-31', '2025-4-20', '20.04.2025', '2025-04-20T25:00', '2025-04-20T12:00Z', '2025-04-20 12:00']) {
      expect(phase(value), value).toBeNull();
    }
  });

  it('follows the edition given, not a fixed calendar', () => {
    const edition = { startDate: '2026-04-01', endDate: '2026-04-30', lateEntriesUntil: '2026-05-04', prizeDraw: '2026-05-06T12:00' };
    expect(editionPhase(edition, '2026-05-04')).toBe('lateEntries');
    expect(editionPhase(edition, '2026-05-06T11:59')).toBe('counting');
    expect(editionPhase(edition, '2026-05-06T12:00')).toBe('afterDraw');
    expect(editionPhase(edition, '2025-05-06')).toBe('before');
  });
});

describe('editionMoments', () => {
  it('names the 2025 days and the draw time', () => {
    expect(editionMoments(edition2025)).toEqual({ startDay: 1, endDay: 30, lateEntriesDay: 3, drawDay: 5, drawTime: '17:00' });
  });
});
