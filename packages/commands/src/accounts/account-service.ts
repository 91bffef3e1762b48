/**
 * Accounts and sessions (spec §2 Registration, Login, Account, Password reset and Confirmation;
 * §4 account states; §5 validation; §7 /registerteam, /jointeam, /login, /requestpasswordreset,
 * /resetpassword, /confirmaccount, /account/changepassword).
 *
 * Each command gathers the facts the pure deciders need (settings, join-code index, secrets),
 * decides, and then, in one AccountDirectory transaction, reserves what must be unique, writes
 * the secrets and appends the events last: a refusal or a failed append rolls every table change
 * back. Mails go out after the commit.
 *
 * Sessions (issue 13): startSession (POST /login), refreshSession (POST /session/refresh),
 * renewSession (after the caller's own password change) and endSession (POST /session/logout)
 * answer the claims of a short-lived access token — spec §3's identity plus the account's session
 * version `sv` and the session (refresh-token family) `sid` — and an opaque refresh token whose
 * SHA-256 is stored (app.refresh_tokens). What should end an account's sessions raises its
 * session version in the transaction of its events (AccountTransaction.raiseSessionVersion): a
 * password change, a reset through a link or by an administrator, a withdrawn approval, a role
 * change or a new password from ensureAdmin, and the account's deletion (eraseAccount).
 */
import { randomUUID } from 'node:crypto';
import {
  DomainError,
  accountDecider,
  assertRegistrationOpen,
  assertValidNewPassword,
  currentEdition,
  emailComparisonForm,
  isPrivileged,
  isUserId,
  participantDecider,
  settingsDecider,
  streams,
  teamDecider,
  teamOfJoinCode,
  type AccountState,
  type ActingUser,
  type DecisionContext,
  type Edition,
  type Gender,
  type MailLanguage,
  type Role,
  type Settings,
  type UserRegistered,
} from '@sinilill/domain';
import type { EventStore } from '@sinilill/event-store';
import { confirmationMail, passwordResetMail, type Mailer, type OutgoingMail } from '@sinilill/mail';
import type { CommandRequest } from '../command-service';
import {
  appendDecided,
  decideAcrossStreams,
  deterministicUuid,
  eventIdFor,
  foldStream,
  handleCommand,
  streamDecision,
  type DecidedCommand,
} from '../handle';
import type { IdAllocator } from '../ids';
import { decideAboutParkedEvent } from '../parked-events';
import { readSettings } from '../settings';
import type { AccountDirectory, AccountTransaction, SessionState } from './directory';
import { assertStrongPassword } from './password-strength';
import { dummyPasswordHash, hashPassword, newJoinCode, newToken, tokenHash, verifyPassword } from './secrets';

/** The session identity a login token carries (spec §3; contracts' SessionClaims). */
export interface SessionIdentity {
  userId: string;
  fullName: string;
  is_approved: boolean;
  participantId: number | null;
  teamId: number | null;
  role: Role;
  isPaid: boolean;
}

/**
 * The claims of an access token (contracts' AccessClaims): spec §3's identity, the account's
 * session version `sv` when it was issued, and its session (family) id `sid`.
 */
export interface AccessTokenClaims extends SessionIdentity {
  sv: number;
  sid: string;
}

/**
 * A session as startSession, refreshSession and renewSession answer it: the claims the API signs
 * into a short-lived access token, and the refresh token for the HttpOnly cookie (opaque, 43
 * characters; only its SHA-256 is stored) with its expiry on the service's clock and its lifetime
 * in seconds (the cookie's Max-Age: the clock may be simulated, the browser's is not).
 */
export interface IssuedSession {
  claims: AccessTokenClaims;
  refreshToken: string;
  refreshExpiresAt: Date;
  refreshMaxAgeSeconds: number;
}

/** What registration asks of a person (spec §3 registration payload), both registration types. */
export interface RegistrationInput {
  fullName: string;
  email: string;
  gender: Gender;
  birthYear: number;
  password: string;
  newsletter: boolean;
  /** The language of the confirmation mail (and of later mails sent without a request). */
  lang: MailLanguage;
}

/** What a registration answers: the new ids and the position of its last event. */
export interface RegistrationResult {
  userId: string;
  teamId: number;
  participantId: number;
  /** Global position of the registration's last event. */
  position: number;
  /** False when the confirmation mail could not be sent (a login attempt sends a new one). */
  mailSent: boolean;
}

