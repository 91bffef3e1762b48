import { describe, expect, test } from 'vitest';
import type { EditionEvent } from '@sinilill/domain';
import { edition2025, edition2026Demo } from '@sinilill/domain/seed';
import { ProjectionEditions, UnknownEditionError } from '../projection-editions';
import { evolveEditions, type EditionRow } from './projection';

const fold = (events: EditionEvent[], rows = new Map<number, EditionRow>()) => {
  for (const event of events) evolveEditions(rows, event);
  return rows;
};

describe('editions fold', () => {
  test('given a planned, changed, opened and closed edition, then its row says so with its instants', () => {
    const changed = { ...edition2026Demo, name: { et: 'Sinilill 2026!', en: 'Sinilill 2026!' } };
    const rows = fold([
      { type: 'EditionPlanned', data: { year: 2026, edition: edition2026Demo, plannedAt: '2025-06-01T00:00:00.000Z' } },
      { type: 'EditionChanged', data: { year: 2026, edition: changed, changedAt: '2025-06-02T00:00:00.000Z' } },
      { type: 'EditionOpened', data: { year: 2026, openedAt: '2025-06-03T00:00:00.000Z' } },
      { type: 'EditionClosed', data: { year: 2026, closedAt: '2026-06-01T00:00:00.000Z' } },
    ]);
    expect(rows.get(2026)).toEqual({
      year: 2026, status: 'closed', data: changed, plannedAt: '2025-06-01T00:00:00.000Z',
      openedAt: '2025-06-03T00:00:00.000Z', closedAt: '2026-06-01T00:00:00.000Z',
    });
  });

  test('an edition event for a year never planned throws (its event is parked)', () => {
    expect(() => fold([{ type: 'EditionOpened', data: { year: 2030, openedAt: '2029-01-01T00:00:00.000Z' } }])).toThrow(/never planned/);
  });
});

describe("a projection's own editions", () => {
  test('without edition events only the year of the log from before editions is known, as the seed\'s 2025', () => {
    const editions = ProjectionEditions.empty('team-stats');
    expect(editions.get(2025)).toBe(edition2025);
    expect(() => editions.get(2026)).toThrow(UnknownEditionError);
  });

  test('an EditionPlanned or EditionChanged gives its year its data; other events are not its', () => {
    const editions = ProjectionEditions.empty('team-stats');
    expect(editions.fold({ type: 'TeamRegistered', data: { teamId: 1 } })).toBeNull();
    expect(editions.fold({ type: 'EditionPlanned', data: { year: 2026, edition: edition2026Demo, plannedAt: '' } })).toBe(2026);
    expect(editions.get(2026)).toBe(edition2026Demo);
    const longer = { ...edition2025, route: { ...edition2025.route, lapLength: 2000 } };
    editions.fold({ type: 'EditionChanged', data: { year: 2025, edition: longer, changedAt: '' } });
    expect(editions.get(2025).route.lapLength).toBe(2000);
    // A copy folds on its own (a rebuild's batch that fails leaves the kept editions as they were).
    const copy = editions.copy();
    copy.fold({ type: 'EditionChanged', data: { year: 2026, edition: longer, changedAt: '' } });
    expect(editions.get(2026)).toBe(edition2026Demo);
  });
});
