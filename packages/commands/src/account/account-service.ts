/**
 * Accounts and sessions behind one object (spec §2 Registration, Login, Account, Password reset
 * and Confirmation; §4 account states; §5 validation; §7 /registerteam, /jointeam, /login,
 * /requestpasswordreset, /resetpassword, /confirmaccount, /account/changepassword and
 * sessions). A thin facade over the handlers: registration (account/registration.ts), the
 * account commands (account/handlers.ts), sessions (account/session.ts) and the administrators'
 * switches and parked events (settings/handlers.ts, operations/handlers.ts), each on the one
 * write path (execute-command.ts). Commands answer the global position of their last event; refusals throw DomainError with a catalogue code (spec §8).
 */
import type { AccountState, MailLanguage, Settings } from '@sinilill/domain';
import type { CommandRequest } from '../metadata';
import * as account from './handlers';
import {
  accountDeps,
  accountState,
  identityOf,
  type AccountDeps,
  type AccountServiceDependencies,
  type IssuedSession,
  type RegistrationInput,
  type RegistrationResult,
  type SessionIdentity,
} from './shared';
import { joinTeam, registerTeamWithCaptain, repeatedRegistration } from './registration';
import { joinEdition, type JoinEditionInput, type JoinEditionResult } from './join-edition';
import { inviteReturning } from './invite-returning';
import { KeyedMutex } from '../idempotency';
import { lastPositionOf, priorCommand } from '../repeats';
import * as sessions from './session';
import { retryParkedEvent, skipParkedEvent } from '../operations/handlers';
import { changeSettings } from '../settings/handlers';
import { readSettings } from '../settings/settings-cache';
import type { SessionState } from './directory';

export { ADMIN_FULL_NAME } from './shared';
export type { JoinEditionInput, JoinEditionResult } from './join-edition';
export type {
  AccessTokenClaims,
  AccountServiceDependencies,
  IssuedSession,
  RegistrationInput,
  RegistrationResult,
  SessionIdentity,
} from './shared';

/** The account and session commands (see the module's comment). */
export class AccountService {
  private readonly deps: AccountDeps;
  /** Keyed registrations in progress in this process, by command id. */
  private readonly inProgress = new KeyedMutex();

  constructor(deps: AccountServiceDependencies) {
    this.deps = accountDeps(deps);
  }

  /** The global switches (spec §4), from the settings stream. */
  settings(): Promise<Settings> {
    return readSettings(this.deps.store);
  }

  /** The account's state from its stream (not existing for an unknown or malformed id). */
  account(userId: string): Promise<AccountState> {
    return accountState(this.deps.store, userId);
  }

  /** The spec §3 session identity of an account; team, paid flag and name from the participant. */
  identity(state: AccountState): Promise<SessionIdentity> {
    return identityOf(this.deps.store, state);
  }

  /**
   * Registers a new team with the person as its captain, and the person's account (spec §2
   * REGISTER_TEAM): account/registration.ts registerTeamWithCaptain.
   * An address that already has an account creates nothing, answers alike (null ids) and gets a
   * mail with a login and a reset link instead.
   * @throws DomainError REGISTRATION_DISABLED, PASSWORD_TOO_SHORT, PASSWORD_TOO_WEAK, INVALID_EMAIL,
   *   INVALID_REQUEST, VALUE_TOO_LONG, TEAM_NAME_ALREADY_IN_USE.
   */
  registerTeam(input: RegistrationInput & { teamName: string; company?: boolean }, request: CommandRequest): Promise<RegistrationResult> {
    return this.keyed(request, () => registerTeamWithCaptain(this.deps, input, request));
  }

  /**
   * Registers the person into the team of a join code (spec §2 JOIN_TEAM): account/registration.ts.
   * @throws DomainError as registerTeam, plus INVALID_JOIN_CODE and JOIN_CODE_EXPIRED.
   */
  joinTeam(input: RegistrationInput & { joinCode: string }, request: CommandRequest): Promise<RegistrationResult> {
    return this.keyed(request, () => joinTeam(this.deps, input, request));
  }