/** What AccountService needs; the clock, publicUrl and mailer come from the running service's config. */
export interface AccountServiceDependencies {
  store: EventStore;
  ids: IdAllocator;
  directory: AccountDirectory;
  mailer: Mailer;
  /** The site's address for links in mails, without a trailing slash (config.publicUrl). */
  publicUrl: string;
  /** The configured clock (token expiry and event times follow it, simulated or real). */
  now: () => Date;
  /** Default: the current edition (limits, the join-code deadline). */
  edition?: Edition;
  /** How long a confirmation link stays valid; default 7 days (an unapproved login mails a new one). */
  confirmationValidHours?: number;
  /** How long a password-reset link stays valid; default 2 hours (it says so in the mail). */
  resetValidHours?: number;
  /** Told about a mail that could not be sent where the command still succeeds (log it). */
  onMailError?: (error: unknown, kind: 'confirmation' | 'reset') => void;
  /**
   * How long a refresh token stays valid after it was issued, seconds; default
   * REFRESH_TOKEN_SECONDS (30 days, contracts). Each refresh issues a new one.
   */
  refreshValidSeconds?: number;
}

/** Refresh-token lifetime, seconds: 30 days (contracts' REFRESH_TOKEN_SECONDS; issue 13). */
const REFRESH_VALID_SECONDS = 30 * 24 * 60 * 60;

const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
/** An account id no account has (UUIDs are never all zeros): looked up for unknown e-mails. */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

/** The name shown for the administrator ADMIN_EMAIL creates (it has no participant). */
export const ADMIN_FULL_NAME = 'Administrator';

const hours = (from: Date, count: number) => new Date(from.getTime() + count * 3_600_000);

/**
 * The account and session commands (see the module's comment). Commands answer the global
 * position of their last event; refusals throw DomainError with a catalogue code (spec §8).
 */
export class AccountService {
  private readonly edition: Edition;
  private readonly confirmationHours: number;
  private readonly resetHours: number;
  private readonly refreshSeconds: number;

  constructor(private readonly deps: AccountServiceDependencies) {
    this.edition = deps.edition ?? currentEdition;
    this.confirmationHours = deps.confirmationValidHours ?? 7 * 24;
    this.resetHours = deps.resetValidHours ?? 2;
    this.refreshSeconds = deps.refreshValidSeconds ?? REFRESH_VALID_SECONDS;
  }

  /** The global switches (spec §4), from the settings stream. */
  settings(): Promise<Settings> {
    return readSettings(this.deps.store);
  }

  /** The account's state from its stream (not existing for an unknown or malformed id). */
  async account(userId: string): Promise<AccountState> {
    if (!isUserId(userId)) return accountDecider.initialState();
    return foldStream(accountDecider, await this.deps.store.readStream(streams.user(userId)));
  }

  private async context(request: CommandRequest): Promise<{ ctx: DecisionContext; settings: Settings; now: Date }> {
    const now = request.now ?? this.deps.now();
    const settings = await this.settings();
    return { now, settings, ctx: { now: now.toISOString(), actor: request.actor, entryInsertionEnabled: settings.entryInsertionEnabled } };
  }

  /**
   * Registers a new team with the person as its captain, and the person's account (spec §2
   * REGISTER_TEAM): TeamRegistered, ParticipantRegistered and UserRegistered in one atomic
   * append, then the confirmation mail in `input.lang`. `company` (default false) registers a
   * company team (issue 14 item 3: 15 EUR per person, the captain may pay for all).
   * @throws DomainError REGISTRATION_DISABLED, PASSWORD_TOO_SHORT, PASSWORD_TOO_WEAK (judged with
   *   the e-mail, name and team name; issue 13), INVALID_EMAIL, INVALID_REQUEST, VALUE_TOO_LONG,
   *   TEAM_NAME_ALREADY_IN_USE, EMAIL_ALREADY_IN_USE.
   */
  async registerTeam(input: RegistrationInput & { teamName: string; company?: boolean }, request: CommandRequest): Promise<RegistrationResult> {
    const { ctx, settings, now } = await this.context(request);
    this.assertMayRegister(input, settings, request.actor, input.teamName);
    const { directory, ids, store } = this.deps;
    // Early answers without spending ids; the transaction below is what holds under races.
    if ((await directory.teamOfName(input.teamName)) !== null) throw new DomainError('TEAM_NAME_ALREADY_IN_USE');
    if ((await directory.userIdOfEmail(input.email)) !== null) throw new DomainError('EMAIL_ALREADY_IN_USE');
    let joinCode = newJoinCode();
    while ((await directory.joinCode(joinCode)) !== null) joinCode = newJoinCode();
    const teamId = await ids.next('team');
    const participantId = await ids.next('participant');
    const userId = randomUUID();
    const decided = await decideAcrossStreams(store, [
      streamDecision(streams.team(teamId), teamDecider, {
        type: 'RegisterTeam',
        data: { teamId, teamName: input.teamName, description: '', joinCode, icon: null, ...(input.company ? { company: true } : {}) },
      }),
      ...this.personDecisions(input, { teamId, participantId, userId, isCaptain: true, registrationEnabled: settings.registrationEnabled }),
    ], ctx, request.metadata);
    return this.completeRegistration(decided, input, { userId, teamId, participantId, now }, async (tx) => {
      await tx.reserveTeamName(input.teamName, teamId);
      if (!(await tx.reserveJoinCode(joinCode, teamId, null, now))) throw new DomainError('CONCURRENCY_CONFLICT', 'join code drawn twice');
    });
  }

