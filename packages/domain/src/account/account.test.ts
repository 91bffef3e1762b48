import { describe, expect, it } from 'vitest';
import type { AccountEvent, AdminRegistered, UserRegistered } from '../events';
import * as domain from '../index';
import { adminActor, deciderSpec, participantActor, systemActor, testContext, visitorActor } from '../testing';
import type { AccountCommand, RegisterUser } from './decider';
import { accountDecider, isUserId } from './decider';

const { given } = deciderSpec<AccountCommand, AccountEvent, ReturnType<typeof accountDecider.initialState>>(accountDecider);
const now = '2025-03-15T10:00:00.000Z';
const userId = '0b6f4c1e-6a0e-4c36-9a53-3f1f0b6a9c11';
const visitor = testContext({ now, actor: visitorActor });
const system = testContext({ now, actor: systemActor });
const admin = testContext({ now, actor: adminActor });
const owner = testContext({ now, actor: { userId, role: 'USER', participantId: 3, teamId: 7 } });

const register = (overrides: Partial<RegisterUser['data']> = {}): RegisterUser => ({
  type: 'RegisterUser',
  data: {
    userId,
    participantId: 3,
    email: 'mari@example.ee',
    fullName: 'Mari Maasikas',
    role: 'USER',
    approved: false,
    hasPassword: true,
    lang: 'est',
    registrationEnabled: true,
    ...overrides,
  },
});
const registered = (overrides: Partial<UserRegistered['data']> = {}): UserRegistered => ({
  type: 'UserRegistered',
  data: {
    userId,
    participantId: 3,
    role: 'USER',
    email: 'mari@example.ee',
    fullName: 'Mari Maasikas',
    approved: false,
    hasPassword: true,
    lang: 'est',
    registeredAt: now,
    ...overrides,
  },
});
const adminRegistered: AdminRegistered = {
  type: 'AdminRegistered',
  data: { userId, email: 'admin@example.ee', fullName: 'Administrator', registeredAt: now },
};
const confirmed: AccountEvent = { type: 'AccountConfirmed', data: { userId, confirmedAt: now } };
const imported = registered({ approved: true, hasPassword: false });

describe('RegisterUser', () => {
  it('registers an unapproved account for a visitor, at ctx.now, name and e-mail trimmed', () => {
    given([]).when(register({ email: ' mari@example.ee ', fullName: ' Mari Maasikas ' }), visitor).then([registered()]);
  });

  it('refuses while registration is disabled, except for the system and administrators', () => {
    given([]).when(register({ registrationEnabled: false }), visitor).then('REGISTRATION_DISABLED');
    given([]).when(register({ registrationEnabled: false, approved: true, hasPassword: false }), system).then([imported]);
    given([]).when(register({ registrationEnabled: false }), admin).then([registered()]);
  });

  it('lets only the system or an administrator create approved or admin accounts (FORBIDDEN)', () => {
    given([]).when(register({ approved: true }), visitor).then('FORBIDDEN');
    given([]).when(register({ role: 'ADMIN' }), visitor).then('FORBIDDEN');
    given([]).when(register({ approved: true, hasPassword: false }), system).then([imported]);
  });

  it('checks e-mail, name, ids, role and language', () => {
    given([]).when(register({ email: 'not-an-email' }), visitor).then('INVALID_EMAIL');
    given([]).when(register({ email: '' }), visitor).then('INVALID_EMAIL');
    given([]).when(register({ email: `${'a'.repeat(254)}@example.ee` }), visitor).then('VALUE_TOO_LONG');
    given([]).when(register({ fullName: ' ' }), visitor).then('INVALID_REQUEST');
    given([]).when(register({ fullName: 'n'.repeat(33) }), visitor).then('VALUE_TOO_LONG');
    given([]).when(register({ userId: 'user-3' }), visitor).then('INVALID_REQUEST');
    given([]).when(register({ participantId: 0 }), visitor).then('INVALID_REQUEST');
    given([]).when(register({ role: 'ROOT' as 'USER' }), visitor).then('INVALID_REQUEST');
    given([]).when(register({ lang: 'fin' as 'est' }), visitor).then('INVALID_REQUEST');
  });

  it('refuses a second registration of the same account with ALREADY_EXISTS', () => {
    given([registered()]).when(register(), visitor).then('ALREADY_EXISTS');
  });

  it('folds into an unapproved USER account with a password', () => {
    given([]).when(register(), visitor).thenState({
      exists: true,
      deleted: false,
      userId,
      participantId: 3,
      participantIds: [3],
      role: 'USER',
      email: 'mari@example.ee',
      fullName: 'Mari Maasikas',
      approved: false,
      approvalRevoked: false,
      hasPassword: true,
      lang: 'est',
      registeredAt: now,
    });
  });
});

