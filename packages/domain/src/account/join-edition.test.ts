import { describe, expect, it } from 'vitest';
import type { AccountEvent, UserRegistered } from '../events';
import { deciderSpec, adminActor, testContext } from '../testing';
import type { AccountCommand, JoinEdition } from './decider';
import { accountDecider } from './decider';

const { given } = deciderSpec<AccountCommand, AccountEvent, ReturnType<typeof accountDecider.initialState>>(accountDecider);
const now = '2026-03-15T10:00:00.000Z';
const userId = '0b6f4c1e-6a0e-4c36-9a53-3f1f0b6a9c11';
const owner = testContext({ now, actor: { userId, role: 'USER', participantId: 3, teamId: 7 } });
const stranger = testContext({ now, actor: { userId: '1b6f4c1e-6a0e-4c36-9a53-3f1f0b6a9c11', role: 'USER', participantId: 4, teamId: 7 } });

const registered: UserRegistered = {
  type: 'UserRegistered',
  data: { userId, participantId: 3, role: 'USER', email: 'mari@example.ee', fullName: 'Mari Maasikas', approved: true, hasPassword: true, lang: 'est', registeredAt: '2025-03-01T10:00:00.000Z' },
};
const join = (overrides: Partial<JoinEdition['data']> = {}): JoinEdition => ({
  type: 'JoinEdition', data: { userId, participantId: 40, edition: 2026, editionsTakenPart: [2025], ...overrides },
});
const joined = (participantId = 40, edition = 2026): AccountEvent => ({ type: 'UserJoinedEdition', data: { userId, participantId, edition, joinedAt: now } });

describe('JoinEdition: a person takes part in another edition with the same account', () => {
  it('records the new participant, which the account names from then on', () => {
    given([registered]).when(join(), owner).then([joined()]);
    const state = [registered, joined()].reduce(accountDecider.evolve, accountDecider.initialState());
    expect({ participantId: state.participantId, participantIds: state.participantIds }).toEqual({ participantId: 40, participantIds: [3, 40] });
  });

  it('refuses an edition the person already takes part in, and a participant the account has', () => {
    given([registered]).when(join({ editionsTakenPart: [2025, 2026] }), owner).then('ALREADY_EXISTS');
    given([registered, joined()]).when(join({ edition: 2027 }), owner).then('ALREADY_EXISTS');
  });

  it('is the owner’s own step: another person or an administrator is refused', () => {
    given([registered]).when(join(), stranger).then('FORBIDDEN');
    given([registered]).when(join(), testContext({ now, actor: adminActor })).then('FORBIDDEN');
  });

  it('refuses an unknown or deleted account', () => {
    given([]).when(join(), owner).then('NOT_FOUND');
    given([registered, { type: 'UserDeleted', data: { userId, deletedAt: now } }]).when(join(), owner).then('NOT_FOUND');
  });
});