  /**
   * The acting person joins edition `year`, the one taking registrations, with the account they
   * have (account/join-edition.ts): a new participant with their profile, in a new team, a team of
   * the edition by its join code, or a re-opened team of theirs. The account's earlier sessions
   * end (renewSession gives the caller a new one naming the new participant). Run it through
   * CommandService.idempotent for keyed requests: a repeat answers as the first run did.
   * @throws DomainError REGISTRATION_NOT_OPEN, ALREADY_EXISTS, TEAM_NAME_ALREADY_IN_USE,
   *   INVALID_JOIN_CODE, JOIN_CODE_EXPIRED, FORBIDDEN, NOT_FOUND, INVALID_REQUEST (see joinEdition).
   */
  joinEdition(year: number, input: JoinEditionInput, request: CommandRequest): Promise<JoinEditionResult> {
    return joinEdition(this.deps, year, input, request);
  }

  /**
   * A member of a re-opened team mails the earlier team's members who have not joined the new
   * edition, each in their language, with the new team's join code (account/invite-returning.ts).
   * @returns how many were invited.
   * @throws DomainError NOT_FOUND, FORBIDDEN, INVALID_REQUEST (the team continues no earlier team).
   */
  inviteReturning(teamId: number, request: CommandRequest): Promise<{ invited: number }> {
    return inviteReturning(this.deps, teamId, request);
  }

  /**
   * A registration with an Idempotency-Key: requests with one key take turns in
   * this process, and a repeat answers as the first run did (repeatedRegistration), appending and
   * mailing nothing; without a key it just runs.
   * @throws DomainError('IDEMPOTENCY_KEY_REUSED') for the key of another request; what `run` throws.
   */
  private keyed(request: CommandRequest, run: () => Promise<RegistrationResult>): Promise<RegistrationResult> {
    if (request.metadata.requestFingerprint === undefined) return run();
    return this.inProgress.run(request.metadata.commandId, async () => (await repeatedRegistration(this.deps, request)) ?? run());
  }

  /**
   * A keyed request (Idempotency-Key: a request fingerprint in the metadata) of a command with
   * effects besides its events (a mail sent, a token spent or issued, a password hash written):
   * requests with one key take turns in this process, and a repeat of a command that appended
   * answers `repeat` of the first run's position without running again (docs/decisions/0007,
   * 0108), so a retry mails nothing and spends nothing. A first run that appended nothing (an
   * unknown address's reset request, a refusal) runs again, as it had no effect. Without a key it
   * just runs. Another request under the key: IDEMPOTENCY_KEY_REUSED.
   */
  private once<T>(request: CommandRequest, run: () => Promise<T>, repeat: (position: number) => T): Promise<T> {
    if (request.metadata.requestFingerprint === undefined) return run();
    return this.inProgress.run(request.metadata.commandId, async () => {
      const prior = await priorCommand(this.deps.store, request.metadata);
      return prior ? repeat(await lastPositionOf(this.deps.store, prior)) : run();
    });
  }

  /** Follows a confirmation link (spec §7 POST /confirmaccount). @throws DomainError('INVALID_ACCOUNT_TOKEN'). */
  confirmAccount(input: { userId: string; token: string }, request: CommandRequest): Promise<{ position: number }> {
    return this.once(request, () => account.confirmAccount(this.deps, input, request), (position) => ({ position }));
  }

  /** Checks e-mail and password (spec §7 POST /login): the session identity. @throws DomainError INVALID_CREDENTIALS, USER_NOT_APPROVED. */
  login(input: { email: string; password: string }, now: Date = this.deps.now()): Promise<SessionIdentity> {
    return sessions.login(this.deps, input, now);
  }

  /** Logs in and starts a session. @throws DomainError INVALID_CREDENTIALS, USER_NOT_APPROVED. */
  startSession(input: { email: string; password: string }, now: Date = this.deps.now()): Promise<IssuedSession> {
    return sessions.startSession(this.deps, input, now);
  }

  /** A new session after the caller's own password change. @throws DomainError('UNAUTHORIZED'). */
  renewSession(userId: string, now: Date = this.deps.now()): Promise<IssuedSession> {
    return sessions.renewSession(this.deps, userId, now);
  }

  /** Trades a refresh token for a new session of the same family (POST /session/refresh). @throws DomainError('UNAUTHORIZED'). */
  refreshSession(refreshToken: string, now: Date = this.deps.now()): Promise<IssuedSession> {
    return sessions.refreshSession(this.deps, refreshToken, now);
  }

  /** Ends the session of a refresh token (POST /session/logout); unknown tokens are ignored. */
  endSession(refreshToken: string, now: Date = this.deps.now()): Promise<void> {
    return sessions.endSession(this.deps, refreshToken, now);
  }