describe('ConfirmAccount', () => {
  const confirm = (tokenValid = true, id = userId): AccountCommand => ({ type: 'ConfirmAccount', data: { userId: id, tokenValid } });

  it('approves the account when the token is valid', () => {
    given([registered()]).when(confirm(), visitor).then([confirmed]);
    given([registered()]).when(confirm(), visitor).thenState(expect.objectContaining({ approved: true }));
  });

  it('answers INVALID_ACCOUNT_TOKEN for a dead token, an unknown or an already confirmed account', () => {
    given([registered()]).when(confirm(false), visitor).then('INVALID_ACCOUNT_TOKEN');
    given([]).when(confirm(), visitor).then('INVALID_ACCOUNT_TOKEN');
    given([registered(), confirmed]).when(confirm(), visitor).then('INVALID_ACCOUNT_TOKEN');
    given([imported]).when(confirm(), visitor).then('INVALID_ACCOUNT_TOKEN');
  });

  it('does not undo an administrator’s withdrawal of the approval (only an administrator approves again)', () => {
    const revoked: AccountEvent = { type: 'UserApprovalRevoked', data: { userId, revokedBy: 'admin-1', revokedAt: now } };
    given([registered(), confirmed, revoked]).when(confirm(), visitor).then('INVALID_ACCOUNT_TOKEN');
    given([registered(), revoked]).when({ type: 'SetApproval', data: { userId, approved: true } }, admin)
      .thenState(expect.objectContaining({ approved: true, approvalRevoked: false }));
  });
});

describe('SetApproval', () => {
  const approve = (approved: boolean): AccountCommand => ({ type: 'SetApproval', data: { userId, approved } });

  it('approves and revokes, by an administrator', () => {
    given([registered()]).when(approve(true), admin).then([{ type: 'UserApproved', data: { userId, approvedBy: 'admin-1', approvedAt: now } }]);
    given([registered(), confirmed]).when(approve(false), admin).then([{ type: 'UserApprovalRevoked', data: { userId, revokedBy: 'admin-1', revokedAt: now } }]);
  });

  it('decides nothing when nothing changes', () => {
    given([registered(), confirmed]).when(approve(true), admin).then([]);
  });

  it('forbids everyone else, and answers NOT_FOUND for an unknown account', () => {
    given([registered()]).when(approve(true), owner).then('FORBIDDEN');
    given([registered()]).when(approve(true), visitor).then('FORBIDDEN');
    given([]).when(approve(true), admin).then('NOT_FOUND');
  });
});

