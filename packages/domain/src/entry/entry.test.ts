import { describe, it } from 'vitest';
import type { EntryAdded, EntryDeleted, EntryEdited } from '../events';
import { ACTIVITY_TYPES } from '../events';
import { adminActor, deciderSpec, participantActor, systemActor, testContext, visitorActor } from '../testing';
import type { AddEntry, DeleteEntry, EditEntry } from './decider';
import { entryDecider } from './decider';

const { given } = deciderSpec(entryDecider);

const now = '2025-04-10T09:00:00.000Z';
const later = '2025-04-12T18:30:00.000Z';
/** Participant 1 of team 1 (the default test actor). */
const member = testContext({ now });
const memberLater = testContext({ now: later });
const admin = testContext({ now: later, actor: adminActor });
const system = testContext({ now: later, actor: systemActor });
const outsider = testContext({ now: later, actor: participantActor(9, 2) });

const add = (overrides: Partial<AddEntry['data']> = {}): AddEntry => ({
  type: 'AddEntry',
  data: {
    entryId: 100,
    teamId: 1,
    participantId: 1,
    participantTeamId: 1,
    distance: 5.25,
    entryType: 'WALK',
    performedAt: '2025-04-09',
    ...overrides,
  },
});
const added = (overrides: Partial<EntryAdded['data']> = {}): EntryAdded => ({
  type: 'EntryAdded',
  data: {
    entryId: 100,
    teamId: 1,
    participantId: 1,
    distance: 5.25,
    entryType: 'WALK',
    performedAt: '2025-04-09',
    createdAt: now,
    source: { kind: 'manual' },
    ...overrides,
  },
});
const edit = (overrides: Partial<EditEntry['data']> = {}): EditEntry => ({
  type: 'EditEntry',
  data: {
    entryId: 100,
    participantId: 2,
    participantTeamId: 1,
    distance: 6,
    entryType: 'OUTDOOR_RUN',
    performedAt: '2025-04-11',
    ...overrides,
  },
});
const edited = (overrides: Partial<EntryEdited['data']> = {}): EntryEdited => ({
  type: 'EntryEdited',
  data: {
    entryId: 100,
    teamId: 1,
    participantId: 2,
    distance: 6,
    entryType: 'OUTDOOR_RUN',
    performedAt: '2025-04-11',
    editedAt: later,
    ...overrides,
  },
});
const del = (entryId = 100): DeleteEntry => ({ type: 'DeleteEntry', data: { entryId } });
const deleted = (overrides: Partial<EntryDeleted['data']> = {}): EntryDeleted => ({
  type: 'EntryDeleted',
  data: { entryId: 100, teamId: 1, participantId: 1, deletedAt: later, ...overrides },
});

