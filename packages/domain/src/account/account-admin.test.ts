/** The administrator's account commands: ResetPasswordAsAdmin, DeleteUser, a deleted account. */
import { describe, it } from 'vitest';
import type { AccountEvent, UserDeleted, UserRegistered } from '../events';
import { adminActor, deciderSpec, participantActor, systemActor, testContext } from '../testing';
import { accountDecider, type AccountCommand, type AccountState } from './decider';

const { given } = deciderSpec<AccountCommand, AccountEvent, AccountState>(accountDecider);
const now = '2025-04-12T10:00:00.000Z';
const userId = '0b6f4c1e-6a0e-4c36-9a53-3f1f0b6a9c11';
const adminId = 'b7d1f6c4-3f51-4a4c-9d51-2f0f5c6c0a01';
const admin = testContext({ now, actor: { ...adminActor, userId: adminId } });
const system = testContext({ now, actor: systemActor });
const user = testContext({ now, actor: { ...participantActor(3, 7), userId } });

const registered: UserRegistered = {
  type: 'UserRegistered',
  data: {
    userId, participantId: 3, role: 'USER', email: 'mari@example.ee', fullName: 'Mari Maasikas', approved: true, hasPassword: true,
    lang: 'est', registeredAt: '2025-03-01T10:00:00.000Z',
  },
};
const deleted: UserDeleted = { type: 'UserDeleted', data: { userId, deletedAt: now } };
const reset = (newPassword: string, id = userId): AccountCommand => ({ type: 'ResetPasswordAsAdmin', data: { userId: id, newPassword } });
const remove = (id = userId): AccountCommand => ({ type: 'DeleteUser', data: { userId: id } });

describe('ResetPasswordAsAdmin', () => {
  it('records PasswordChanged at ctx.now (the hash is the caller’s)', () => {
    given([registered]).when(reset('uus-parool'), admin).then([{ type: 'PasswordChanged', data: { userId, changedAt: now } }]);
  });

  it('is for administrators only', () => {
    given([registered]).when(reset('uus-parool'), user).then('FORBIDDEN');
  });

  it('refuses a password under 6 characters (PASSWORD_TOO_SHORT) and over 128 (VALUE_TOO_LONG)', () => {
    given([registered]).when(reset('12345'), admin).then('PASSWORD_TOO_SHORT');
    given([registered]).when(reset('p'.repeat(129)), admin).then('VALUE_TOO_LONG');
  });

  it('answers NOT_FOUND for an unknown or deleted account, INVALID_REQUEST for a malformed id', () => {
    given([]).when(reset('uus-parool'), admin).then('NOT_FOUND');
    given([registered, deleted]).when(reset('uus-parool'), admin).then('NOT_FOUND');
    given([]).when(reset('uus-parool', 'user-3'), admin).then('INVALID_REQUEST');
  });
});

describe('DeleteUser', () => {
  it('deletes the account at ctx.now', () => {
    given([registered]).when(remove(), admin).then([deleted]);
    given([registered]).when(remove(), system).then([deleted]);
  });

  it('is for administrators only, and an administrator cannot delete their own account', () => {
    given([registered]).when(remove(), user).then('FORBIDDEN');
    const own: UserRegistered = { ...registered, data: { ...registered.data, userId: adminId, role: 'ADMIN' } };
    given([own]).when(remove(adminId), admin).then('FORBIDDEN');
  });

  it('answers NOT_FOUND for an unknown or already deleted account', () => {
    given([]).when(remove(), admin).then('NOT_FOUND');
    given([registered, deleted]).when(remove(), admin).then('NOT_FOUND');
  });
});

describe('a deleted account answers as an unknown one', () => {
  it('for approval, confirmation, password change and both halves of the reset', () => {
    given([registered, deleted]).when({ type: 'SetApproval', data: { userId, approved: false } }, admin).then('NOT_FOUND');
    given([registered, deleted]).when({ type: 'ConfirmAccount', data: { userId, tokenValid: true } }, system).then('INVALID_ACCOUNT_TOKEN');
    given([registered, deleted]).when({ type: 'ChangePassword', data: { userId, currentPasswordValid: true, newPassword: 'uus-parool' } }, user).then('UNAUTHORIZED');
    given([registered, deleted]).when({ type: 'RequestPasswordReset', data: { userId, expiresAt: '2025-04-12T12:00:00.000Z' } }, system).then('INVALID_EMAIL');
    given([registered, deleted]).when({ type: 'CompletePasswordReset', data: { userId, tokenValid: true, newPassword: 'uus-parool' } }, system).then('INVALID_RESET_TOKEN');
  });
});
