import { edition2026Demo } from '@sinilill/domain/seed';
import { describe, expect, it } from 'vitest';
import type { EditionsAnswer, EditionView } from '../../../lib/edition';
import { joinableEdition } from './returning';

const current: EditionView = { year: 2026, status: 'opened', phase: 'registration', registrationOpen: true, today: '2026-03-10', edition: edition2026Demo };
const editions: EditionsAnswer = { now: '2026-03-10T10:00:00.000Z', current, next: null, archive: [] };
const person = { participantId: 7, teamId: 3, isAdmin: false };
const lastYear = '2025-03-20T09:00:00.000Z';

describe('joinableEdition', () => {
  it('offers the edition taking registrations to a person whose team is of an earlier edition', () => {
    expect(joinableEdition(editions, person, lastYear)).toBe(current);
  });

  it('judges the registration day on the edition’s calendar (Tallinn), not UTC', () => {
    // 22:30 UTC on 28 February is already 1 March in Tallinn: a team of this edition.
    expect(joinableEdition(editions, person, '2026-02-28T22:30:00.000Z')).toBeNull();
    expect(joinableEdition(editions, person, '2026-02-28T21:30:00.000Z')).toBe(current);
  });

  it('offers nothing to a person of the current edition', () => {
    expect(joinableEdition(editions, person, '2026-03-05T12:00:00.000Z')).toBeNull();
  });

  it('offers nothing while no edition takes registrations', () => {
    expect(joinableEdition({ ...editions, current: { ...current, phase: 'upcoming', registrationOpen: false } }, person, lastYear)).toBeNull();
    expect(joinableEdition({ ...editions, current: null }, person, lastYear)).toBeNull();
    expect(joinableEdition(undefined, person, lastYear)).toBeNull();
  });

  it('offers nothing without a participant or a known team, nor to an administrator', () => {
    expect(joinableEdition(editions, { ...person, participantId: null }, lastYear)).toBeNull();
    expect(joinableEdition(editions, { ...person, teamId: null }, lastYear)).toBeNull();
    expect(joinableEdition(editions, person, undefined)).toBeNull();
    expect(joinableEdition(editions, { ...person, isAdmin: true }, lastYear)).toBeNull();
    expect(joinableEdition(editions, person, 'yesterday')).toBeNull();
  });
});