  /**
   * Registers the person into the team of a join code, with an account (spec §2 JOIN_TEAM):
   * ParticipantRegistered and UserRegistered in one atomic append, then the confirmation mail.
   * @throws DomainError as registerTeam, plus INVALID_JOIN_CODE and JOIN_CODE_EXPIRED (see
   *   teamOfJoinCode: replaced, revoked, or the edition is over).
   */
  async joinTeam(input: RegistrationInput & { joinCode: string }, request: CommandRequest): Promise<RegistrationResult> {
    const { ctx, settings, now } = await this.context(request);
    this.assertMayRegister(input, settings, request.actor);
    const { directory, ids, store } = this.deps;
    const record = input.joinCode.trim() === '' ? null : await directory.joinCode(input.joinCode);
    const team = record ? foldStream(teamDecider, await store.readStream(streams.team(record.teamId))) : null;
    const teamId = teamOfJoinCode(input.joinCode, { record, teamJoinCode: team?.exists ? team.joinCode : null }, ctx.now, this.edition);
    if ((await directory.userIdOfEmail(input.email)) !== null) throw new DomainError('EMAIL_ALREADY_IN_USE');
    const participantId = await ids.next('participant');
    const userId = randomUUID();
    const decided = await decideAcrossStreams(
      store,
      this.personDecisions(input, { teamId, participantId, userId, isCaptain: false, registrationEnabled: settings.registrationEnabled }),
      ctx,
      request.metadata,
    );
    return this.completeRegistration(decided, input, { userId, teamId, participantId, now }, async () => undefined);
  }

  private assertMayRegister(input: RegistrationInput, settings: Settings, actor: ActingUser, teamName: string | null = null): void {
    assertRegistrationOpen(settings.registrationEnabled, actor);
    assertValidNewPassword(input.password, this.edition);
    assertStrongPassword(input.password, { email: input.email, fullName: input.fullName, teamName });
  }

  private personDecisions(
    input: RegistrationInput,
    ids: { teamId: number; participantId: number; userId: string; isCaptain: boolean; registrationEnabled: boolean },
  ) {
    const { teamId, participantId, userId } = ids;
    return [
      streamDecision(streams.participant(participantId), participantDecider, {
        type: 'RegisterParticipant',
        data: {
          participantId, teamId, fullName: input.fullName, email: input.email, birthYear: input.birthYear,
          gender: input.gender, isCaptain: ids.isCaptain, newsletter: input.newsletter,
        },
      }),
      streamDecision(streams.user(userId), accountDecider, {
        type: 'RegisterUser',
        data: {
          userId, participantId, email: input.email, fullName: input.fullName, role: 'USER', approved: false,
          hasPassword: true, lang: input.lang, registrationEnabled: ids.registrationEnabled,
        },
      }),
    ];
  }

  private async completeRegistration(
    decided: DecidedCommand,
    input: RegistrationInput,
    ids: { userId: string; teamId: number; participantId: number; now: Date },
    reserveTeam: (tx: AccountTransaction) => Promise<void>,
  ): Promise<RegistrationResult> {
    const { userId, now } = ids;
    const passwordHash = await hashPassword(input.password);
    const confirmation = newToken();
    const position = await this.deps.directory.transaction(async (tx) => {
      await reserveTeam(tx);
      await tx.reserveEmail(input.email, userId);
      await tx.setPasswordHash(userId, passwordHash, now);
      await tx.addToken(confirmation.hash, userId, 'confirm', now, hours(now, this.confirmationHours));
      return appendDecided(this.deps.store, decided);
    });
    const registered = decided.events.find((event): event is UserRegistered => event.type === 'UserRegistered')!;
    const to = { email: registered.data.email!, fullName: registered.data.fullName! };
    const mailSent = await this.trySend(confirmationMail(to, this.confirmationLink(confirmation.token, userId), input.lang), 'confirmation');
    return { userId, teamId: ids.teamId, participantId: ids.participantId, position, mailSent };
  }

