import { describe, expect, test } from 'vitest';
import type { RecordedEvent } from '@sinilill/event-store';
import { emptyAdminWorkingSet, evolveAdminDirectory, type AdminWorkingSet } from './evolve';

let position = 0;
const recorded = (type: string, data: object): RecordedEvent => {
  position += 1;
  return {
    id: `e${position}`, type, schemaVersion: 1, data, stream: 's', revision: 0, globalPosition: position,
    recordedAt: new Date(0), metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: 'c', causationId: null },
  };
};
const fold = (events: readonly RecordedEvent[], set: AdminWorkingSet = emptyAdminWorkingSet()) => {
  for (const event of events) evolveAdminDirectory(set, event);
  return set;
};

const at = '2025-04-05T08:00:00.000Z';
const team = recorded('TeamRegistered', { teamId: 7, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null, registeredAt: '2025-03-01T10:00:00.000Z' });
const participant = recorded('ParticipantRegistered', {
  participantId: 11, teamId: 7, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE', isCaptain: true, newsletter: false, registeredAt: '2025-03-01T10:00:01.000Z',
});
const user = recorded('UserRegistered', {
  userId: 'u-11', participantId: 11, role: 'USER', email: 'mari@example.ee', fullName: 'Mari Maasikas', approved: false, hasPassword: true, lang: 'est', registeredAt: '2025-03-01T10:00:02.000Z',
});

describe('admin-directory', () => {
  test('given a team, a participant and their account, the account row carries the participant and the team', () => {
    expect(fold([team, participant, user]).users.get('u-11')).toEqual({
      userId: 'u-11', participantId: 11, role: 'USER', email: 'mari@example.ee', fullName: 'Mari Maasikas', approved: false,
      isPaid: false, teamId: 7, teamName: 'Tartu Tammed', createdAt: '2025-03-01T10:00:02.000Z', participantCreatedAt: '2025-03-01T10:00:01.000Z',
    });
  });

  test('an account that joins a later edition shows its new participant, team and paid flag', () => {
    const team2026 = recorded('TeamRegistered', { teamId: 70, teamName: 'Tartu Tammed', description: '', joinCode: 'BBBB2222', icon: null, registeredAt: '2026-03-15T10:00:00.000Z' });
    const participant2026 = recorded('ParticipantRegistered', {
      participantId: 110, teamId: 70, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE', isCaptain: true, newsletter: false, registeredAt: '2026-03-15T10:00:01.000Z',
    });
    const joined = recorded('UserJoinedEdition', { userId: 'u-11', participantId: 110, edition: 2026, joinedAt: '2026-03-15T10:00:01.000Z' });
    const paid = recorded('ParticipantPaymentMarked', { participantId: 11, isPaid: true });
    expect(fold([team, participant, user, paid, team2026, participant2026, joined]).users.get('u-11')).toMatchObject({
      participantId: 110, teamId: 70, isPaid: false, participantCreatedAt: '2026-03-15T10:00:01.000Z', email: 'mari@example.ee',
    });
  });

  test('the account before its participant gets the participant when it arrives', () => {
    expect(fold([team, user, participant]).users.get('u-11')).toMatchObject({ teamId: 7, teamName: 'Tartu Tammed', participantCreatedAt: '2025-03-01T10:00:01.000Z' });
  });

  test('approval, revocation, role, payment and renames of person and team show on the row', () => {
    const set = fold([
      team, participant, user,
      recorded('AccountConfirmed', { userId: 'u-11', confirmedAt: at }),
      recorded('UserApprovalRevoked', { userId: 'u-11', revokedBy: null, revokedAt: at }),
      recorded('UserRoleChanged', { userId: 'u-11', role: 'ADMIN', changedAt: at }),
      recorded('ParticipantPaymentMarked', { participantId: 11, isPaid: true }),
      recorded('ParticipantRenamed', { participantId: 11, fullName: 'Mari Mets', renamedAt: at }),
      recorded('TeamRenamed', { teamId: 7, teamName: 'Tammed', renamedAt: at }),
    ]);
    expect(set.users.get('u-11')).toMatchObject({ approved: false, role: 'ADMIN', isPaid: true, fullName: 'Mari Mets', teamName: 'Tammed' });
    expect(set.participants.get(11)).toMatchObject({ fullName: 'Mari Mets', isPaid: true });
    expect(fold([team, participant, user, recorded('UserApproved', { userId: 'u-11', approvedBy: null, approvedAt: at })]).users.get('u-11')?.approved).toBe(true);
  });

  test('an administrator\'s own account has no participant and is approved', () => {
    const set = fold([recorded('AdminRegistered', { userId: 'a-1', email: 'admin@example.ee', fullName: 'Admin', registeredAt: at })]);
    expect(set.users.get('a-1')).toMatchObject({ participantId: null, role: 'ADMIN', approved: true, teamId: null, participantCreatedAt: null });
  });

  test('when the user is deleted, the account and the participant are marked for removal', () => {
    const set = fold([
      team, participant, user,
      recorded('UserDeleted', { userId: 'u-11', deletedAt: at }),
      recorded('ParticipantDeleted', { participantId: 11, teamId: 7, deletedAt: at }),
    ]);
    expect(set.users.get('u-11')).toBeNull();
    expect(set.participants.get(11)).toBeNull();
    expect(set.changedUsers.has('u-11')).toBe(true);
    expect(set.changedParticipants.has(11)).toBe(true);
  });

  test('a participant deleted without its account leaves the account without participant, e-mail or name (erased with it)', () => {
    const row = fold([team, participant, user, recorded('ParticipantDeleted', { participantId: 11, teamId: 7, deletedAt: at })]).users.get('u-11');
    expect(row).toMatchObject({ email: null, fullName: null, teamId: null, teamName: null, isPaid: false, participantCreatedAt: null });
  });

  test('when the team is deleted, the team and its participants go', () => {
    const set = fold([team, participant, user, recorded('TeamDeleted', { teamId: 7, deletedAt: at })]);
    expect(set.teams.get(7)).toBeNull();
    expect(set.participants.get(11)).toBeNull();
    expect(set.users.get('u-11')).toMatchObject({ teamId: null, teamName: null });
  });

  test('rows loaded from an earlier batch are updated by a later one (a team renamed, members follow)', () => {
    const earlier = fold([team, participant, user]);
    const set = emptyAdminWorkingSet();
    set.teams.set(7, 'Tartu Tammed');
    set.participants.set(11, earlier.participants.get(11)!);
    set.users.set('u-11', { ...earlier.users.get('u-11')! });
    fold([recorded('TeamRenamed', { teamId: 7, teamName: 'Tammed', renamedAt: at })], set);
    expect(set.users.get('u-11')?.teamName).toBe('Tammed');
    expect(set.changedUsers).toEqual(new Set(['u-11']));
  });
});
