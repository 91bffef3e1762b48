/**
 * Account commands (spec §2 Account, Password reset and Confirmation; §4 account states; §7
 * /confirmaccount, /requestpasswordreset, /resetpassword, /account/changepassword, PUT
 * /admin/user/{id}, POST /admin/resetpassword; ADMIN_EMAIL at start). Each runs the account
 * decider on the write path (execute-command.ts, handleCommand) inside one
 * AccountDirectory transaction that first changes the secrets and tokens: a refusal or a failed
 * append rolls them back. What should end an account's sessions raises its session version in
 * that transaction: a password change, a reset, a withdrawn approval, a role change or
 * a new password from ensureAdmin.
 */
import { randomUUID } from 'node:crypto';
import {
  DomainError,
  accountDecider,
  assertValidNewPassword,
  emailComparisonForm,
  isPlausibleEmail,
  isPrivileged,
  isUserId,
  streams,
  type AccountState,
  type DecisionContext,
  type MailLanguage,
} from '@sinilill/domain';
import { passwordResetMail } from '@sinilill/mail';
import { assertStrongPassword } from './password-strength';
import { hashPassword, newToken, tokenHash, verifyPassword } from './secrets';
import { handleCommand } from '../execute-command';
import { deterministicUuid, eventIdFor, type CommandRequest } from '../metadata';
import { readSettings } from '../settings/settings-cache';
import { ADMIN_FULL_NAME, SYSTEM, accountContext, accountEdition, accountState, hours, type AccountDeps } from './shared';

/**
 * Follows a confirmation link (spec §7 POST /confirmaccount {token, id}): the account becomes
 * approved and every confirmation link of it is spent.
 * @throws DomainError('INVALID_ACCOUNT_TOKEN') for an unknown, used, expired or foreign token,
 *   or an account that is already approved (spec §8).
 */
export async function confirmAccount(deps: AccountDeps, input: { userId: string; token: string }, request: CommandRequest): Promise<{ position: number }> {
  const { ctx, now } = await accountContext(deps, request);
  const { userId } = input;
  if (!isUserId(userId)) throw new DomainError('INVALID_ACCOUNT_TOKEN');
  return deps.directory.transaction(async (tx) => {
    const token = await tx.tokenForUpdate(tokenHash(input.token), 'confirm');
    const tokenValid = token !== null && token.userId === userId && token.usedAt === null && token.expiresAt > now;
    await tx.useTokens(userId, 'confirm', now);
    const result = await handleCommand(deps.store, streams.user(userId), accountDecider,
      { type: 'ConfirmAccount', data: { userId, tokenValid } }, ctx, request.metadata);
    return { position: result.position };
  });
}

/**
 * Mails a single-use password-reset link valid for resetValidHours (default 2) in `lang`
 * (spec §2 forgot password). Earlier reset links of the account stop working. Imported people
 * (no password yet) set their first password this way. An address without an account gets the
 * same answer and no mail (spec §7 /requestpasswordreset: nobody learns which addresses are
 * registered); the position is then the log's head.
 * @throws DomainError('INVALID_EMAIL') for an address that is not one (spec §5); the mail's
 *   failure is thrown as it is (the person should try again).
 */
export async function requestPasswordReset(deps: AccountDeps, input: { email: string; lang: MailLanguage }, request: CommandRequest): Promise<{ position: number }> {
  if (!isPlausibleEmail(input.email.trim())) throw new DomainError('INVALID_EMAIL');
  const userId = await deps.directory.userIdOfEmail(input.email);
  const issued = userId === null ? null : await issueResetLink(deps, userId, request);
  if (!issued) return { position: await deps.store.headPosition() };
  await deps.mailer.send(passwordResetMail({ email: issued.account.email!, fullName: issued.account.fullName ?? '' }, issued.link, input.lang, deps.resetValidHours));
  return { position: issued.position };
}