describe('AddEntry', () => {
  it('adds an entry at ctx.now', () => {
    given([]).when(add(), member).then([added()]);
  });

  it("logs a teammate's distance (spec §2: member chosen from the team)", () => {
    given([]).when(add({ participantId: 2 }), member).then([added({ participantId: 2 })]);
  });

  it('lets an admin or the system add to any team', () => {
    given([]).when(add({ teamId: 5, participantTeamId: 5 }), admin).then([added({ teamId: 5, createdAt: later })]);
    given([]).when(add({ teamId: 5, participantTeamId: 5 }), system).then([added({ teamId: 5, createdAt: later })]);
  });

  describe('source', () => {
    const sha256 = 'ab'.repeat(32);
    it('records a file source as given', () => {
      given([]).when(add({ source: { kind: 'file', format: 'fit', sha256 } }), member).then([added({ source: { kind: 'file', format: 'fit', sha256 } })]);
    });
    it('records manual when none is given', () => {
      given([]).when(add({ source: { kind: 'manual' } }), member).then([added()]);
    });
    it.each([
      { kind: 'file', format: 'kml', sha256 },
      { kind: 'file', format: 'gpx', sha256: 'AB'.repeat(32) },
      { kind: 'file', format: 'gpx', sha256: 'ab' },
      { kind: 'upload' },
    ])('rejects %j with INVALID_REQUEST', (source) => {
      given([]).when(add({ source: source as never }), member).then('INVALID_REQUEST');
    });
  });

  describe('distance (km, two decimals, 0.01..1000; spec §5)', () => {
    // By an admin: a participant's 999.99 km is accepted too, but also flagged (moderation.test.ts).
    it.each([0.01, 1, 12.34, 999.99, 1000])('accepts %s', (distance) => {
      given([]).when(add({ distance }), admin).then([added({ distance, createdAt: later })]);
    });
    it.each([0, -1, 0.001, 12.345, 1000.01, Number.NaN, Number.POSITIVE_INFINITY, '5' as unknown as number])(
      'rejects %s with INVALID_DISTANCE',
      (distance) => {
        given([]).when(add({ distance }), member).then('INVALID_DISTANCE');
      },
    );
  });

  describe('entry type (preset key or free text, 1..64; spec §5)', () => {
    it.each([...ACTIVITY_TYPES])('accepts the preset %s', (entryType) => {
      given([]).when(add({ entryType }), member).then([added({ entryType })]);
    });
    it('accepts free text typed under Other, trimmed', () => {
      given([]).when(add({ entryType: '  Kepikõnd  ' }), member).then([added({ entryType: 'Kepikõnd' })]);
      given([]).when(add({ entryType: 'x'.repeat(64) }), member).then([added({ entryType: 'x'.repeat(64) })]);
    });
    it.each(['', '   ', null as unknown as string])('rejects %j with INVALID_ENTRY_TYPE', (entryType) => {
      given([]).when(add({ entryType }), member).then('INVALID_ENTRY_TYPE');
    });
    it('rejects 65 characters with VALUE_TOO_LONG', () => {
      given([]).when(add({ entryType: 'x'.repeat(65) }), member).then('VALUE_TOO_LONG');
    });
  });

  describe('performed at (a real date in April 2025; spec §5)', () => {
    it.each(['2025-04-01', '2025-04-30'])('accepts %s', (performedAt) => {
      given([]).when(add({ performedAt }), member).then([added({ performedAt })]);
    });
    it.each(['2025-03-31', '2025-05-01', '2025-04-31', '2024-04-10', '10.04.2025', '2025-04-10T10:00:00Z', ''])(
      'rejects %j with INVALID_PERFORMED_AT',
      (performedAt) => {
        given([]).when(add({ performedAt }), member).then('INVALID_PERFORMED_AT');
      },
    );
  });

  describe('membership', () => {
    it('rejects a participant of another team with PARTICIPANT_NOT_IN_TEAM', () => {
      given([]).when(add({ participantId: 9, participantTeamId: 2 }), member).then('PARTICIPANT_NOT_IN_TEAM');
      given([]).when(add({ teamId: 5, participantTeamId: 6 }), admin).then('PARTICIPANT_NOT_IN_TEAM');
    });
    it('answers NOT_FOUND for an unknown participant', () => {
      given([]).when(add({ participantTeamId: null }), member).then('NOT_FOUND');
    });
  });

  describe('authorization (spec §6)', () => {
    it("forbids adding to another team's entries (FORBIDDEN)", () => {
      given([]).when(add(), outsider).then('FORBIDDEN');
    });
    it('forbids a visitor or a user without a team (FORBIDDEN)', () => {
      given([]).when(add(), testContext({ actor: visitorActor })).then('FORBIDDEN');
      given([]).when(add(), testContext({ actor: participantActor(1, null) })).then('FORBIDDEN');
    });
  });

  describe('switch and deadline (spec §4)', () => {
    it('refuses when entry insertion is off (ENTRY_INSERTION_DISABLED)', () => {
      given([]).when(add(), testContext({ entryInsertionEnabled: false })).then('ENTRY_INSERTION_DISABLED');
    });
    it('lets an admin or the system add while insertion is off', () => {
      given([]).when(add(), { ...admin, entryInsertionEnabled: false }).then([added({ createdAt: later })]);
      given([]).when(add(), { ...system, entryInsertionEnabled: false }).then([added({ createdAt: later })]);
    });
    it('accepts late entries until midnight on 3 May, Tallinn time', () => {
      const lastSecond = '2025-05-03T20:59:59.000Z';
      given([]).when(add(), testContext({ now: lastSecond })).then([added({ createdAt: lastSecond })]);
    });
    it('refuses from midnight on (ENTRY_DEADLINE_PASSED)', () => {
      given([]).when(add(), testContext({ now: '2025-05-03T21:00:00.000Z' })).then('ENTRY_DEADLINE_PASSED');
    });
    it('lets an admin or the system add after the deadline', () => {
      const after = '2025-05-10T08:00:00.000Z';
      given([]).when(add(), testContext({ now: after, actor: adminActor })).then([added({ createdAt: after })]);
      given([]).when(add(), testContext({ now: after, actor: systemActor })).then([added({ createdAt: after })]);
    });
  });

  it('rejects a repeated add with ALREADY_EXISTS, also for a deleted entry id', () => {
    given([added()]).when(add(), member).then('ALREADY_EXISTS');
    given([added(), deleted()]).when(add(), member).then('ALREADY_EXISTS');
  });

  it.each([
    ['entryId', { entryId: 0 }],
    ['teamId', { teamId: -1 }],
    ['participantId', { participantId: 1.5 }],
  ])('rejects a bad %s with INVALID_REQUEST', (_field, overrides) => {
    given([]).when(add(overrides), member).then('INVALID_REQUEST');
  });

  it('folds into an active entry', () => {
    given([]).when(add(), member).thenState({
      status: 'active',
      entryId: 100,
      teamId: 1,
      participantId: 1,
      distance: 5.25,
      entryType: 'WALK',
      performedAt: '2025-04-09',
      createdAt: now,
      review: 'none',
      reasons: [],
    });
  });
});

