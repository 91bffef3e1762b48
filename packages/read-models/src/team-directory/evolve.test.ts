import { describe, expect, test } from 'vitest';
import type { RecordedEvent } from '@sinilill/event-store';
import { emptyDirectory, evolveTeamDirectory } from './evolve';

let position = 0;
const recorded = (type: string, data: object): RecordedEvent => {
  position += 1;
  return {
    id: `e${position}`, type, schemaVersion: 1, data, stream: 's', revision: 0, globalPosition: position,
    recordedAt: new Date(0), metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: 'c', causationId: null },
  };
};
const fold = (events: readonly RecordedEvent[]) => {
  const set = emptyDirectory();
  for (const event of events) evolveTeamDirectory(set, event);
  return set;
};

const registered = recorded('TeamRegistered', {
  teamId: 7, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null, registeredAt: '2025-03-01T10:00:00.000Z',
});

describe('team-directory: join codes', () => {
  test('given a registered team, its code is the registration one, since registeredAt', () => {
    expect(fold([registered]).joinCodes.get(7)).toEqual({ teamId: 7, joinCode: 'AAAA1111', createdAt: '2025-03-01T10:00:00.000Z' });
  });

  test('when the code is replaced twice, only the latest one is kept, since its replacedAt', () => {
    const set = fold([
      registered,
      recorded('JoinCodeReplaced', { teamId: 7, joinCode: 'BBBB2222', replacedAt: '2025-04-02T08:00:00.000Z' }),
      recorded('JoinCodeReplaced', { teamId: 7, joinCode: 'CCCC3333', replacedAt: '2025-04-03T08:00:00.000Z' }),
    ]);
    expect([...set.joinCodes.values()]).toEqual([{ teamId: 7, joinCode: 'CCCC3333', createdAt: '2025-04-03T08:00:00.000Z' }]);
  });

  test('a replacement in a later batch needs no loaded row (it replaces the whole row)', () => {
    const set = fold([recorded('JoinCodeReplaced', { teamId: 9, joinCode: 'DDDD4444', replacedAt: '2025-04-05T08:00:00.000Z' })]);
    expect(set.joinCodes.get(9)).toEqual({ teamId: 9, joinCode: 'DDDD4444', createdAt: '2025-04-05T08:00:00.000Z' });
  });

  test('team events touch no member and no entry', () => {
    const set = fold([registered, recorded('JoinCodeReplaced', { teamId: 7, joinCode: 'BBBB2222', replacedAt: '2025-04-02T08:00:00.000Z' })]);
    expect(set.changedMembers.size).toBe(0);
    expect(set.changedEntries.size).toBe(0);
  });
});

describe('team-directory: members and entries', () => {
  const member = recorded('ParticipantRegistered', {
    participantId: 11, teamId: 7, fullName: 'Mari Maasikas', email: null, birthYear: null, gender: 'FEMALE',
    isCaptain: true, newsletter: false, registeredAt: '2025-03-01T10:00:00.000Z',
  });
  const added = (entryId: number, distance: number) => recorded('EntryAdded', {
    entryId, teamId: 7, participantId: 11, distance, entryType: 'WALK', performedAt: '2025-04-02', createdAt: `2025-04-02T0${entryId % 10}:00:00.000Z`,
  });

  test('a member\'s km are the exact sum of their live entries', () => {
    const set = fold([member, added(1, 0.1), added(2, 0.2), recorded('EntryDeleted', { entryId: 1, teamId: 7, participantId: 11, deletedAt: '2025-04-03T00:00:00.000Z' })]);
    expect(set.members.get(11)?.distanceHundredths).toBe(20);
    expect(set.entries.get(1)).toBeNull();
    expect(set.entries.get(2)).toMatchObject({ distanceHundredths: 20, createdAt: '2025-04-02T02:00:00.000Z' });
  });
});

