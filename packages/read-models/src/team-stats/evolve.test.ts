import { describe, expect, test } from 'vitest';
import type { RecordedEvent } from '@sinilill/event-store';
import { emptyWorkingSet, evolveTeamStats } from './evolve';

let position = 0;
const recorded = (type: string, data: object): RecordedEvent => {
  position += 1;
  return {
    id: `e${position}`, type, schemaVersion: 1, data, stream: 'team-7', revision: 0, globalPosition: position,
    recordedAt: new Date(0), metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: 'c', causationId: null },
  };
};
const fold = (events: readonly RecordedEvent[]) => {
  const set = emptyWorkingSet();
  for (const event of events) evolveTeamStats(set, event);
  return set;
};

const registered = recorded('TeamRegistered', {
  teamId: 7, teamName: 'Tartu Tammed', description: 'Algne', joinCode: 'AAAA1111', icon: '/api/images/a.webp', registeredAt: '2025-03-01T10:00:00.000Z',
});
const changed = (data: object) => recorded('TeamPublicAttributesChanged', { teamId: 7, changedAt: '2025-04-02T08:00:00.000Z', ...data });

describe('team-stats: the public card', () => {
  test('given a registered team, when only the description changes, the icon stays', () => {
    const team = fold([registered, changed({ description: 'Uus kirjeldus' })]).teams.get(7);
    expect(team).toMatchObject({ teamName: 'Tartu Tammed', description: 'Uus kirjeldus', icon: '/api/images/a.webp' });
  });

  test('when only the icon changes, the description stays', () => {
    const team = fold([registered, changed({ icon: '/api/images/b.webp' })]).teams.get(7);
    expect(team).toMatchObject({ description: 'Algne', icon: '/api/images/b.webp' });
  });

  test('icon null removes the icon; both fields in one event both apply; the last change wins', () => {
    const team = fold([registered, changed({ icon: null }), changed({ icon: '/api/images/c.webp', description: '' }), changed({ description: 'Lõpp' })]).teams.get(7);
    expect(team).toMatchObject({ description: 'Lõpp', icon: '/api/images/c.webp' });
    expect(fold([registered, changed({ icon: null })]).teams.get(7)?.icon).toBeNull();
  });

  test('a change marks the team changed and leaves its km and members alone', () => {
    const set = fold([
      registered,
      recorded('EntryAdded', { entryId: 1, teamId: 7, participantId: 11, distance: 12.34, entryType: 'WALK', performedAt: '2025-04-02', createdAt: '2025-04-02T08:00:00.000Z' }),
      changed({ description: 'x' }),
    ]);
    expect(set.changedTeams.has(7)).toBe(true);
    expect(set.teams.get(7)).toMatchObject({ distanceHundredths: 1234, participants: 0 });
  });
});

