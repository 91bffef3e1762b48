/**
 * The user account aggregate (stream user-{userId}) as a decider: registration, confirmation,
 * approval, role, and the password's life cycle. The password itself, its hash and the token
 * hashes are not the decider's: the caller checks them against its secret tables and passes the
 * verdict in (tokenValid, currentPasswordValid, passwordMatches); the new password's plain text
 * comes in only for the length rule and never reaches an event.
 */
import { match } from 'ts-pattern';
import { isPrivileged } from '../actors';
import { parseInstant } from '../dates';
import { editionOfDecision, type Decider, type DecisionContext } from '../decider';
import type { Edition } from '../edition/types';
import { DomainError } from '../errors';
import type { AccountEvent, MailLanguage, Role } from '../events';
import { isPlausibleEmail } from '../participant/decider';
import { requireBoolean, requireId, requireText } from '../validation';
import { assertRegistrationOpen, assertValidNewPassword } from './rules';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ROLES: readonly Role[] = ['USER', 'ADMIN'];
const LANGUAGES: readonly MailLanguage[] = ['est', 'eng'];

/** True when `value` has the shape of a user id (a lower-case UUID). */
export function isUserId(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** Create a participant's account (registration; the importer for the 2025 people). */
export interface RegisterUser {
  type: 'RegisterUser';
  data: {
    userId: string;
    participantId: number;
    email: string;
    fullName: string;
    /** USER, or ADMIN (administrators and the system only). */
    role: Role;
    /** True only when an administrator or the system creates the account. */
    approved: boolean;
    hasPassword: boolean;
    lang: MailLanguage;
    /** The registration switch (settings stream) at the time of the decision. */
    registrationEnabled: boolean;
  };
}

/** The confirmation link was followed; tokenValid says whether its token is live and this user's. */
export interface ConfirmAccount {
  type: 'ConfirmAccount';
  data: { userId: string; tokenValid: boolean };
}

/** Set the approved flag (spec §4 "Admin may approve"; the admin console's toggle). */
export interface SetApproval {
  type: 'SetApproval';
  data: { userId: string; approved: boolean };
}

/** The user changes their own password (spec §2 Account, §5 INVALID_PASSWORD). */
export interface ChangePassword {
  type: 'ChangePassword';
  data: { userId: string; currentPasswordValid: boolean; newPassword: string };
}

/** A reset link is about to be mailed (spec §2 forgot password); valid until expiresAt. */
export interface RequestPasswordReset {
  type: 'RequestPasswordReset';
  data: { userId: string; expiresAt: string };
}

/** The reset link was used with a new password; tokenValid as for ConfirmAccount. */
export interface CompletePasswordReset {
  type: 'CompletePasswordReset';
  data: { userId: string; tokenValid: boolean; newPassword: string };
}

/**
 * Make sure an approved administrator with this e-mail and password exists (ADMIN_EMAIL and
 * ADMIN_PASSWORD at start). passwordMatches: whether the stored password already is that one.
 */
export interface EnsureAdmin {
  type: 'EnsureAdmin';
  data: { userId: string; email: string; fullName: string; password: string; passwordMatches: boolean };
}

/**
 * An administrator sets a new password for the account (spec §2 admin reset-password tab: the
 * browser generates it and sends it; §7 POST /admin/resetpassword). Only its length reaches the
 * decider's rules; the hash is the caller's.
 */
export interface ResetPasswordAsAdmin {
  type: 'ResetPasswordAsAdmin';
  data: { userId: string; newPassword: string };
}

/**
 * An administrator deletes the account (spec §7 PUT /admin/deleteentities/user), or its owner
 * erases it (POST /api/me/erase): then `ownPasswordValid` carries the verdict of
 * the caller's check of the password the owner typed (the hash is not the decider's).
 */
export interface DeleteUser {
  type: 'DeleteUser';
  data: { userId: string; ownPasswordValid?: boolean };
}

/**
 * The operator makes an account an administrator or a participant again (`npm run admin -- add|remove
 * EMAIL`, SYSTEM only): the role ADMIN_EMAIL's bootstrap gives, without touching the password.
 */
export interface SetRole {
  type: 'SetRole';
  data: { userId: string; role: Role };
}

/**
 * The account's owner joins another edition (POST /api/me/editions/{year}/join) as the new
 * participant `participantId`, decided in the same append as that participant.
 * `editionsTakenPart`: the editions of the account's participants so far, as the caller read
 * them from their streams (the account's events do not carry their editions).
 */
export interface JoinEdition {
  type: 'JoinEdition';
  data: { userId: string; participantId: number; edition: number; editionsTakenPart: readonly number[] };
}

export type AccountCommand =
  | JoinEdition
  | SetRole
  | ResetPasswordAsAdmin
  | DeleteUser
  | RegisterUser
  | ConfirmAccount
  | SetApproval
  | ChangePassword
  | RequestPasswordReset
  | CompletePasswordReset
  | EnsureAdmin;

export interface AccountState {
  exists: boolean;
  userId: string | null;
  /**
   * The participant of the latest edition the person joined (registration, then each
   * UserJoinedEdition); null for an account without a participant (the first administrator).
   */
  participantId: number | null;
  /** Every participant of the account, oldest first: one per edition the person took part in. */
  participantIds: readonly number[];
  role: Role;
  /** Personal data; null before registration or once erased. */
  email: string | null;
  fullName: string | null;
  approved: boolean;
  /**
   * True while an administrator's withdrawal of the approval stands: the confirmation link then
   * approves nothing and a login mails no new link (only an administrator approves again).
   */
  approvalRevoked: boolean;
  hasPassword: boolean;
  lang: MailLanguage;
  /** ISO-8601 UTC. */
  registeredAt: string | null;
  /** True once an administrator deleted the account (UserDeleted): it cannot log in. */
  deleted: boolean;
}

const initialAccountState = (): AccountState => ({
  exists: false,
  userId: null,
  participantId: null,
  participantIds: [],
  role: 'USER',
  email: null,
  fullName: null,
  approved: false,
  approvalRevoked: false,
  hasPassword: false,
  lang: 'est',
  registeredAt: null,
  deleted: false,
});

function requireUserId(value: unknown): string {
  if (!isUserId(value)) throw new DomainError('INVALID_REQUEST', 'userId must be a UUID');
  return value;
}

function requireEmail(value: unknown, edition: Edition): string {
  const email = requireText(value, 'email', { max: edition.limits.emailMax, required: true, emptyCode: 'INVALID_EMAIL', typeCode: 'INVALID_EMAIL' });
  if (!isPlausibleEmail(email)) throw new DomainError('INVALID_EMAIL');
  return email;
}

function registerUser(command: RegisterUser, state: AccountState, ctx: DecisionContext, edition: Edition): AccountEvent[] {
  const c = command.data;
  assertRegistrationOpen(requireBoolean(c.registrationEnabled, 'registrationEnabled'), ctx.actor);
  const userId = requireUserId(c.userId);
  const participantId = requireId(c.participantId, 'participantId');
  if (state.exists) throw new DomainError('ALREADY_EXISTS', `user ${userId} is already registered`);
  const email = requireEmail(c.email, edition);
  const fullName = requireText(c.fullName, 'fullName', { max: edition.limits.fullNameMax, required: true });
  if (!ROLES.includes(c.role)) throw new DomainError('INVALID_REQUEST', 'role must be USER or ADMIN');
  if (!LANGUAGES.includes(c.lang)) throw new DomainError('INVALID_REQUEST', 'lang must be est or eng');
  const approved = requireBoolean(c.approved, 'approved');
  const hasPassword = requireBoolean(c.hasPassword, 'hasPassword');
  if ((approved || c.role === 'ADMIN') && !isPrivileged(ctx.actor)) {
    throw new DomainError('FORBIDDEN', 'only an administrator or the system creates approved or admin accounts');
  }
  return [
    {
      type: 'UserRegistered',
      data: { userId, participantId, role: c.role, email, fullName, approved, hasPassword, lang: c.lang, registeredAt: ctx.now },
    },
  ];
}

function confirmAccount(command: ConfirmAccount, state: AccountState, ctx: DecisionContext): AccountEvent[] {
  // One code for every failure (spec §8: "Invalid link or account is already confirmed").
  if (!command.data.tokenValid || !state.exists || state.deleted || state.approved || state.approvalRevoked || state.userId !== command.data.userId) {
    throw new DomainError('INVALID_ACCOUNT_TOKEN');
  }
  return [{ type: 'AccountConfirmed', data: { userId: state.userId, confirmedAt: ctx.now } }];
}

function setApproval(command: SetApproval, state: AccountState, ctx: DecisionContext): AccountEvent[] {
  const userId = requireUserId(command.data.userId);
  const approved = requireBoolean(command.data.approved, 'approved');
  if (!isPrivileged(ctx.actor)) throw new DomainError('FORBIDDEN', 'only an administrator approves accounts');
  requireLiveAccount(state, userId);
  if (state.approved === approved) return [];
  const by = ctx.actor.userId;
  return approved
    ? [{ type: 'UserApproved', data: { userId, approvedBy: by, approvedAt: ctx.now } }]
    : [{ type: 'UserApprovalRevoked', data: { userId, revokedBy: by, revokedAt: ctx.now } }];
}

function changePassword(command: ChangePassword, state: AccountState, ctx: DecisionContext, edition: Edition): AccountEvent[] {
  const userId = requireUserId(command.data.userId);
  if (ctx.actor.userId !== userId) throw new DomainError('FORBIDDEN', 'a password is changed by its owner');
  if (!state.exists || state.deleted) throw new DomainError('UNAUTHORIZED', `user ${userId} does not exist`);
  // An account without a password (imported) has no current password that could be right.
  if (!state.hasPassword || !command.data.currentPasswordValid) throw new DomainError('INVALID_PASSWORD');
  assertValidNewPassword(command.data.newPassword, edition);
  return [{ type: 'PasswordChanged', data: { userId, changedAt: ctx.now } }];
}

function requestPasswordReset(command: RequestPasswordReset, state: AccountState, ctx: DecisionContext): AccountEvent[] {
  // Spec §5: the reset needs a "valid known email"; the caller found no account otherwise.
  if (!state.exists || state.deleted || state.userId !== command.data.userId) throw new DomainError('INVALID_EMAIL');
  const expiresAt = command.data.expiresAt;
  if (typeof expiresAt !== 'string' || parseInstant(expiresAt) <= parseInstant(ctx.now)) {
    throw new DomainError('INVALID_REQUEST', 'expiresAt must be an instant after now');
  }
  return [{ type: 'PasswordResetRequested', data: { userId: state.userId, requestedAt: ctx.now, expiresAt } }];
}

function completePasswordReset(command: CompletePasswordReset, state: AccountState, ctx: DecisionContext, edition: Edition): AccountEvent[] {
  if (!command.data.tokenValid || !state.exists || state.deleted || state.userId !== command.data.userId) throw new DomainError('INVALID_RESET_TOKEN');
  assertValidNewPassword(command.data.newPassword, edition);
  return [{ type: 'PasswordResetCompleted', data: { userId: state.userId, completedAt: ctx.now } }];
}

/** A deleted account answers exactly like one that never existed (NOT_FOUND). */
function requireLiveAccount(state: AccountState, userId: string): void {
  if (!state.exists || state.deleted || state.userId !== userId) throw new DomainError('NOT_FOUND', `user ${userId}`);
}

function resetPasswordAsAdmin(command: ResetPasswordAsAdmin, state: AccountState, ctx: DecisionContext, edition: Edition): AccountEvent[] {
  const userId = requireUserId(command.data.userId);
  if (!isPrivileged(ctx.actor)) throw new DomainError('FORBIDDEN', 'only an administrator resets passwords');
  requireLiveAccount(state, userId);
  assertValidNewPassword(command.data.newPassword, edition);
  return [{ type: 'PasswordChanged', data: { userId, changedAt: ctx.now } }];
}

function deleteUser(command: DeleteUser, state: AccountState, ctx: DecisionContext): AccountEvent[] {
  const userId = requireUserId(command.data.userId);
  if (command.data.ownPasswordValid !== undefined) return eraseOwnAccount(userId, command.data.ownPasswordValid, state, ctx);
  if (!isPrivileged(ctx.actor)) throw new DomainError('FORBIDDEN', 'only an administrator deletes accounts');
  // Deleting oneself would lock the console's last administrator out (and is never what the
  // multi-select meant).
  if (ctx.actor.userId === userId) throw new DomainError('FORBIDDEN', 'an administrator cannot delete their own account');
  requireLiveAccount(state, userId);
  return [{ type: 'UserDeleted', data: { userId, deletedAt: ctx.now } }];
}

/**
 * The owner's own erasure: a participant's account only, by the participant
 * themself with their password. An administrator's account is not erased this way: it is the
 * console's, ADMIN_EMAIL's account is made again at every start, and another administrator may
 * delete it (FORBIDDEN here).
 */
function eraseOwnAccount(userId: string, passwordValid: boolean, state: AccountState, ctx: DecisionContext): AccountEvent[] {
  if (ctx.actor.role !== 'USER' || ctx.actor.userId !== userId) throw new DomainError('FORBIDDEN', 'only the owner erases their own account');
  requireLiveAccount(state, userId);
  if (state.role !== 'USER' || state.participantId === null) throw new DomainError('FORBIDDEN', 'an administrator account is deleted by another administrator');
  if (!passwordValid) throw new DomainError('INVALID_PASSWORD');
  return [{ type: 'UserDeleted', data: { userId, deletedAt: ctx.now } }];
}

function ensureAdmin(command: EnsureAdmin, state: AccountState, ctx: DecisionContext, edition: Edition): AccountEvent[] {
  const c = command.data;
  if (ctx.actor.role !== 'SYSTEM') throw new DomainError('FORBIDDEN', 'the first administrator is created by the system');
  const userId = requireUserId(c.userId);
  assertValidNewPassword(c.password, edition);
  if (!state.exists) {
    const email = requireEmail(c.email, edition);
    const fullName = requireText(c.fullName, 'fullName', { max: edition.limits.fullNameMax, required: true });
    return [{ type: 'AdminRegistered', data: { userId, email, fullName, registeredAt: ctx.now } }];
  }
  const events: AccountEvent[] = [];
  if (state.role !== 'ADMIN') events.push({ type: 'UserRoleChanged', data: { userId, role: 'ADMIN', changedAt: ctx.now } });
  if (!state.approved) events.push({ type: 'UserApproved', data: { userId, approvedBy: null, approvedAt: ctx.now } });
  if (!state.hasPassword || !c.passwordMatches) events.push({ type: 'PasswordChanged', data: { userId, changedAt: ctx.now } });
  return events;
}

function setRole(command: SetRole, state: AccountState, ctx: DecisionContext): AccountEvent[] {
  const userId = requireUserId(command.data.userId);
  const { role } = command.data;
  if (ctx.actor.role !== 'SYSTEM') throw new DomainError('FORBIDDEN', 'roles are set by the operator');
  if (role !== 'ADMIN' && role !== 'USER') throw new DomainError('INVALID_REQUEST', `role ${String(role)}`);
  requireLiveAccount(state, userId);
  const events: AccountEvent[] = [];
  if (state.role !== role) events.push({ type: 'UserRoleChanged', data: { userId, role, changedAt: ctx.now } });
  // An administrator logs in as ADMIN_EMAIL's does: approved (as after EnsureAdmin).
  if (role === 'ADMIN' && !state.approved) events.push({ type: 'UserApproved', data: { userId, approvedBy: null, approvedAt: ctx.now } });
  return events;
}

function joinEdition(command: JoinEdition, state: AccountState, ctx: DecisionContext): AccountEvent[] {
  const userId = requireUserId(command.data.userId);
  const participantId = requireId(command.data.participantId, 'participantId');
  const edition = requireId(command.data.edition, 'edition');
  if (ctx.actor.role !== 'USER' || ctx.actor.userId !== userId) throw new DomainError('FORBIDDEN', 'a person joins an edition themself');
  requireLiveAccount(state, userId);
  if (state.participantId === null) throw new DomainError('FORBIDDEN', 'an account without a participant takes part in no edition');
  if (command.data.editionsTakenPart.includes(edition) || state.participantIds.includes(participantId)) {
    throw new DomainError('ALREADY_EXISTS', `user ${userId} already takes part in ${edition}`);
  }
  return [{ type: 'UserJoinedEdition', data: { userId, participantId, edition, joinedAt: ctx.now } }];
}

function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  return match(event)
    .with({ type: 'UserRegistered' }, ({ data }) => ({
      ...state,
      exists: true,
      userId: data.userId,
      participantId: data.participantId,
      participantIds: [data.participantId],
      role: data.role,
      email: data.email,
      fullName: data.fullName,
      approved: data.approved,
      hasPassword: data.hasPassword,
      lang: data.lang,
      registeredAt: data.registeredAt,
    }))
    .with({ type: 'AdminRegistered' }, ({ data }) => ({
      ...state,
      exists: true,
      userId: data.userId,
      participantId: null,
      participantIds: [],
      role: 'ADMIN' as const,
      email: data.email,
      fullName: data.fullName,
      approved: true,
      hasPassword: true,
      registeredAt: data.registeredAt,
    }))
    .with({ type: 'AccountConfirmed' }, () => ({ ...state, approved: true }))
    .with({ type: 'UserApproved' }, () => ({ ...state, approved: true, approvalRevoked: false }))
    .with({ type: 'UserApprovalRevoked' }, () => ({ ...state, approved: false, approvalRevoked: true }))
    .with({ type: 'UserRoleChanged' }, ({ data }) => ({ ...state, role: data.role }))
    .with({ type: 'PasswordChanged' }, () => ({ ...state, hasPassword: true }))
    .with({ type: 'PasswordResetRequested' }, () => state)
    .with({ type: 'PasswordResetCompleted' }, () => ({ ...state, hasPassword: true }))
    .with({ type: 'UserDeleted' }, () => ({ ...state, deleted: true, email: null, fullName: null }))
    .with({ type: 'UserJoinedEdition' }, ({ data }) => ({
      ...state, participantId: data.participantId, participantIds: [...state.participantIds, data.participantId],
    }))
    .exhaustive();
}