describe('EditEntry', () => {
  it('edits an entry, carrying its team and the (new) participant', () => {
    given([added()]).when(edit(), memberLater).then([edited()]);
  });

  it('allows a distance of 0 (spec §5: edit min 0)', () => {
    given([added()]).when(edit({ distance: 0 }), memberLater).then([edited({ distance: 0 })]);
  });

  it.each([-0.01, 0.005, 1000.01, Number.NaN])('rejects the distance %s with INVALID_DISTANCE', (distance) => {
    given([added()]).when(edit({ distance }), memberLater).then('INVALID_DISTANCE');
  });

  it('checks type and date like an add', () => {
    given([added()]).when(edit({ entryType: ' ' }), memberLater).then('INVALID_ENTRY_TYPE');
    given([added()]).when(edit({ entryType: 'x'.repeat(65) }), memberLater).then('VALUE_TOO_LONG');
    given([added()]).when(edit({ performedAt: '2025-05-01' }), memberLater).then('INVALID_PERFORMED_AT');
  });

  it('keeps the entry in its team: the participant must belong to it', () => {
    given([added()]).when(edit({ participantTeamId: 2 }), memberLater).then('PARTICIPANT_NOT_IN_TEAM');
    given([added()]).when(edit({ participantTeamId: null }), memberLater).then('NOT_FOUND');
  });

  it('answers NOT_FOUND for a missing or deleted entry', () => {
    given([]).when(edit(), memberLater).then('NOT_FOUND');
    given([added(), deleted()]).when(edit(), memberLater).then('NOT_FOUND');
  });

  it("forbids editing another team's entry (FORBIDDEN)", () => {
    given([added()]).when(edit({ participantTeamId: 2 }), outsider).then('FORBIDDEN');
  });

  it('refuses when insertion is off or the deadline passed, except for admin and system', () => {
    given([added()]).when(edit(), { ...memberLater, entryInsertionEnabled: false }).then('ENTRY_INSERTION_DISABLED');
    given([added()]).when(edit(), testContext({ now: '2025-05-04T06:00:00.000Z' })).then('ENTRY_DEADLINE_PASSED');
    given([added()]).when(edit(), { ...admin, entryInsertionEnabled: false }).then([edited()]);
    given([added()]).when(edit(), { ...system, now: '2025-05-04T06:00:00.000Z' }).then([edited({ editedAt: '2025-05-04T06:00:00.000Z' })]);
  });

  it('rejects bad ids and a command for another entry with INVALID_REQUEST', () => {
    given([added()]).when(edit({ participantId: 0 }), memberLater).then('INVALID_REQUEST');
    given([added()]).when(edit({ entryId: 101 }), memberLater).then('INVALID_REQUEST');
  });

  it('folds the new values into the state', () => {
    given([added()]).when(edit(), memberLater).thenState({
      status: 'active',
      entryId: 100,
      teamId: 1,
      participantId: 2,
      distance: 6,
      entryType: 'OUTDOOR_RUN',
      performedAt: '2025-04-11',
      createdAt: now,
      review: 'none',
      reasons: [],
    });
  });
});

describe('DeleteEntry', () => {
  it('deletes an entry, carrying its team and participant', () => {
    given([added()]).when(del(), memberLater).then([deleted()]);
    given([added(), edited()]).when(del(), memberLater).then([deleted({ participantId: 2 })]);
  });

  it('answers NOT_FOUND for a missing or already deleted entry', () => {
    given([]).when(del(), memberLater).then('NOT_FOUND');
    given([added(), deleted()]).when(del(), memberLater).then('NOT_FOUND');
  });

  it("forbids deleting another team's entry (FORBIDDEN); admin and system may", () => {
    given([added()]).when(del(), outsider).then('FORBIDDEN');
    given([added()]).when(del(), admin).then([deleted()]);
    given([added()]).when(del(), system).then([deleted()]);
  });

  it('refuses when insertion is off or the deadline passed, except for admin', () => {
    given([added()]).when(del(), { ...memberLater, entryInsertionEnabled: false }).then('ENTRY_INSERTION_DISABLED');
    given([added()]).when(del(), testContext({ now: '2025-05-03T21:00:00.000Z' })).then('ENTRY_DEADLINE_PASSED');
    given([added()]).when(del(), { ...admin, now: '2025-05-03T21:00:00.000Z', entryInsertionEnabled: false }).then([
      deleted({ deletedAt: '2025-05-03T21:00:00.000Z' }),
    ]);
  });

  it('rejects a bad id with INVALID_REQUEST', () => {
    given([added()]).when(del(0), memberLater).then('INVALID_REQUEST');
  });

  it('folds into a deleted entry that keeps its last values', () => {
    given([added()]).when(del(), memberLater).thenState({
      status: 'deleted',
      entryId: 100,
      teamId: 1,
      participantId: 1,
      distance: 5.25,
      entryType: 'WALK',
      performedAt: '2025-04-09',
      createdAt: now,
      review: 'none',
      reasons: [],
    });
  });
});
