/**
 * Sessions (spec §7 POST /login, POST /session/refresh, POST /session/logout): startSession,
 * refreshSession, renewSession (after the caller's own password change) and endSession answer the
 * claims of a short-lived access token — spec §3's identity plus the account's session version `sv`
 * and the session (refresh-token family) `sid` — and an opaque refresh token whose SHA-256 is
 * stored (app.refresh_tokens). Sessions write no events: only the account tables
 * (AccountDirectory), each change in one transaction.
 */
import { randomUUID } from 'node:crypto';
import { DomainError, isUserId, type AccountState } from '@sinilill/domain';
import { confirmationMail } from '@sinilill/mail';
import type { SessionState } from './directory';
import { dummyPasswordHash, newToken, tokenHash, verifyPassword } from './secrets';
import {
  accountState,
  confirmationLink,
  hours,
  identityOf,
  trySend,
  type AccountDeps,
  type IssuedSession,
  type SessionIdentity,
} from './shared';

/** An account id no account has (UUIDs are never all zeros): looked up for unknown e-mails. */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

/**
 * Checks e-mail and password (spec §7 POST /login) and answers the session identity (spec §3)
 * for the token. Every wrong combination takes one argon2 verification, known e-mail or not.
 * @throws DomainError INVALID_CREDENTIALS (unknown e-mail, wrong password, an imported
 *   account without a password yet, or a deleted account); USER_NOT_APPROVED after mailing a new confirmation link
 *   (spec §4), only when the password was right (no link when an administrator withdrew the
 *   approval).
 */
export async function login(deps: AccountDeps, input: { email: string; password: string }, now: Date = deps.now()): Promise<SessionIdentity> {
  const { account } = await signIn(deps, input, now);
  return identityOf(deps.store, account);
}

/**
 * Logs in (spec §7 POST /login) and starts a session: a new session family with its
 * first refresh token. Answers the access token's claims (spec §3 identity, `sv`, `sid`) and the
 * refresh token for the cookie.
 * @throws DomainError as login: INVALID_CREDENTIALS, USER_NOT_APPROVED.
 */
export async function startSession(deps: AccountDeps, input: { email: string; password: string }, now: Date = deps.now()): Promise<IssuedSession> {
  const { account, version } = await signIn(deps, input, now);
  return issueSession(deps, account, version, now);
}

/**
 * A new session for an account whose caller was just authenticated by other means — after the
 * caller's own password change, which ended every session of the account, the caller's too.
 * @throws DomainError('UNAUTHORIZED') when the account is gone, deleted or not approved.
 */
export async function renewSession(deps: AccountDeps, userId: string, now: Date = deps.now()): Promise<IssuedSession> {
  if (!isUserId(userId)) throw new DomainError('UNAUTHORIZED', 'not an account');
  // The version first, then the events (see AccountDirectory.openSessionVersion).
  const version = await deps.directory.openSessionVersion(userId, now);
  const account = await accountState(deps.store, userId);
  if (version === null || !account.exists || account.deleted || !account.approved) throw new DomainError('UNAUTHORIZED', 'no live, approved account');
  return issueSession(deps, account, version, now);
}

/**
 * How long a used refresh token may be traded again, s. A refresh whose answer never reached the
 * browser (a navigation aborted it, a connection dropped) leaves the browser with the used cookie;
 * without a window its next refresh ended the session, which the browser tests saw after a payment
 * page navigated away mid-refresh. 30 s is Okta's default "grace period for token rotation"
 * (Auth0 calls it the reuse interval); a copy used later than that still ends the session.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 30;

/**
 * Trades a refresh token for a new access token and a new refresh token of the same family
 * (POST /session/refresh). The claims are read from the log again, so the session
 * follows what changed since (a payment's isPaid, a rename). Each refresh token works once, and
 * again only within REFRESH_REUSE_GRACE_SECONDS of its first use (each time for a new successor);
 * a use after that (the token was copied) revokes the whole family, so no copy works any more
 * and the family's access tokens are refused too.
 * @throws DomainError('UNAUTHORIZED') for an unknown, expired, used or revoked token, a token
 *   issued under an older session version, or an account that is gone, deleted or no longer
 *   approved.
 */
