/** The administrator's participant commands: RenameParticipant, DeleteParticipant. */
import { describe, it } from 'vitest';
import type { ParticipantDeleted, ParticipantRegistered } from '../events';
import { adminActor, deciderSpec, participantActor, systemActor, testContext } from '../testing';
import { participantDecider, type ParticipantCommand } from './decider';

const { given } = deciderSpec(participantDecider);
const now = '2025-04-12T10:00:00.000Z';
const admin = testContext({ now, actor: adminActor });
const system = testContext({ now, actor: systemActor });
const self = testContext({ now, actor: participantActor(3, 7) });

const registered: ParticipantRegistered = {
  type: 'ParticipantRegistered',
  data: { edition: 2025,
    participantId: 3, teamId: 7, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE',
    isCaptain: false, newsletter: false, registeredAt: '2025-03-01T10:00:00.000Z',
  },
};
const deleted: ParticipantDeleted = { type: 'ParticipantDeleted', data: { participantId: 3, teamId: 7, deletedAt: now } };
const rename = (fullName: string, participantId = 3): ParticipantCommand => ({ type: 'RenameParticipant', data: { participantId, fullName } });
const remove = (participantId = 3): ParticipantCommand => ({ type: 'DeleteParticipant', data: { participantId } });

describe('RenameParticipant', () => {
  it('renames at ctx.now, the name trimmed', () => {
    given([registered]).when(rename(' Mari Mustikas '), admin)
      .then([{ type: 'ParticipantRenamed', data: { participantId: 3, fullName: 'Mari Mustikas', renamedAt: now } }]);
  });

  it('decides nothing when the name is unchanged', () => {
    given([registered]).when(rename('Mari Maasikas'), admin).then([]);
  });

  it('is for administrators only: the participant themself is FORBIDDEN', () => {
    given([registered]).when(rename('Mari Mustikas'), self).then('FORBIDDEN');
  });

  it('allows 32 characters and refuses 33 (spec §5 "Admin participant name max 32") and a blank name', () => {
    given([registered]).when(rename('n'.repeat(32)), admin).then([{ type: 'ParticipantRenamed', data: { participantId: 3, fullName: 'n'.repeat(32), renamedAt: now } }]);
    given([registered]).when(rename('n'.repeat(33)), admin).then('VALUE_TOO_LONG');
    given([registered]).when(rename(' '), admin).then('INVALID_REQUEST');
  });

  it('answers NOT_FOUND for an unknown or deleted participant', () => {
    given([]).when(rename('Mari Mustikas'), admin).then('NOT_FOUND');
    given([registered, deleted]).when(rename('Mari Mustikas'), admin).then('NOT_FOUND');
  });
});

describe('DeleteParticipant', () => {
  it('deletes the participant, naming their team', () => {
    given([registered]).when(remove(), admin).then([deleted]);
    given([registered]).when(remove(), system).then([deleted]);
  });

  it('is for administrators only', () => {
    given([registered]).when(remove(), self).then('FORBIDDEN');
  });

  it('answers NOT_FOUND for an unknown or already deleted participant', () => {
    given([]).when(remove(), admin).then('NOT_FOUND');
    given([registered, deleted]).when(remove(), admin).then('NOT_FOUND');
  });

  it('leaves a state with deleted: true and the personal data erased', () => {
    given([registered]).when(remove(), admin).thenState({ edition: 2025,
      exists: true, participantId: 3, teamId: 7, fullName: null, email: null, birthYear: null, gender: 'FEMALE',
      isCaptain: false, newsletter: false, isPaid: false, registeredAt: '2025-03-01T10:00:00.000Z', deleted: true,
    });
  });
});

describe('a deleted participant', () => {
  it('cannot be marked paid (NOT_FOUND) nor registered again (ALREADY_EXISTS)', () => {
    given([registered, deleted]).when({ type: 'MarkPayment', data: { participantId: 3, isPaid: true } }, admin).then('NOT_FOUND');
    given([registered, deleted]).when({
      type: 'RegisterParticipant',
      data: { participantId: 3, teamId: 7, fullName: 'X', email: 'x@example.ee', birthYear: 1980, gender: 'MALE', isCaptain: false, newsletter: false },
    }, system).then('ALREADY_EXISTS');
  });
});