/**
 * A new single-use reset link of an account (`{publicUrl}/passwordreset/{token}/{userId}`, valid
 * resetValidHours; earlier reset links stop working), with the account and the position of the
 * PasswordResetRequested event; null for an account that does not exist or has no e-mail.
 */
export async function issueResetLink(deps: AccountDeps, userId: string, request: CommandRequest): Promise<{ link: string; account: AccountState; position: number } | null> {
  const { ctx, now } = await accountContext(deps, request);
  const account = await accountState(deps.store, userId);
  if (!account.exists || !account.email) return null;
  const reset = newToken();
  const expiresAt = hours(now, deps.resetValidHours);
  const result = await deps.directory.transaction(async (tx) => {
    await tx.useTokens(userId, 'reset', now);
    await tx.addToken(reset.hash, userId, 'reset', now, expiresAt);
    return handleCommand(deps.store, streams.user(userId), accountDecider,
      { type: 'RequestPasswordReset', data: { userId, expiresAt: expiresAt.toISOString() } }, ctx, request.metadata);
  });
  return { link: `${deps.publicUrl}/passwordreset/${reset.token}/${userId}`, account, position: result.position };
}

/**
 * Sets a new password through a reset link (spec §7 POST /resetpassword {userId, token,
 * newPassword}). The token is spent, and so is every other reset link of the account. Answers the
 * account's e-mail too, so that the caller can clear the account's login limits (docs/decisions/0024).
 * @throws DomainError PASSWORD_TOO_SHORT / VALUE_TOO_LONG; PASSWORD_TOO_WEAK (judged with the
 *   account's e-mail and name); INVALID_RESET_TOKEN for an unknown, used, expired or
 *   foreign token.
 */
export async function resetPassword(deps: AccountDeps,
  input: { userId: string; token: string; newPassword: string },
  request: CommandRequest,
): Promise<{ position: number; email: string | null }> {
  const { ctx, now } = await accountContext(deps, request);
  const { userId } = input;
  assertValidNewPassword(input.newPassword, await accountEdition(deps));
  if (!isUserId(userId)) throw new DomainError('INVALID_RESET_TOKEN');
  const owner = await accountState(deps.store, userId);
  assertStrongPassword(input.newPassword, { email: owner.email, fullName: owner.fullName });
  const passwordHash = await hashPassword(input.newPassword);
  return deps.directory.transaction(async (tx) => {
    const token = await tx.tokenForUpdate(tokenHash(input.token), 'reset');
    const tokenValid = token !== null && token.userId === userId && token.usedAt === null && token.expiresAt > now;
    await tx.setPasswordHash(userId, passwordHash, now);
    await tx.useTokens(userId, 'reset', now);
    // Whoever knew the old password is logged out (rolled back with the rest when refused).
    await tx.raiseSessionVersion(userId, now);
    const result = await handleCommand(deps.store, streams.user(userId), accountDecider,
      { type: 'CompletePasswordReset', data: { userId, tokenValid, newPassword: input.newPassword } }, ctx, request.metadata);
    return { position: result.position, email: owner.email };
  });
}

/**
 * Changes the acting user's password (spec §7 PUT /account/changepassword). Open reset links
 * stop working, and so does every session of the account, the caller's too (the route
 * gives the caller a new one with renewSession).
 * @throws DomainError UNAUTHORIZED (the actor is not an account), PASSWORD_TOO_SHORT,
 *   VALUE_TOO_LONG, PASSWORD_TOO_WEAK (judged with the account's e-mail and name),
 *   INVALID_PASSWORD (wrong current password, spec §5).
 */