  /**
   * Follows a confirmation link (spec §7 POST /confirmaccount {token, id}): the account becomes
   * approved and every confirmation link of it is spent.
   * @throws DomainError('INVALID_ACCOUNT_TOKEN') for an unknown, used, expired or foreign token,
   *   or an account that is already approved (spec §8).
   */
  async confirmAccount(input: { userId: string; token: string }, request: CommandRequest): Promise<{ position: number }> {
    const { ctx, now } = await this.context(request);
    const { userId } = input;
    if (!isUserId(userId)) throw new DomainError('INVALID_ACCOUNT_TOKEN');
    return this.deps.directory.transaction(async (tx) => {
      const token = await tx.tokenForUpdate(tokenHash(input.token), 'confirm');
      const tokenValid = token !== null && token.userId === userId && token.usedAt === null && token.expiresAt > now;
      await tx.useTokens(userId, 'confirm', now);
      const result = await handleCommand(this.deps.store, streams.user(userId), accountDecider,
        { type: 'ConfirmAccount', data: { userId, tokenValid } }, ctx, request.metadata);
      return { position: result.position };
    });
  }

  /**
   * Checks e-mail and password (spec §7 POST /login) and answers the session identity (spec §3)
   * for the token. Every wrong combination takes one argon2 verification, known e-mail or not.
   * @throws DomainError INVALID_CREDENTIALS (unknown e-mail, wrong password, an imported
   *   account without a password yet, or a deleted account); USER_NOT_APPROVED after mailing a new confirmation link
   *   (spec §4), only when the password was right (no link when an administrator withdrew the
   *   approval).
   */
  async login(input: { email: string; password: string }, now: Date = this.deps.now()): Promise<SessionIdentity> {
    const { account } = await this.signIn(input, now);
    return this.identity(account);
  }

  /**
   * Logs in (spec §7 POST /login) and starts a session (issue 13): a new session family with its
   * first refresh token. Answers the access token's claims (spec §3 identity, `sv`, `sid`) and the
   * refresh token for the cookie.
   * @throws DomainError as login: INVALID_CREDENTIALS, USER_NOT_APPROVED.
   */
  async startSession(input: { email: string; password: string }, now: Date = this.deps.now()): Promise<IssuedSession> {
    const { account, version } = await this.signIn(input, now);
    return this.issueSession(account, version, now);
  }

  /**
   * A new session for an account whose caller was just authenticated by other means — after the
   * caller's own password change, which ended every session of the account, the caller's too.
   * @throws DomainError('UNAUTHORIZED') when the account is gone, deleted or not approved.
   */
  async renewSession(userId: string, now: Date = this.deps.now()): Promise<IssuedSession> {
    if (!isUserId(userId)) throw new DomainError('UNAUTHORIZED', 'not an account');
    // The version first, then the events (see AccountDirectory.openSessionVersion).
    const version = await this.deps.directory.openSessionVersion(userId, now);
    const account = await this.account(userId);
    if (version === null || !account.exists || account.deleted || !account.approved) throw new DomainError('UNAUTHORIZED', 'no live, approved account');
    return this.issueSession(account, version, now);
  }