describe('team-directory: renames and deletions', () => {
  const member = (participantId: number, fullName: string | null = 'Mari Maasikas') => recorded('ParticipantRegistered', {
    participantId, teamId: 7, fullName, email: null, birthYear: null, gender: 'FEMALE', isCaptain: false, newsletter: false, registeredAt: '2025-03-01T10:00:00.000Z',
  });
  const at = '2025-04-05T08:00:00.000Z';

  test('given a member, when renamed, then the row carries the new name (and null once erased)', () => {
    expect(fold([member(11), recorded('ParticipantRenamed', { participantId: 11, fullName: 'Mari Mets', renamedAt: at })]).members.get(11)?.fullName).toBe('Mari Mets');
    const set = fold([member(11), recorded('ParticipantRenamed', { participantId: 11, fullName: null, renamedAt: at })]);
    expect(set.members.get(11)?.fullName).toBeNull();
    expect(set.changedMembers.has(11)).toBe(true);
  });

  test('given a member with an entry, when deleted with their entry, then the member row and the entry go', () => {
    const set = fold([
      member(11), member(12),
      recorded('EntryAdded', { entryId: 1, teamId: 7, participantId: 12, distance: 3, entryType: 'WALK', performedAt: '2025-04-02', createdAt: at }),
      recorded('ParticipantDeleted', { participantId: 12, teamId: 7, deletedAt: at }),
      recorded('EntryDeleted', { entryId: 1, teamId: 7, participantId: 12, deletedAt: at }),
    ]);
    expect(set.members.has(12)).toBe(false);
    expect(set.changedMembers.has(12)).toBe(false);
    expect(set.deletedMembers).toEqual(new Set([12]));
    expect(set.entries.get(1)).toBeNull();
    expect(set.members.get(11)).toBeDefined();
  });

  test('given a team, when deleted, then its join code is not written back and is marked for removal', () => {
    const set = fold([registered, recorded('TeamDeleted', { teamId: 7, deletedAt: at })]);
    expect(set.joinCodes.has(7)).toBe(false);
    expect(set.deletedTeams).toEqual(new Set([7]));
  });
});

describe('team-directory: moderation (the entry ledger decides)', () => {
  const member = recorded('ParticipantRegistered', {
    participantId: 11, teamId: 7, fullName: 'Mari', email: null, birthYear: null, gender: 'FEMALE', isCaptain: false, newsletter: false, registeredAt: '2025-03-01T10:00:00.000Z',
  });
  const added = (entryId: number, distance: number) => recorded('EntryAdded', {
    entryId, teamId: 7, participantId: 11, distance, entryType: 'WALK', performedAt: '2025-04-02', createdAt: '2025-04-02T08:00:00.000Z',
  });
  const ids = (entryId: number) => ({ entryId, teamId: 7, participantId: 11 });
  const reason = { rule: 'MAX_KM_PER_ENTRY', limit: 60, value: 80 };
  const flagged = (entryId: number) => recorded('EntryFlagged', { ...ids(entryId), reasons: [reason], flaggedAt: '2025-04-02T08:00:00.000Z' });
  const decided = (type: 'EntryReviewApproved' | 'EntryReviewRejected', entryId: number) =>
    recorded(type, { ...ids(entryId), note: 'vaadatud', decidedBy: 'a', decidedAt: '2025-04-03T08:00:00.000Z' });

  test('a rejected entry keeps its row with the review and leaves its member\'s km; flagged and approved ones count', () => {
    const set = fold([member, added(1, 5), added(2, 80), flagged(2), added(3, 1.5), flagged(3), decided('EntryReviewApproved', 3), decided('EntryReviewRejected', 2)]);
    expect(set.members.get(11)?.distanceHundredths).toBe(650);
    expect(set.entries.get(2)).toMatchObject({
      distanceHundredths: 8000,
      review: { status: 'rejected', reasons: [reason], flaggedAt: '2025-04-02T08:00:00.000Z', decidedBy: 'a', decidedAt: '2025-04-03T08:00:00.000Z', note: 'vaadatud' },
    });
    expect(set.entries.get(3)?.review?.status).toBe('approved');
  });

  test('deleting a rejected entry takes nothing more off its member; a decision on an unknown entry changes nothing', () => {
    const set = fold([member, added(1, 5), added(2, 80), flagged(2), decided('EntryReviewRejected', 2),
      recorded('EntryDeleted', { ...ids(2), deletedAt: '2025-04-04T08:00:00.000Z' }), decided('EntryReviewRejected', 9)]);
    expect(set.members.get(11)?.distanceHundredths).toBe(500);
    expect(set.entries.get(2)).toBeNull();
    expect(set.entries.has(9)).toBe(false);
  });
});