export async function changePassword(deps: AccountDeps, input: { currentPassword: string; newPassword: string }, request: CommandRequest): Promise<{ position: number }> {
  const { ctx, now } = await accountContext(deps, request);
  const userId = request.actor.userId;
  if (!isUserId(userId)) throw new DomainError('UNAUTHORIZED', 'not an account');
  assertValidNewPassword(input.newPassword, await accountEdition(deps));
  const owner = await accountState(deps.store, userId);
  assertStrongPassword(input.newPassword, { email: owner.email, fullName: owner.fullName });
  const passwordHash = await hashPassword(input.newPassword);
  return deps.directory.transaction(async (tx) => {
    const current = await tx.passwordHashForUpdate(userId);
    const currentPasswordValid = current !== null && (await verifyPassword(current, input.currentPassword));
    if (currentPasswordValid) {
      await tx.setPasswordHash(userId, passwordHash, now);
      await tx.useTokens(userId, 'reset', now);
      await tx.raiseSessionVersion(userId, now);
    }
    const result = await handleCommand(deps.store, streams.user(userId), accountDecider,
      { type: 'ChangePassword', data: { userId, currentPasswordValid, newPassword: input.newPassword } }, ctx, request.metadata);
    return { position: result.position };
  });
}

/**
 * Approves an account or withdraws the approval (spec §4 "Admin may approve"; the admin
 * console's toggle, PUT /admin/user/{id} {is_approved}). Withdrawing it ends every session of
 * the account at once.
 * @throws DomainError FORBIDDEN (not an administrator), NOT_FOUND.
 */
export async function setApproval(deps: AccountDeps, userId: string, approved: boolean, request: CommandRequest): Promise<{ position: number }> {
  const { ctx, now } = await accountContext(deps, request);
  if (!isUserId(userId)) throw new DomainError('NOT_FOUND', `user ${userId}`);
  return deps.directory.transaction(async (tx) => {
    if (!approved) await tx.raiseSessionVersion(userId, now);
    const result = await handleCommand(deps.store, streams.user(userId), accountDecider,
      { type: 'SetApproval', data: { userId, approved } }, ctx, request.metadata);
    return { position: result.position };
  });
}

/**
 * An administrator sets a user's password (spec §2 admin "Reset password": the browser
 * generates a random password and sends it; §7 POST /admin/resetpassword {userId,
 * newPassword}). The argon2id hash replaces the stored one and open reset links stop working,
 * in the transaction that appends PasswordChanged, and every session of the user ends.
 * The user logs in with it at once. The console's generated passwords (16 random letters
 * and digits) always pass the strength rule; one typed by hand is judged like any other.
 * @throws DomainError FORBIDDEN (not an administrator), NOT_FOUND (unknown, deleted or malformed
 *   user id), PASSWORD_TOO_SHORT (under 6, spec §5), VALUE_TOO_LONG (over 128),
 *   PASSWORD_TOO_WEAK.
 */
export async function adminResetPassword(deps: AccountDeps, userId: string, newPassword: string, request: CommandRequest): Promise<{ position: number }> {
  const { ctx, now } = await accountContext(deps, request);
  if (!isPrivileged(ctx.actor)) throw new DomainError('FORBIDDEN', 'only an administrator resets passwords');
  if (!isUserId(userId)) throw new DomainError('NOT_FOUND', `user ${userId}`);
  assertValidNewPassword(newPassword, await accountEdition(deps));
  const owner = await accountState(deps.store, userId);
  assertStrongPassword(newPassword, { email: owner.email, fullName: owner.fullName });
  const previous = await deps.store.findEvent(eventIdFor(request.metadata.commandId, 0));
  if (previous) return { position: previous.globalPosition };
  const passwordHash = await hashPassword(newPassword);
  return deps.directory.transaction(async (tx) => {
    await tx.setPasswordHash(userId, passwordHash, now);
    await tx.useTokens(userId, 'reset', now);
    await tx.raiseSessionVersion(userId, now);
    const result = await handleCommand(deps.store, streams.user(userId), accountDecider,
      { type: 'ResetPasswordAsAdmin', data: { userId, newPassword } }, ctx, request.metadata, { previous: null });
    return { position: result.position };
  });
}