describe('team-stats: renames and deletions', () => {
  const member = (participantId: number, teamId = 7) => recorded('ParticipantRegistered', {
    participantId, teamId, fullName: null, email: null, birthYear: null, gender: 'FEMALE', isCaptain: false, newsletter: false, registeredAt: '2025-03-01T10:00:00.000Z',
  });
  const entry = (entryId: number, participantId: number, distance: number, teamId = 7) => recorded('EntryAdded', {
    entryId, teamId, participantId, distance, entryType: 'WALK', performedAt: '2025-04-02', createdAt: '2025-04-02T08:00:00.000Z',
  });

  test('given a team, when it is renamed, then only its name changes', () => {
    const set = fold([registered, member(11), entry(1, 11, 5), recorded('TeamRenamed', { teamId: 7, teamName: 'Uus Nimi', renamedAt: '2025-04-03T08:00:00.000Z' })]);
    expect(set.teams.get(7)).toMatchObject({ teamName: 'Uus Nimi', description: 'Algne', participants: 1, distanceHundredths: 500 });
  });

  test('given a member with km, when the user is deleted, then the team keeps one member less and loses their km', () => {
    const set = fold([
      registered, member(11), member(12), entry(1, 11, 5), entry(2, 12, 2.5),
      recorded('UserDeleted', { userId: 'u-12', deletedAt: '2025-04-05T08:00:00.000Z' }),
      recorded('ParticipantDeleted', { participantId: 12, teamId: 7, deletedAt: '2025-04-05T08:00:00.000Z' }),
      recorded('EntryDeleted', { entryId: 2, teamId: 7, participantId: 12, deletedAt: '2025-04-05T08:00:00.000Z' }),
    ]);
    expect(set.teams.get(7)).toMatchObject({ participants: 1, distanceHundredths: 500 });
    expect(set.ledger.get(2)).toBeNull();
    expect(set.dailyDelta.get('7|2025-04-02')).toBe(500);
  });

  test('given a team with members and km, when it is deleted, then nothing of it is written back and its entries leave the ledger', () => {
    const set = fold([
      registered, member(11), entry(1, 11, 5),
      recorded('TeamDeleted', { teamId: 7, deletedAt: '2025-04-05T08:00:00.000Z' }),
      recorded('UserDeleted', { userId: 'u-11', deletedAt: '2025-04-05T08:00:00.000Z' }),
      recorded('ParticipantDeleted', { participantId: 11, teamId: 7, deletedAt: '2025-04-05T08:00:00.000Z' }),
      recorded('EntryDeleted', { entryId: 1, teamId: 7, participantId: 11, deletedAt: '2025-04-05T08:00:00.000Z' }),
    ]);
    expect(set.teams.has(7)).toBe(false);
    expect(set.changedTeams.has(7)).toBe(false);
    expect(set.deletedTeams).toEqual(new Set([7]));
    expect(set.ledger.get(1)).toBeNull();
    expect([...set.dailyDelta.keys()].some((k) => k.startsWith('7|'))).toBe(false);
  });

  test('a member deleted from a team the model does not know brings no placeholder team back', () => {
    const set = fold([recorded('ParticipantDeleted', { participantId: 11, teamId: 9, deletedAt: '2025-04-05T08:00:00.000Z' })]);
    expect(set.teams.size).toBe(0);
    expect(set.changedTeams.size).toBe(0);
  });
});

describe('team-stats: moderation (the entry ledger decides)', () => {
  const entry = (entryId: number, distance: number) => recorded('EntryAdded', {
    entryId, teamId: 7, participantId: 11, distance, entryType: 'WALK', performedAt: '2025-04-02', createdAt: '2025-04-02T08:00:00.000Z',
  });
  const ids = (entryId: number) => ({ entryId, teamId: 7, participantId: 11 });
  const flagged = (entryId: number) => recorded('EntryFlagged', { ...ids(entryId), reasons: [], flaggedAt: '2025-04-02T08:00:00.000Z' });
  const decided = (type: 'EntryReviewApproved' | 'EntryReviewRejected', entryId: number) =>
    recorded(type, { ...ids(entryId), note: '', decidedBy: 'a', decidedAt: '2025-04-03T08:00:00.000Z' });

  test('a flagged and an approved entry keep counting; a rejected one leaves the team km, its day and the ledger', () => {
    const set = fold([registered, entry(1, 5), entry(2, 80), flagged(2), entry(3, 1.5), flagged(3), decided('EntryReviewApproved', 3), decided('EntryReviewRejected', 2)]);
    expect(set.teams.get(7)?.distanceHundredths).toBe(650);
    expect(set.dailyDelta.get('7|2025-04-02')).toBe(650);
    expect(set.ledger.get(2)).toBeNull();
    expect(set.ledger.get(3)).toMatchObject({ hundredths: 150 });
  });

  test('a flag alone changes no figure and marks no team changed', () => {
    const set = emptyWorkingSet();
    set.ledger.set(1, { entryId: 1, teamId: 7, participantId: 11, hundredths: 500, day: '2025-04-02' });
    evolveTeamStats(set, flagged(1));
    expect(set.changedTeams.size).toBe(0);
    expect(set.dailyDelta.size).toBe(0);
  });
});
