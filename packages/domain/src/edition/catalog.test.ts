import { describe, expect, it } from 'vitest';
import { EditionCatalog, isRegistrationOpen, lifePhase, type EditionRecord } from './catalog';
import type { EditionEvent } from './events';
import { edition2025, edition2026Demo } from './seed';

const record = (status: EditionRecord['status'], edition = edition2026Demo): EditionRecord => ({ edition, status });
const planned = (edition = edition2026Demo): EditionEvent => ({ type: 'EditionPlanned', data: { year: edition.year, edition, plannedAt: '2025-01-01T00:00:00Z' } });
const opened = (year: number): EditionEvent => ({ type: 'EditionOpened', data: { year, openedAt: '2025-01-02T00:00:00Z' } });
const closed = (year: number): EditionEvent => ({ type: 'EditionClosed', data: { year, closedAt: '2025-06-01T00:00:00Z' } });
/** Noon in Tallinn (UTC+2 in winter, +3 in summer: 09:00Z is noon in summer, 11:00 in winter). */
const on = (day: string) => `${day}T09:00:00.000Z`;

describe('lifePhase', () => {
  it('follows the opened edition through its days in its own time zone', () => {
    const r = record('opened');
    expect(lifePhase(r, on('2026-02-28'))).toBe('upcoming');
    expect(lifePhase(r, on('2026-03-01'))).toBe('registration');
    expect(lifePhase(r, on('2026-04-01'))).toBe('running');
    expect(lifePhase(r, on('2026-04-30'))).toBe('running');
    expect(lifePhase(r, on('2026-05-01'))).toBe('lateEntries');
    expect(lifePhase(r, '2026-05-03T20:59:59.000Z')).toBe('lateEntries'); // 23:59:59 on 3 May in Tallinn
    expect(lifePhase(r, '2026-05-03T21:00:00.000Z')).toBe('final');
  });
  it('is planned for a draft and closed for a closed edition, whatever the day', () => {
    expect(lifePhase(record('planned'), on('2026-04-10'))).toBe('planned');
    expect(lifePhase(record('closed'), on('2026-04-10'))).toBe('closed');
  });
  it('opens registration from the registration day to the late-entry deadline', () => {
    const r = record('opened');
    expect([on('2026-02-28'), on('2026-03-01'), on('2026-04-15'), on('2026-05-03'), on('2026-05-04')].map((at) => isRegistrationOpen(r, at)))
      .toEqual([false, true, true, true, false]);
    expect(isRegistrationOpen(record('planned'), on('2026-04-15'))).toBe(false);
  });
});

describe('EditionCatalog', () => {
  it('counts a log without edition events as the edition before editions, opened', () => {
    const catalog = EditionCatalog.fromEvents([{ type: 'TeamRegistered', data: {} }], edition2025);
    expect(catalog.list()).toEqual([{ edition: edition2025, status: 'opened' }]);
    expect(EditionCatalog.fromEvents([]).list()).toEqual([]);
  });

  it('folds each year from its events, oldest first; the seed edition no longer stands in once editions are events', () => {
    const catalog = EditionCatalog.fromEvents([planned(), planned(edition2025), opened(2025), opened(2026), closed(2025)], edition2025);
    expect(catalog.list().map((r) => [r.edition.year, r.status])).toEqual([[2025, 'closed'], [2026, 'opened']]);
    expect(EditionCatalog.fromEvents([planned()], edition2025).list().map((r) => r.edition.year)).toEqual([2026]);
    expect(catalog.get(2024)).toBeUndefined();
  });

  it('picks as current the latest announced edition whose registration day has come', () => {
    const catalog = EditionCatalog.fromEvents([planned(edition2025), opened(2025), planned(), opened(2026)]);
    expect(catalog.current(on('2025-01-31'))).toBeNull(); // before 2025's registration (1 February)
    expect(catalog.current(on('2025-02-01'))?.edition.year).toBe(2025);
    expect(catalog.current(on('2025-04-10'))?.edition.year).toBe(2025);
    expect(catalog.current(on('2025-12-24'))?.edition.year).toBe(2025); // between editions: the last one
    expect(catalog.current(on('2026-03-01'))?.edition.year).toBe(2026);
    expect(catalog.next(on('2025-12-24'))?.edition.year).toBe(2026);
    expect(catalog.next(on('2026-03-01'))).toBeNull();
  });

  it('never makes a draft current or next; latest falls back to it only when nothing is announced', () => {
    const catalog = EditionCatalog.fromEvents([planned(edition2025), opened(2025), planned()]);
    expect(catalog.current(on('2026-04-10'))?.edition.year).toBe(2025);
    expect(catalog.next(on('2025-12-24'))).toBeNull();
    expect(catalog.latest(on('2024-01-01'))?.edition.year).toBe(2025);
    expect(EditionCatalog.fromEvents([planned()]).latest(on('2026-04-10'))?.edition.year).toBe(2026);
    expect(EditionCatalog.fromEvents([]).latest(on('2026-04-10'))).toBeNull();
  });

  it('keeps closed editions in the archive, newest first, and a closed edition may stay current until the next opens', () => {
    const catalog = EditionCatalog.fromEvents([planned(edition2025), opened(2025), planned(), opened(2026), closed(2025), closed(2026)]);
    expect(catalog.archived().map((r) => r.edition.year)).toEqual([2026, 2025]);
    expect(catalog.current(on('2026-06-01'))).toMatchObject({ edition: { year: 2026 }, status: 'closed' });
  });
});