/**
 * Creates or updates an approved ADMIN account with this e-mail and password (ADMIN_EMAIL and
 * ADMIN_PASSWORD at start). An existing account with the e-mail (a participant's, say) becomes
 * an approved admin with this password. Running it again with the same values appends nothing.
 * A role change or a new password ends the account's sessions.
 * @throws DomainError INVALID_EMAIL, PASSWORD_TOO_SHORT, VALUE_TOO_LONG, PASSWORD_TOO_WEAK (judged
 *   with the e-mail; a weak ADMIN_PASSWORD stops the command API at start).
 * @returns the admin's user id and whether anything changed.
 */
export async function ensureAdmin(deps: AccountDeps, email: string, password: string, now: Date = deps.now()): Promise<{ userId: string; changed: boolean; position: number }> {
  // An account belongs to no edition: the latest edition's limits apply to it.
  const edition = await accountEdition(deps, now);
  assertValidNewPassword(password, edition);
  assertStrongPassword(password, { email, fullName: ADMIN_FULL_NAME });
  const existing = await deps.directory.userIdOfEmail(email);
  // A new admin's id derives from the address, so two processes starting at once create one.
  const userId = existing ?? deterministicUuid(`admin:${emailComparisonForm(email)}`);
  const stored = existing ? await deps.directory.passwordHash(existing) : null;
  const passwordMatches = stored !== null && (await verifyPassword(stored, password));
  const passwordHash = passwordMatches ? null : await hashPassword(password);
  const commandId = existing ? `ensure-admin:${randomUUID()}` : `ensure-admin:${userId}:create`;
  const settings = await readSettings(deps.store);
  const ctx: DecisionContext = { now: now.toISOString(), actor: SYSTEM, entryInsertionEnabled: settings.entryInsertionEnabled, edition };
  const result = await deps.directory.transaction(async (tx) => {
    if (!existing) await tx.reserveEmail(email, userId);
    if (passwordHash) await tx.setPasswordHash(userId, passwordHash, now);
    const handled = await handleCommand(deps.store, streams.user(userId), accountDecider,
      { type: 'EnsureAdmin', data: { userId, email, fullName: ADMIN_FULL_NAME, password, passwordMatches } },
      ctx, { commandId, correlationId: commandId, causationId: null });
    // After the append, still in the transaction: a login in between reads the old version and
    // its token is refused (AccountDirectory.openSessionVersion).
    if (handled.events.some((event) => event.type === 'UserRoleChanged' || event.type === 'PasswordChanged')) {
      await tx.raiseSessionVersion(userId, now);
    }
    return handled;
  });
  return { userId, changed: result.events.length > 0, position: result.position };
}

/**
 * The operator gives the account of `email` a role (`npm run admin -- add|remove EMAIL`): ADMIN
 * (approved as well, as ADMIN_EMAIL's bootstrap leaves it) or USER again. The password stays; the
 * account's sessions end when the role changes (a token carries the role). `changed` is false
 * when the account already had the role.
 * @throws DomainError NOT_FOUND for an address without a (live) account.
 */
export async function setRoleOfEmail(deps: AccountDeps, email: string, role: 'ADMIN' | 'USER', now: Date = deps.now()): Promise<{ userId: string; changed: boolean; position: number }> {
  const userId = await deps.directory.userIdOfEmail(email);
  if (userId === null) throw new DomainError('NOT_FOUND', `no account has the address ${email}`);
  const settings = await readSettings(deps.store);
  const ctx: DecisionContext = { now: now.toISOString(), actor: SYSTEM, entryInsertionEnabled: settings.entryInsertionEnabled, edition: await accountEdition(deps, now) };
  const commandId = `set-role:${randomUUID()}`;
  const result = await deps.directory.transaction(async (tx) => {
    const handled = await handleCommand(deps.store, streams.user(userId), accountDecider,
      { type: 'SetRole', data: { userId, role } }, ctx, { commandId, correlationId: commandId, causationId: null });
    if (handled.events.some((event) => event.type === 'UserRoleChanged')) await tx.raiseSessionVersion(userId, now);
    return handled;
  });
  return { userId, changed: result.events.length > 0, position: result.position };
}