  /**
   * Trades a refresh token for a new access token and a new refresh token of the same family
   * (POST /session/refresh; issue 13). The claims are read from the log again, so the session
   * follows what changed since (a payment's isPaid, a rename). Each refresh token works once: a
   * second use (the token was copied, or two requests raced) revokes the whole family, so neither
   * copy works any more and the family's access tokens are refused too.
   * @throws DomainError('UNAUTHORIZED') for an unknown, expired, used or revoked token, a token
   *   issued under an older session version, or an account that is gone, deleted or no longer
   *   approved.
   */
  async refreshSession(refreshToken: string, now: Date = this.deps.now()): Promise<IssuedSession> {
    const hash = tokenHash(refreshToken);
    const next = newToken();
    const expiresAt = new Date(now.getTime() + this.refreshSeconds * 1000);
    // A refusal that revokes something must commit: it is answered after the transaction.
    const outcome = await this.deps.directory.transaction(async (tx): Promise<{ refused: string } | { account: AccountState; version: number; familyId: string }> => {
      const record = await tx.refreshTokenForUpdate(hash);
      if (!record) return { refused: 'unknown refresh token' };
      if (record.familyRevoked) return { refused: 'session ended' };
      if (record.usedAt !== null) {
        await tx.revokeSessionFamily(record.familyId, now);
        return { refused: 'refresh token used twice: session revoked' };
      }
      if (record.expiresAt <= now) return { refused: 'refresh token expired' };
      // The version first, then the events (see AccountDirectory.openSessionVersion).
      const current = await tx.sessionVersion(record.userId);
      const account = await this.account(record.userId);
      if (!current || current.ended || current.version !== record.sessionVersion || !account.exists || account.deleted || !account.approved) {
        await tx.revokeSessionFamily(record.familyId, now);
        return { refused: 'session version raised or account no longer live' };
      }
      await tx.useRefreshToken(hash, now);
      await tx.addRefreshToken(next.hash, {
        familyId: record.familyId, userId: record.userId, sessionVersion: current.version, createdAt: now, expiresAt,
      });
      return { account, version: current.version, familyId: record.familyId };
    });
    if ('refused' in outcome) throw new DomainError('UNAUTHORIZED', outcome.refused);
    return {
      claims: { ...(await this.identity(outcome.account)), sv: outcome.version, sid: outcome.familyId },
      refreshToken: next.token,
      refreshExpiresAt: expiresAt,
      refreshMaxAgeSeconds: this.refreshSeconds,
    };
  }

  /**
   * Ends the session of a refresh token (POST /session/logout): its family is revoked, so its
   * refresh tokens and access tokens stop working at once. Unknown tokens are ignored.
   */
  async endSession(refreshToken: string, now: Date = this.deps.now()): Promise<void> {
    await this.deps.directory.transaction(async (tx) => {
      const record = await tx.refreshTokenForUpdate(tokenHash(refreshToken));
      if (record) await tx.revokeSessionFamily(record.familyId, now);
    });
  }

  /**
   * The session state an access token of `userId` and session `sessionId` is checked against
   * (every authenticated request; see AccountDirectory.sessionState), or null when the account
   * never had a session.
   */
  session(userId: string, sessionId: string): Promise<SessionState | null> {
    return this.deps.directory.sessionState(userId, sessionId);
  }

  /**
   * Checks e-mail and password and answers the live, approved account with its session version,
   * read before the account's events (AccountDirectory.openSessionVersion).
   * @throws DomainError INVALID_CREDENTIALS, USER_NOT_APPROVED (see login).
   */
  private async signIn(input: { email: string; password: string }, now: Date): Promise<{ account: AccountState; version: number }> {
    const { directory } = this.deps;
    const userId = await directory.userIdOfEmail(input.email);
    // The hash is looked up for an unknown e-mail too (under an id no account has), so both
    // refusals do the same database work and the same argon2 verification: the answer's timing
    // does not tell whether an e-mail is registered.
    const stored = await directory.passwordHash(userId ?? NO_ACCOUNT);
    const matches = await verifyPassword(stored ?? (await dummyPasswordHash()), input.password);
    if (userId === null || stored === null || !matches) throw new DomainError('INVALID_CREDENTIALS');
    const version = await directory.openSessionVersion(userId, now);
    const account = await this.account(userId);
    // Erasure deletes the e-mail row and the hash, so a deleted account stops above; this guards
    // a deletion whose table changes did not happen (an older run, a manual restore).
    if (version === null || !account.exists || account.deleted) throw new DomainError('INVALID_CREDENTIALS', 'no live account');
    if (!account.approved) {
      // A withdrawn approval is an administrator's decision: a new link would not undo it.
      if (!account.approvalRevoked) await this.resendConfirmation(account, now);
      throw new DomainError('USER_NOT_APPROVED');
    }
    return { account, version };
  }

  /** A new session family of the account with its first refresh token, under session version `version`. */
  private async issueSession(account: AccountState, version: number, now: Date): Promise<IssuedSession> {
    const userId = account.userId!;
    const familyId = randomUUID();
    const refresh = newToken();
    const expiresAt = new Date(now.getTime() + this.refreshSeconds * 1000);
    await this.deps.directory.transaction(async (tx) => {
      await tx.pruneRefreshTokens(userId, now);
      await tx.addSessionFamily(familyId, userId, now);
      await tx.addRefreshToken(refresh.hash, { familyId, userId, sessionVersion: version, createdAt: now, expiresAt });
    });
    return {
      claims: { ...(await this.identity(account)), sv: version, sid: familyId },
      refreshToken: refresh.token,
      refreshExpiresAt: expiresAt,
      refreshMaxAgeSeconds: this.refreshSeconds,
    };
  }

