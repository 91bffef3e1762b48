/**
 * The owner's own erasure: DeleteUser with `ownPasswordValid` and
 * DeleteParticipant with `byOwner`, decided in the same append as an administrator's deletion.
 */
import { describe, it } from 'vitest';
import type { AccountEvent, AdminRegistered, ParticipantRegistered, UserDeleted, UserRegistered } from '../events';
import { participantDecider, type ParticipantCommand } from '../participant/decider';
import { adminActor, deciderSpec, participantActor, systemActor, testContext } from '../testing';
import { accountDecider, type AccountCommand, type AccountState } from './decider';

const accounts = deciderSpec<AccountCommand, AccountEvent, AccountState>(accountDecider);
const participants = deciderSpec(participantDecider);
const now = '2025-04-12T10:00:00.000Z';
const userId = '0b6f4c1e-6a0e-4c36-9a53-3f1f0b6a9c11';
const otherId = '5a0c1d2e-3f40-4b5c-8d6e-7f8091a2b3c4';
const adminId = 'b7d1f6c4-3f51-4a4c-9d51-2f0f5c6c0a01';
const owner = testContext({ now, actor: { ...participantActor(3, 7), userId } });
const stranger = testContext({ now, actor: { ...participantActor(4, 7), userId: otherId } });
const admin = testContext({ now, actor: { ...adminActor, userId: adminId } });
const ownAdmin = testContext({ now, actor: { ...adminActor, userId: adminId, role: 'USER' } });

const registered: UserRegistered = {
  type: 'UserRegistered',
  data: {
    userId, participantId: 3, role: 'USER', email: 'mari@example.ee', fullName: 'Mari Maasikas', approved: true, hasPassword: true,
    lang: 'est', registeredAt: '2025-03-01T10:00:00.000Z',
  },
};
const adminRegistered: AdminRegistered = {
  type: 'AdminRegistered', data: { userId: adminId, email: 'admin@example.ee', fullName: 'Admin', registeredAt: '2025-03-01T10:00:00.000Z' },
};
const deleted: UserDeleted = { type: 'UserDeleted', data: { userId, deletedAt: now } };
const erase = (ownPasswordValid: boolean, id = userId): AccountCommand => ({ type: 'DeleteUser', data: { userId: id, ownPasswordValid } });

describe('DeleteUser by the owner', () => {
  it('given a live participant account, when its owner erases it with the right password, then UserDeleted', () => {
    accounts.given([registered]).when(erase(true), owner).then([deleted]);
  });

  it('refuses a wrong password with INVALID_PASSWORD', () => {
    accounts.given([registered]).when(erase(false), owner).then('INVALID_PASSWORD');
  });

  it('is the owner’s alone: another participant, an administrator or the system get FORBIDDEN', () => {
    accounts.given([registered]).when(erase(true), stranger).then('FORBIDDEN');
    accounts.given([registered]).when(erase(true), admin).then('FORBIDDEN');
    accounts.given([registered]).when(erase(true), testContext({ now, actor: systemActor })).then('FORBIDDEN');
  });

  it('does not erase an administrator account, whatever the token says', () => {
    accounts.given([adminRegistered]).when(erase(true, adminId), admin).then('FORBIDDEN');
    accounts.given([adminRegistered]).when(erase(true, adminId), ownAdmin).then('FORBIDDEN');
  });

  it('answers NOT_FOUND once the account is deleted', () => {
    accounts.given([registered, deleted]).when(erase(true), owner).then('NOT_FOUND');
  });

  it('leaves the administrator’s deletion as it was: a USER without the flag is FORBIDDEN', () => {
    accounts.given([registered]).when({ type: 'DeleteUser', data: { userId } }, owner).then('FORBIDDEN');
  });
});

describe('DeleteParticipant by the owner', () => {
  const participant: ParticipantRegistered = {
    type: 'ParticipantRegistered',
    data: { edition: 2025,
      participantId: 3, teamId: 7, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE',
      isCaptain: true, newsletter: false, registeredAt: '2025-03-01T10:00:00.000Z',
    },
  };
  const remove = (byOwner?: boolean): ParticipantCommand => ({ type: 'DeleteParticipant', data: { participantId: 3, ...(byOwner === undefined ? {} : { byOwner }) } });

  it('given a captain, when they erase themself, then ParticipantDeleted naming the team', () => {
    participants.given([participant]).when(remove(true), owner)
      .then([{ type: 'ParticipantDeleted', data: { participantId: 3, teamId: 7, deletedAt: now } }]);
  });

  it('is the participant’s own only (a teammate, an administrator: FORBIDDEN)', () => {
    participants.given([participant]).when(remove(true), stranger).then('FORBIDDEN');
    participants.given([participant]).when(remove(true), admin).then('FORBIDDEN');
    participants.given([participant]).when(remove(), owner).then('FORBIDDEN');
  });
});