/**
 * The account decider for an edition (its limits apply).
 *
 * - RegisterUser → [UserRegistered] (registeredAt = ctx.now; e-mail and name trimmed).
 *   REGISTRATION_DISABLED while the switch is off (not for ADMIN/SYSTEM); userId a UUID and
 *   participantId a positive integer (INVALID_REQUEST); e-mail plausible (INVALID_EMAIL), ≤ 264
 *   (VALUE_TOO_LONG); full name required (INVALID_REQUEST), ≤ 32 (VALUE_TOO_LONG); an approved or
 *   ADMIN account only by ADMIN/SYSTEM (FORBIDDEN); a second registration → ALREADY_EXISTS.
 * - ConfirmAccount → [AccountConfirmed]; a dead token, an unknown or already approved account, or
 *   one whose approval an administrator withdrew → INVALID_ACCOUNT_TOKEN (spec §8).
 * - SetApproval → [UserApproved] / [UserApprovalRevoked], [] when unchanged; ADMIN/SYSTEM only
 *   (FORBIDDEN); unknown account → NOT_FOUND.
 * - ChangePassword → [PasswordChanged]; only the owner (FORBIDDEN); a wrong current password or
 *   none at all → INVALID_PASSWORD; the new one 6..128 characters (PASSWORD_TOO_SHORT,
 *   VALUE_TOO_LONG).
 * - RequestPasswordReset → [PasswordResetRequested]; unknown account → INVALID_EMAIL (spec §5).
 * - CompletePasswordReset → [PasswordResetCompleted]; a dead token or unknown account →
 *   INVALID_RESET_TOKEN; the new password as for ChangePassword.
 * - EnsureAdmin (SYSTEM only) → [AdminRegistered] for a new account, else whichever of
 *   UserRoleChanged, UserApproved, PasswordChanged is needed ([] when all is as wanted).
 * - SetRole (SYSTEM only, else FORBIDDEN) → [UserRoleChanged] when the role differs, plus
 *   [UserApproved] for a new ADMIN not yet approved; unknown or deleted account → NOT_FOUND.
 * - ResetPasswordAsAdmin → [PasswordChanged] (spec §2 admin reset password); ADMIN/SYSTEM only
 *   (FORBIDDEN); unknown or deleted account → NOT_FOUND; the new password 6..128 characters
 *   (PASSWORD_TOO_SHORT, VALUE_TOO_LONG).
 * - DeleteUser → [UserDeleted]; ADMIN/SYSTEM only (FORBIDDEN); an administrator's own account →
 *   FORBIDDEN; unknown or already deleted → NOT_FOUND. With `ownPasswordValid` (the owner's
 *   erasure): the acting USER's own participant account only (FORBIDDEN
 *   otherwise, administrators included), a wrong password → INVALID_PASSWORD.
 *
 * - JoinEdition → [UserJoinedEdition]; only the account's owner, a USER (FORBIDDEN); unknown or
 *   deleted account → NOT_FOUND; an account without a participant → FORBIDDEN; an edition the
 *   person takes part in already, or a participant id the account has → ALREADY_EXISTS.
 *
 * A deleted account (UserDeleted) answers every command as an unknown account would: SetApproval
 * NOT_FOUND, ConfirmAccount INVALID_ACCOUNT_TOKEN, RequestPasswordReset INVALID_EMAIL,
 * CompletePasswordReset INVALID_RESET_TOKEN, ChangePassword UNAUTHORIZED; RegisterUser
 * ALREADY_EXISTS (ids are never reused).
 */