  /** The spec §3 session identity of an account; team, paid flag and name from the participant. */
  async identity(account: AccountState): Promise<SessionIdentity> {
    let participant = null;
    if (account.participantId !== null) {
      participant = foldStream(participantDecider, await this.deps.store.readStream(streams.participant(account.participantId)));
    }
    return {
      userId: account.userId!,
      fullName: participant?.fullName ?? account.fullName ?? '',
      is_approved: account.approved,
      participantId: account.participantId,
      teamId: participant?.exists ? participant.teamId : null,
      role: account.role,
      isPaid: participant?.isPaid ?? false,
    };
  }

  private async resendConfirmation(account: AccountState, now: Date): Promise<void> {
    if (!account.email || !account.userId) return;
    const userId = account.userId;
    const confirmation = newToken();
    await this.deps.directory.transaction((tx) => tx.addToken(confirmation.hash, userId, 'confirm', now, hours(now, this.confirmationHours)));
    const mail = confirmationMail({ email: account.email, fullName: account.fullName ?? '' }, this.confirmationLink(confirmation.token, userId), account.lang);
    await this.trySend(mail, 'confirmation');
  }

  /**
   * Mails a single-use password-reset link valid for resetValidHours (default 2) in `lang`
   * (spec §2 forgot password). Earlier reset links of the account stop working. Imported people
   * (no password yet) set their first password this way.
   * @throws DomainError('INVALID_EMAIL') when no account has this e-mail (spec §5 "valid known
   *   email for reset"); the mail's failure is thrown as it is (the person should try again).
   */
  async requestPasswordReset(input: { email: string; lang: MailLanguage }, request: CommandRequest): Promise<{ position: number }> {
    const { ctx, now } = await this.context(request);
    const userId = await this.deps.directory.userIdOfEmail(input.email);
    if (userId === null) throw new DomainError('INVALID_EMAIL');
    const account = await this.account(userId);
    if (!account.exists || !account.email) throw new DomainError('INVALID_EMAIL');
    const reset = newToken();
    const expiresAt = hours(now, this.resetHours);
    const result = await this.deps.directory.transaction(async (tx) => {
      await tx.useTokens(userId, 'reset', now);
      await tx.addToken(reset.hash, userId, 'reset', now, expiresAt);
      return handleCommand(this.deps.store, streams.user(userId), accountDecider,
        { type: 'RequestPasswordReset', data: { userId, expiresAt: expiresAt.toISOString() } }, ctx, request.metadata);
    });
    const link = `${this.deps.publicUrl}/passwordreset/${reset.token}/${userId}`;
    await this.deps.mailer.send(passwordResetMail({ email: account.email, fullName: account.fullName ?? '' }, link, input.lang, this.resetHours));
    return { position: result.position };
  }

  /**
   * Sets a new password through a reset link (spec §7 POST /resetpassword {userId, token,
   * newPassword}). The token is spent, and so is every other reset link of the account. Answers the
   * account's e-mail too, so that the caller can clear the account's login limits (D24).
   * @throws DomainError PASSWORD_TOO_SHORT / VALUE_TOO_LONG; PASSWORD_TOO_WEAK (judged with the
   *   account's e-mail and name; issue 13); INVALID_RESET_TOKEN for an unknown, used, expired or
   *   foreign token.
   */
  async resetPassword(
    input: { userId: string; token: string; newPassword: string },
    request: CommandRequest,
  ): Promise<{ position: number; email: string | null }> {
    const { ctx, now } = await this.context(request);
    const { userId } = input;
    assertValidNewPassword(input.newPassword, this.edition);
    if (!isUserId(userId)) throw new DomainError('INVALID_RESET_TOKEN');
    const owner = await this.account(userId);
    assertStrongPassword(input.newPassword, { email: owner.email, fullName: owner.fullName });
    const passwordHash = await hashPassword(input.newPassword);
    return this.deps.directory.transaction(async (tx) => {
      const token = await tx.tokenForUpdate(tokenHash(input.token), 'reset');
      const tokenValid = token !== null && token.userId === userId && token.usedAt === null && token.expiresAt > now;
      await tx.setPasswordHash(userId, passwordHash, now);
      await tx.useTokens(userId, 'reset', now);
      // Whoever knew the old password is logged out (rolled back with the rest when refused).
      await tx.raiseSessionVersion(userId, now);
      const result = await handleCommand(this.deps.store, streams.user(userId), accountDecider,
        { type: 'CompletePasswordReset', data: { userId, tokenValid, newPassword: input.newPassword } }, ctx, request.metadata);
      return { position: result.position, email: owner.email };
    });
  }