export async function refreshSession(deps: AccountDeps, refreshToken: string, now: Date = deps.now()): Promise<IssuedSession> {
  const hash = tokenHash(refreshToken);
  const next = newToken();
  const expiresAt = new Date(now.getTime() + deps.refreshValidSeconds * 1000);
  // A refusal that revokes something must commit: it is answered after the transaction.
  const outcome = await deps.directory.transaction(async (tx): Promise<{ refused: string } | { account: AccountState; version: number; familyId: string }> => {
    const record = await tx.refreshTokenForUpdate(hash);
    if (!record) return { refused: 'unknown refresh token' };
    if (record.familyRevoked) return { refused: 'session ended' };
    if (record.usedAt !== null && now.getTime() - record.usedAt.getTime() > REFRESH_REUSE_GRACE_SECONDS * 1000) {
      await tx.revokeSessionFamily(record.familyId, now);
      return { refused: 'refresh token used twice: session revoked' };
    }
    if (record.expiresAt <= now) return { refused: 'refresh token expired' };
    // The version first, then the events (see AccountDirectory.openSessionVersion).
    const current = await tx.sessionVersion(record.userId);
    const account = await accountState(deps.store, record.userId);
    if (!current || current.ended || current.version !== record.sessionVersion || !account.exists || account.deleted || !account.approved) {
      await tx.revokeSessionFamily(record.familyId, now);
      return { refused: 'session version raised or account no longer live' };
    }
    if (record.usedAt === null) await tx.useRefreshToken(hash, now);
    await tx.addRefreshToken(next.hash, {
      familyId: record.familyId, userId: record.userId, sessionVersion: current.version, createdAt: now, expiresAt,
    });
    return { account, version: current.version, familyId: record.familyId };
  });
  if ('refused' in outcome) throw new DomainError('UNAUTHORIZED', outcome.refused);
  return {
    claims: { ...(await identityOf(deps.store, outcome.account)), sv: outcome.version, sid: outcome.familyId },
    refreshToken: next.token,
    refreshExpiresAt: expiresAt,
    refreshMaxAgeSeconds: deps.refreshValidSeconds,
  };
}

/**
 * Ends the session of a refresh token (POST /session/logout): its family is revoked, so its
 * refresh tokens and access tokens stop working at once. Unknown tokens are ignored.
 */
export async function endSession(deps: AccountDeps, refreshToken: string, now: Date = deps.now()): Promise<void> {
  await deps.directory.transaction(async (tx) => {
    const record = await tx.refreshTokenForUpdate(tokenHash(refreshToken));
    if (record) await tx.revokeSessionFamily(record.familyId, now);
  });
}

/**
 * The session state an access token of `userId` and session `sessionId` is checked against
 * (every authenticated request; see AccountDirectory.sessionState), or null when the account
 * never had a session.
 */
export function session(deps: AccountDeps, userId: string, sessionId: string): Promise<SessionState | null> {
  return deps.directory.sessionState(userId, sessionId);
}

/**
 * Checks e-mail and password and answers the live, approved account with its session version,
 * read before the account's events (AccountDirectory.openSessionVersion).
 * @throws DomainError INVALID_CREDENTIALS, USER_NOT_APPROVED (see login).
 */
async function signIn(deps: AccountDeps, input: { email: string; password: string }, now: Date): Promise<{ account: AccountState; version: number }> {
  const { directory } = deps;
  const userId = await directory.userIdOfEmail(input.email);
  // The hash is looked up for an unknown e-mail too (under an id no account has), so both
  // refusals do the same database work and the same argon2 verification: the answer's timing
  // does not tell whether an e-mail is registered.
  const stored = await directory.passwordHash(userId ?? NO_ACCOUNT);
  const matches = await verifyPassword(stored ?? (await dummyPasswordHash()), input.password);
  if (userId === null || stored === null || !matches) throw new DomainError('INVALID_CREDENTIALS');
  const version = await directory.openSessionVersion(userId, now);
  const account = await accountState(deps.store, userId);
  // Erasure deletes the e-mail row and the hash, so a deleted account stops above; this guards
  // a deletion whose table changes did not happen (an older run, a manual restore).
  if (version === null || !account.exists || account.deleted) throw new DomainError('INVALID_CREDENTIALS', 'no live account');
  if (!account.approved) {
    // A withdrawn approval is an administrator's decision: a new link would not undo it.
    if (!account.approvalRevoked) await resendConfirmation(deps, account, now);
    throw new DomainError('USER_NOT_APPROVED');
  }
  return { account, version };
}

/** A new session family of the account with its first refresh token, under session version `version`. */
async function issueSession(deps: AccountDeps, account: AccountState, version: number, now: Date): Promise<IssuedSession> {
  const userId = account.userId!;
  const familyId = randomUUID();
  const refresh = newToken();
  const expiresAt = new Date(now.getTime() + deps.refreshValidSeconds * 1000);
  await deps.directory.transaction(async (tx) => {
    await tx.pruneRefreshTokens(userId, now);
    await tx.addSessionFamily(familyId, userId, now);
    await tx.addRefreshToken(refresh.hash, { familyId, userId, sessionVersion: version, createdAt: now, expiresAt });
  });
  return {
    claims: { ...(await identityOf(deps.store, account)), sv: version, sid: familyId },
    refreshToken: refresh.token,
    refreshExpiresAt: expiresAt,
    refreshMaxAgeSeconds: deps.refreshValidSeconds,
  };
}

/**
 * Mails a new confirmation link (valid confirmationValidHours) to an unapproved account that
 * logged in with the right password (spec §4); a mail failure is reported to onMailError only.
 */
async function resendConfirmation(deps: AccountDeps, account: AccountState, now: Date): Promise<void> {
  if (!account.email || !account.userId) return;
  const userId = account.userId;
  const confirmation = newToken();
  await deps.directory.transaction((tx) => tx.addToken(confirmation.hash, userId, 'confirm', now, hours(now, deps.confirmationValidHours)));
  const mail = confirmationMail({ email: account.email, fullName: account.fullName ?? '' }, confirmationLink(deps, confirmation.token, userId), account.lang);
  await trySend(deps, mail, 'confirmation');
}