describe('ChangePassword', () => {
  const change = (currentPasswordValid: boolean, newPassword = 'uus-parool'): AccountCommand => ({
    type: 'ChangePassword',
    data: { userId, currentPasswordValid, newPassword },
  });

  it('records the change, never the password', () => {
    const [event] = given([registered(), confirmed]).when(change(true), owner).then([{ type: 'PasswordChanged', data: { userId, changedAt: now } }]) as AccountEvent[];
    expect(JSON.stringify(event)).not.toContain('uus-parool');
  });

  it('answers INVALID_PASSWORD for a wrong current password, or when the account has none (imported)', () => {
    given([registered(), confirmed]).when(change(false), owner).then('INVALID_PASSWORD');
    given([imported]).when(change(true), owner).then('INVALID_PASSWORD');
  });

  it('needs 6..128 characters (PASSWORD_TOO_SHORT, VALUE_TOO_LONG), counted as characters', () => {
    given([registered()]).when(change(true, '12345'), owner).then('PASSWORD_TOO_SHORT');
    given([registered()]).when(change(true, '🌼🌼🌼🌼🌼'), owner).then('PASSWORD_TOO_SHORT');
    given([registered()]).when(change(true, '🌼🌼🌼🌼🌼🌼'), owner).then([{ type: 'PasswordChanged', data: { userId, changedAt: now } }]);
    given([registered()]).when(change(true, 'x'.repeat(128)), owner).then([{ type: 'PasswordChanged', data: { userId, changedAt: now } }]);
    given([registered()]).when(change(true, 'x'.repeat(129)), owner).then('VALUE_TOO_LONG');
  });

  it('lets only the owner change it', () => {
    given([registered()]).when(change(true), testContext({ now, actor: participantActor(4, 7) })).then('FORBIDDEN');
    given([registered()]).when(change(true), admin).then('FORBIDDEN');
  });
});

describe('password reset', () => {
  const request = (expiresAt = '2025-03-15T12:00:00.000Z'): AccountCommand => ({ type: 'RequestPasswordReset', data: { userId, expiresAt } });
  const complete = (tokenValid: boolean, newPassword = 'uus-parool'): AccountCommand => ({
    type: 'CompletePasswordReset',
    data: { userId, tokenValid, newPassword },
  });

  it('records a request with its expiry', () => {
    given([imported]).when(request(), visitor).then([
      { type: 'PasswordResetRequested', data: { userId, requestedAt: now, expiresAt: '2025-03-15T12:00:00.000Z' } },
    ]);
  });

  it('answers INVALID_EMAIL for an unknown account (spec §5 "valid known email")', () => {
    given([]).when(request(), visitor).then('INVALID_EMAIL');
  });

  it('refuses an expiry that is not after now', () => {
    given([imported]).when(request(now), visitor).then('INVALID_REQUEST');
  });

  it('completes with a valid token; an imported account then has a password', () => {
    given([imported]).when(complete(true), visitor).then([{ type: 'PasswordResetCompleted', data: { userId, completedAt: now } }]);
    given([imported]).when(complete(true), visitor).thenState(expect.objectContaining({ hasPassword: true, approved: true }));
  });

  it('answers INVALID_RESET_TOKEN for a dead token or an unknown account; checks the new password', () => {
    given([imported]).when(complete(false), visitor).then('INVALID_RESET_TOKEN');
    given([]).when(complete(true), visitor).then('INVALID_RESET_TOKEN');
    given([imported]).when(complete(true, 'short'), visitor).then('PASSWORD_TOO_SHORT');
  });
});