  /**
   * Changes the acting user's password (spec §7 PUT /account/changepassword). Open reset links
   * stop working, and so does every session of the account, the caller's too (issue 13; the route
   * gives the caller a new one with renewSession).
   * @throws DomainError UNAUTHORIZED (the actor is not an account), PASSWORD_TOO_SHORT,
   *   VALUE_TOO_LONG, PASSWORD_TOO_WEAK (judged with the account's e-mail and name; issue 13),
   *   INVALID_PASSWORD (wrong current password, spec §5).
   */
  async changePassword(input: { currentPassword: string; newPassword: string }, request: CommandRequest): Promise<{ position: number }> {
    const { ctx, now } = await this.context(request);
    const userId = request.actor.userId;
    if (!isUserId(userId)) throw new DomainError('UNAUTHORIZED', 'not an account');
    assertValidNewPassword(input.newPassword, this.edition);
    const owner = await this.account(userId);
    assertStrongPassword(input.newPassword, { email: owner.email, fullName: owner.fullName });
    const passwordHash = await hashPassword(input.newPassword);
    return this.deps.directory.transaction(async (tx) => {
      const current = await tx.passwordHashForUpdate(userId);
      const currentPasswordValid = current !== null && (await verifyPassword(current, input.currentPassword));
      if (currentPasswordValid) {
        await tx.setPasswordHash(userId, passwordHash, now);
        await tx.useTokens(userId, 'reset', now);
        await tx.raiseSessionVersion(userId, now);
      }
      const result = await handleCommand(this.deps.store, streams.user(userId), accountDecider,
        { type: 'ChangePassword', data: { userId, currentPasswordValid, newPassword: input.newPassword } }, ctx, request.metadata);
      return { position: result.position };
    });
  }

  /**
   * Approves an account or withdraws the approval (spec §4 "Admin may approve"; the admin
   * console's toggle, PUT /admin/user/{id} {is_approved}). Withdrawing it ends every session of
   * the account at once (issue 13).
   * @throws DomainError FORBIDDEN (not an administrator), NOT_FOUND.
   */
  async setApproval(userId: string, approved: boolean, request: CommandRequest): Promise<{ position: number }> {
    const { ctx, now } = await this.context(request);
    if (!isUserId(userId)) throw new DomainError('NOT_FOUND', `user ${userId}`);
    return this.deps.directory.transaction(async (tx) => {
      if (!approved) await tx.raiseSessionVersion(userId, now);
      const result = await handleCommand(this.deps.store, streams.user(userId), accountDecider,
        { type: 'SetApproval', data: { userId, approved } }, ctx, request.metadata);
      return { position: result.position };
    });
  }

  /**
   * An administrator sets a user's password (spec §2 admin "Reset password": the browser
   * generates a random password and sends it; §7 POST /admin/resetpassword {userId,
   * newPassword}). The argon2id hash replaces the stored one and open reset links stop working,
   * in the transaction that appends PasswordChanged, and every session of the user ends (issue
   * 13). The user logs in with it at once. The console's generated passwords (16 random letters
   * and digits) always pass the strength rule; one typed by hand is judged like any other.
   * @throws DomainError FORBIDDEN (not an administrator), NOT_FOUND (unknown, deleted or malformed
   *   user id), PASSWORD_TOO_SHORT (under 6, spec §5), VALUE_TOO_LONG (over 128),
   *   PASSWORD_TOO_WEAK (issue 13).
   */
  async adminResetPassword(userId: string, newPassword: string, request: CommandRequest): Promise<{ position: number }> {
    const { ctx, now } = await this.context(request);
    if (!isPrivileged(ctx.actor)) throw new DomainError('FORBIDDEN', 'only an administrator resets passwords');
    if (!isUserId(userId)) throw new DomainError('NOT_FOUND', `user ${userId}`);
    assertValidNewPassword(newPassword, this.edition);
    const owner = await this.account(userId);
    assertStrongPassword(newPassword, { email: owner.email, fullName: owner.fullName });
    const previous = await this.deps.store.findEvent(eventIdFor(request.metadata.commandId, 0));
    if (previous) return { position: previous.globalPosition };
    const passwordHash = await hashPassword(newPassword);
    return this.deps.directory.transaction(async (tx) => {
      await tx.setPasswordHash(userId, passwordHash, now);
      await tx.useTokens(userId, 'reset', now);
      await tx.raiseSessionVersion(userId, now);
      const result = await handleCommand(this.deps.store, streams.user(userId), accountDecider,
        { type: 'ResetPasswordAsAdmin', data: { userId, newPassword } }, ctx, request.metadata, { previous: null });
      return { position: result.position };
    });
  }

