import { describe, expect, it } from 'vitest';
import { adminActor, deciderSpec, participantActor, systemActor, testContext } from '../testing';
import { editionDecider, type EditionCommand, type EditionState } from './decider';
import type { EditionEvent } from './events';
import { edition2025, edition2026Demo } from './seed';

const { given } = deciderSpec<EditionCommand, EditionEvent, EditionState>(editionDecider);
const NOW = '2026-01-10T10:00:00.000Z';
const admin = (now = NOW) => testContext({ now, actor: adminActor });
const planned: EditionEvent = { type: 'EditionPlanned', data: { year: 2026, edition: edition2026Demo, plannedAt: NOW } };
const opened: EditionEvent = { type: 'EditionOpened', data: { year: 2026, openedAt: NOW } };
const closed: EditionEvent = { type: 'EditionClosed', data: { year: 2026, closedAt: '2026-05-10T10:00:00.000Z' } };
const plan = (edition: unknown = edition2026Demo, others = [edition2025]): EditionCommand => ({ type: 'PlanEdition', data: { edition, others } });
const change = (edition: unknown, year = 2026): EditionCommand => ({ type: 'ChangeEdition', data: { year, edition, others: [edition2025] } });
const renamed = { ...edition2026Demo, name: { et: 'Sinilill 2026 uus', en: 'Sinilill 2026 new' } };

describe('PlanEdition', () => {
  it('records the whole edition as planned (a draft)', () => {
    given([]).when(plan(), admin()).then([planned]);
    given([]).when(plan(), admin()).thenState({ exists: true, edition: edition2026Demo, status: 'planned' });
  });
  it('is for administrators and the system only', () => {
    given([]).when(plan(), testContext({ now: NOW, actor: participantActor(1, 1) })).then('FORBIDDEN');
    given([]).when(plan(), testContext({ now: NOW, actor: systemActor })).then([planned]);
  });
  it("refuses invalid data with the validation's codes, an overlap, and a year planned already", () => {
    given([]).when(plan({ ...edition2026Demo, fees: { ...edition2026Demo.fees, adultCents: -1 } }), admin()).then('EDITION_FEE_INVALID');
    given([]).when(plan({ ...edition2026Demo, registrationOpens: '2025-05-01' }), admin()).then('EDITION_DATES_OVERLAP');
    given([planned]).when(plan(), admin()).then('EDITION_EXISTS');
  });
});

describe('ChangeEdition', () => {
  it('replaces the data of a planned or opened edition, and records nothing when nothing changed', () => {
    given([planned]).when(change(renamed), admin()).then([{ type: 'EditionChanged', data: { year: 2026, edition: renamed, changedAt: NOW } }]);
    given([planned, opened]).when(change(renamed), admin()).thenState({ exists: true, edition: renamed, status: 'opened' });
    given([planned]).when(change(edition2026Demo), admin()).then([]);
  });
  it('refuses an unknown edition, a closed one, another year in the data, and invalid data', () => {
    given([]).when(change(renamed), admin()).then('NOT_FOUND');
    given([planned, opened, closed]).when(change(renamed), admin()).then('EDITION_CLOSED');
    given([planned]).when(change({ ...edition2026Demo, year: 2027 }), admin()).then('EDITION_DATES_INVALID');
    given([planned]).when(change({ ...renamed, name: { et: 'x', en: '' } }), admin()).then('EDITION_INVALID');
    given([planned]).when(change(renamed), testContext({ now: NOW, actor: participantActor(1, 1) })).then('FORBIDDEN');
  });
});

describe('OpenEdition', () => {
  it('announces a planned edition once', () => {
    given([planned]).when({ type: 'OpenEdition', data: { year: 2026 } }, admin()).then([opened]);
    given([planned, opened]).when({ type: 'OpenEdition', data: { year: 2026 } }, admin()).then([]);
  });
  it('refuses an unknown or closed edition', () => {
    given([]).when({ type: 'OpenEdition', data: { year: 2026 } }, admin()).then('NOT_FOUND');
    given([planned, opened, closed]).when({ type: 'OpenEdition', data: { year: 2026 } }, admin()).then('EDITION_CLOSED');
  });
});

describe('CloseEdition', () => {
  const close: EditionCommand = { type: 'CloseEdition', data: { year: 2026 } };
  it('closes an opened edition from the day after its late-entry deadline (Tallinn), once', () => {
    // 3 May 23:59 in Tallinn: late entries are still accepted.
    given([planned, opened]).when(close, admin('2026-05-03T20:59:00.000Z')).then('EDITION_NOT_FINISHED');
    given([planned, opened]).when(close, admin('2026-05-03T21:00:00.000Z'))
      .then([{ type: 'EditionClosed', data: { year: 2026, closedAt: '2026-05-03T21:00:00.000Z' } }]);
    given([planned, opened, closed]).when(close, admin('2026-06-01T00:00:00.000Z')).then([]);
  });
  it('refuses a draft (never opened) and an unknown year', () => {
    given([planned]).when(close, admin('2026-06-01T00:00:00.000Z')).then('EDITION_NOT_OPENED');
    given([]).when(close, admin('2026-06-01T00:00:00.000Z')).then('NOT_FOUND');
  });
  it('leaves the edition closed whatever follows in the state', () => {
    const state = [planned, opened, closed].reduce(editionDecider.evolve, editionDecider.initialState());
    expect(state.status).toBe('closed');
  });
});