describe('EnsureAdmin', () => {
  const ensure = (passwordMatches: boolean, password = 'admin-parool'): AccountCommand => ({
    type: 'EnsureAdmin',
    data: { userId, email: 'admin@example.ee', fullName: 'Administrator', password, passwordMatches },
  });

  it('creates an approved admin account', () => {
    given([]).when(ensure(false), system).then([adminRegistered]);
    given([]).when(ensure(false), system).thenState({
      exists: true,
      deleted: false,
      userId,
      participantId: null,
      participantIds: [],
      role: 'ADMIN',
      email: 'admin@example.ee',
      fullName: 'Administrator',
      approved: true,
      approvalRevoked: false,
      hasPassword: true,
      lang: 'est',
      registeredAt: now,
    });
  });

  it('decides nothing when all is as wanted (a restart with the same settings)', () => {
    given([adminRegistered]).when(ensure(true), system).then([]);
  });

  it('updates the password, the role and the approval of an existing account', () => {
    given([adminRegistered]).when(ensure(false), system).then([{ type: 'PasswordChanged', data: { userId, changedAt: now } }]);
    given([registered()]).when(ensure(true), system).then([
      { type: 'UserRoleChanged', data: { userId, role: 'ADMIN', changedAt: now } },
      { type: 'UserApproved', data: { userId, approvedBy: null, approvedAt: now } },
    ]);
    given([imported]).when(ensure(false), system).then([
      { type: 'UserRoleChanged', data: { userId, role: 'ADMIN', changedAt: now } },
      { type: 'PasswordChanged', data: { userId, changedAt: now } },
    ]);
  });

  it('is the system’s only, and keeps the password rule', () => {
    given([]).when(ensure(false), admin).then('FORBIDDEN');
    given([]).when(ensure(false, 'short'), system).then('PASSWORD_TOO_SHORT');
  });
});

describe('SetRole', () => {
  const setRole = (role: 'ADMIN' | 'USER'): AccountCommand => ({ type: 'SetRole', data: { userId, role } });
  const promoted: AccountEvent = { type: 'UserRoleChanged', data: { userId, role: 'ADMIN', changedAt: now } };

  it('given a participant, when the system makes them ADMIN, then the role changes (and an unconfirmed one is approved)', () => {
    given([registered(), confirmed]).when(setRole('ADMIN'), system).then([promoted]);
    given([registered()]).when(setRole('ADMIN'), system).then([promoted, { type: 'UserApproved', data: { userId, approvedBy: null, approvedAt: now } }]);
  });

  it('given an administrator, then ADMIN again is nothing and USER changes the role back', () => {
    given([registered(), confirmed, promoted]).when(setRole('ADMIN'), system).then([]);
    given([registered(), confirmed, promoted]).when(setRole('USER'), system).then([{ type: 'UserRoleChanged', data: { userId, role: 'USER', changedAt: now } }]);
  });

  it('is the system\'s only, and needs a live account', () => {
    given([registered(), confirmed]).when(setRole('ADMIN'), admin).then('FORBIDDEN');
    given([]).when(setRole('ADMIN'), system).then('NOT_FOUND');
    given([registered(), { type: 'UserDeleted', data: { userId, deletedAt: now } }]).when(setRole('ADMIN'), system).then('NOT_FOUND');
  });
});

describe('isUserId', () => {
  it('accepts lower-case UUIDs only', () => {
    expect(isUserId(userId)).toBe(true);
    expect(isUserId(userId.toUpperCase())).toBe(false);
    expect(isUserId('user-11')).toBe(false);
    expect(isUserId(7)).toBe(false);
  });
});

describe('the public surface', () => {
  it('exports the account rules and deciders', () => {
    for (const name of ['accountDecider', 'createAccountDecider', 'settingsDecider', 'DEFAULT_SETTINGS', 'isUserId', 'PASSWORD_MAX',
      'assertValidNewPassword', 'emailComparisonForm', 'teamNameComparisonForm', 'joinCodeComparisonForm', 'teamOfJoinCode',
      'assertRegistrationOpen']) {
      expect(domain, name).toHaveProperty(name);
    }
  });

  it('keeps the account’s e-mail and name erasable with the participant (or the admin’s own subject)', () => {
    expect(domain.PERSONAL_DATA_FIELDS.UserRegistered).toEqual({ subject: 'participantId', fields: ['email', 'fullName'] });
    expect(domain.PERSONAL_DATA_FIELDS.AdminRegistered).toEqual({ subject: 'userId', fields: ['email', 'fullName'] });
    expect(domain.streams.user(userId)).toBe(`user-${userId}`);
    expect(domain.streams.settings()).toBe('settings');
  });
});