export function createAccountDecider(fixed?: Edition): Decider<AccountCommand, AccountEvent, AccountState> {
  return {
    initialState: initialAccountState,
    decide: (command, state, ctx) =>
      match(command)
        .with({ type: 'RegisterUser' }, (c) => registerUser(c, state, ctx, editionOfDecision(fixed, ctx)))
        .with({ type: 'ConfirmAccount' }, (c) => confirmAccount(c, state, ctx))
        .with({ type: 'SetApproval' }, (c) => setApproval(c, state, ctx))
        .with({ type: 'ChangePassword' }, (c) => changePassword(c, state, ctx, editionOfDecision(fixed, ctx)))
        .with({ type: 'RequestPasswordReset' }, (c) => requestPasswordReset(c, state, ctx))
        .with({ type: 'CompletePasswordReset' }, (c) => completePasswordReset(c, state, ctx, editionOfDecision(fixed, ctx)))
        .with({ type: 'EnsureAdmin' }, (c) => ensureAdmin(c, state, ctx, editionOfDecision(fixed, ctx)))
        .with({ type: 'ResetPasswordAsAdmin' }, (c) => resetPasswordAsAdmin(c, state, ctx, editionOfDecision(fixed, ctx)))
        .with({ type: 'DeleteUser' }, (c) => deleteUser(c, state, ctx))
        .with({ type: 'SetRole' }, (c) => setRole(c, state, ctx))
        .with({ type: 'JoinEdition' }, (c) => joinEdition(c, state, ctx))
        .exhaustive(),
    evolve: evolveAccount,
  };
}

/** The account decider of the decision's edition, the context's (see createAccountDecider). */
export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = createAccountDecider();