  /** The session state an access token is checked against (every authenticated request), or null. */
  session(userId: string, sessionId: string): Promise<SessionState | null> {
    return sessions.session(this.deps, userId, sessionId);
  }

  /**
   * Mails a password-reset link (spec §2 forgot password); an unknown address answers alike and
   * gets nothing. @throws DomainError('INVALID_EMAIL') for a malformed address only.
   */
  requestPasswordReset(input: { email: string; lang: MailLanguage }, request: CommandRequest): Promise<{ position: number }> {
    return this.once(request, () => account.requestPasswordReset(this.deps, input, request), (position) => ({ position }));
  }

  /**
   * Sets a new password through a reset link (spec §7 POST /resetpassword).
   * @throws DomainError PASSWORD_TOO_SHORT, VALUE_TOO_LONG, PASSWORD_TOO_WEAK, INVALID_RESET_TOKEN.
   */
  resetPassword(input: { userId: string; token: string; newPassword: string }, request: CommandRequest): Promise<{ position: number; email: string | null }> {
    // A repeat names no e-mail: the first run cleared the account's login limits already.
    return this.once(request, () => account.resetPassword(this.deps, input, request), (position) => ({ position, email: null }));
  }

  /**
   * Changes the acting user's password (spec §7 PUT /account/changepassword); ends every session.
   * @throws DomainError UNAUTHORIZED, PASSWORD_TOO_SHORT, VALUE_TOO_LONG, PASSWORD_TOO_WEAK, INVALID_PASSWORD.
   */
  changePassword(input: { currentPassword: string; newPassword: string }, request: CommandRequest): Promise<{ position: number }> {
    return this.once(request, () => account.changePassword(this.deps, input, request), (position) => ({ position }));
  }

  /** Approves an account or withdraws the approval (PUT /admin/user/{id}). @throws DomainError FORBIDDEN, NOT_FOUND. */
  setApproval(userId: string, approved: boolean, request: CommandRequest): Promise<{ position: number }> {
    return account.setApproval(this.deps, userId, approved, request);
  }

  /**
   * An administrator sets a user's password (POST /admin/resetpassword).
   * @throws DomainError FORBIDDEN, NOT_FOUND, PASSWORD_TOO_SHORT, VALUE_TOO_LONG, PASSWORD_TOO_WEAK.
   */
  adminResetPassword(userId: string, newPassword: string, request: CommandRequest): Promise<{ position: number }> {
    return account.adminResetPassword(this.deps, userId, newPassword, request);
  }

  /** Turns global switches on or off (spec §4). @throws DomainError FORBIDDEN, INVALID_REQUEST. */
  changeSettings(changes: Partial<Settings>, request: CommandRequest): Promise<{ settings: Settings; position: number }> {
    return changeSettings(this.deps, changes, request);
  }

  /** Skips an event a projection parked. @throws DomainError NOT_FOUND, FORBIDDEN, INVALID_REQUEST, VALUE_TOO_LONG. */
  skipParkedEvent(input: { position: number; projection: string | null; reason: string }, request: CommandRequest): Promise<{ position: number }> {
    return skipParkedEvent(this.deps, input, request);
  }

  /** Asks the projections to apply a parked event again. @throws DomainError NOT_FOUND, FORBIDDEN, INVALID_REQUEST. */
  retryParkedEvent(input: { position: number; projection: string | null }, request: CommandRequest): Promise<{ position: number }> {
    return retryParkedEvent(this.deps, input, request);
  }

  /**
   * Gives the account of `email` the role ADMIN or USER (`npm run admin`): account/handlers.ts
   * setRoleOfEmail. @throws DomainError('NOT_FOUND') for an address without an account.
   */
  setRoleOfEmail(email: string, role: 'ADMIN' | 'USER', now: Date = this.deps.now()): Promise<{ userId: string; changed: boolean; position: number }> {
    return account.setRoleOfEmail(this.deps, email, role, now);
  }

  /**
   * Creates or updates an approved ADMIN account with this e-mail and password (ADMIN_EMAIL at start).
   * @throws DomainError INVALID_EMAIL, PASSWORD_TOO_SHORT, VALUE_TOO_LONG, PASSWORD_TOO_WEAK.
   */
  ensureAdmin(email: string, password: string, now: Date = this.deps.now()): Promise<{ userId: string; changed: boolean; position: number }> {
    return account.ensureAdmin(this.deps, email, password, now);
  }
}