  /**
   * Turns global switches on or off (spec §4; administrators). Registration off: /registerteam
   * and /jointeam answer REGISTRATION_DISABLED; entry insertion off: ENTRY_INSERTION_DISABLED.
   * @throws DomainError FORBIDDEN, INVALID_REQUEST.
   */
  async changeSettings(changes: Partial<Settings>, request: CommandRequest): Promise<{ settings: Settings; position: number }> {
    const { ctx } = await this.context(request);
    const result = await handleCommand(this.deps.store, streams.settings(), settingsDecider,
      { type: 'ChangeSettings', data: changes }, ctx, request.metadata);
    return { settings: await this.settings(), position: result.position };
  }

  /**
   * Skips an event a projection parked (issue 13; administrators): records
   * ProjectionEventSkipped in stream `operations`; the projections that parked the event (or only
   * `projection`) then mark it resolved as skipped. `reason` at most 500 characters.
   * @throws DomainError NOT_FOUND (no event at `position`), FORBIDDEN, INVALID_REQUEST, VALUE_TOO_LONG.
   */
  async skipParkedEvent(input: { position: number; projection: string | null; reason: string }, request: CommandRequest): Promise<{ position: number }> {
    const { ctx } = await this.context(request);
    return decideAboutParkedEvent(this.deps.store, { kind: 'skip', ...input }, ctx, request.metadata);
  }

  /**
   * Asks the projections that parked an event (or only `projection`) to apply it again (issue 13;
   * administrators, after its cause was fixed): records ProjectionEventRetryRequested.
   * @throws DomainError NOT_FOUND (no event at `position`), FORBIDDEN, INVALID_REQUEST.
   */
  async retryParkedEvent(input: { position: number; projection: string | null }, request: CommandRequest): Promise<{ position: number }> {
    const { ctx } = await this.context(request);
    return decideAboutParkedEvent(this.deps.store, { kind: 'retry', ...input }, ctx, request.metadata);
  }

  /**
   * Creates or updates an approved ADMIN account with this e-mail and password (ADMIN_EMAIL and
   * ADMIN_PASSWORD at start). An existing account with the e-mail (a participant's, say) becomes
   * an approved admin with this password. Running it again with the same values appends nothing.
   * A role change or a new password ends the account's sessions (issue 13).
   * @throws DomainError INVALID_EMAIL, PASSWORD_TOO_SHORT, VALUE_TOO_LONG, PASSWORD_TOO_WEAK (judged
   *   with the e-mail; issue 13: a weak ADMIN_PASSWORD stops the command API at start).
   * @returns the admin's user id and whether anything changed.
   */
  async ensureAdmin(email: string, password: string, now: Date = this.deps.now()): Promise<{ userId: string; changed: boolean; position: number }> {
    assertValidNewPassword(password, this.edition);
    assertStrongPassword(password, { email, fullName: ADMIN_FULL_NAME });
    const existing = await this.deps.directory.userIdOfEmail(email);
    // A new admin's id derives from the address, so two processes starting at once create one.
    const userId = existing ?? deterministicUuid(`admin:${emailComparisonForm(email)}`);
    const stored = existing ? await this.deps.directory.passwordHash(existing) : null;
    const passwordMatches = stored !== null && (await verifyPassword(stored, password));
    const passwordHash = passwordMatches ? null : await hashPassword(password);
    const commandId = existing ? `ensure-admin:${randomUUID()}` : `ensure-admin:${userId}:create`;
    const settings = await this.settings();
    const ctx: DecisionContext = { now: now.toISOString(), actor: SYSTEM, entryInsertionEnabled: settings.entryInsertionEnabled };
    const result = await this.deps.directory.transaction(async (tx) => {
      if (!existing) await tx.reserveEmail(email, userId);
      if (passwordHash) await tx.setPasswordHash(userId, passwordHash, now);
      const handled = await handleCommand(this.deps.store, streams.user(userId), accountDecider,
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

  private confirmationLink(token: string, userId: string): string {
    return `${this.deps.publicUrl}/confirm/account/${token}/${userId}`;
  }

  private async trySend(mail: OutgoingMail, kind: 'confirmation' | 'reset'): Promise<boolean> {
    try {
      await this.deps.mailer.send(mail);
      return true;
    } catch (error) {
      this.deps.onMailError?.(error, kind);
      return false;
    }
  }
}
