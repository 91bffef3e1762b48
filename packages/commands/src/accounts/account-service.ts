/**
 * Accounts and sessions (spec §2 Registration, Login, Account, Password reset and Confirmation;
 * §4 account states; §5 validation; §7 /registerteam, /jointeam, /login, /requestpasswordreset,
 * /resetpassword, /confirmaccount, /account/changepassword).
 *
 * Each command gathers the facts the pure deciders need (settings, join-code index, secrets),
 * decides, and then, in one AccountDirectory transaction, reserves what must be unique, writes
 * the secrets and appends the events last: a refusal or a failed append rolls every table change
 * back. Mails go out after the commit.
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
import { readSettings } from '../settings';
import type { AccountDirectory, AccountTransaction } from './directory';
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
}

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

  constructor(private readonly deps: AccountServiceDependencies) {
    this.edition = deps.edition ?? currentEdition;
    this.confirmationHours = deps.confirmationValidHours ?? 7 * 24;
    this.resetHours = deps.resetValidHours ?? 2;
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
   * append, then the confirmation mail in `input.lang`.
   * @throws DomainError REGISTRATION_DISABLED, PASSWORD_TOO_SHORT, INVALID_EMAIL, INVALID_REQUEST,
   *   VALUE_TOO_LONG, TEAM_NAME_ALREADY_IN_USE, EMAIL_ALREADY_IN_USE.
   */
  async registerTeam(input: RegistrationInput & { teamName: string }, request: CommandRequest): Promise<RegistrationResult> {
    const { ctx, settings, now } = await this.context(request);
    this.assertMayRegister(input, settings, request.actor);
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
        data: { teamId, teamName: input.teamName, description: '', joinCode, icon: null },
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

  private assertMayRegister(input: { password: string }, settings: Settings, actor: ActingUser): void {
    assertRegistrationOpen(settings.registrationEnabled, actor);
    assertValidNewPassword(input.password, this.edition);
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
    const { directory } = this.deps;
    const userId = await directory.userIdOfEmail(input.email);
    // The hash is looked up for an unknown e-mail too (under an id no account has), so both
    // refusals do the same database work and the same argon2 verification: the answer's timing
    // does not tell whether an e-mail is registered.
    const stored = await directory.passwordHash(userId ?? NO_ACCOUNT);
    const matches = await verifyPassword(stored ?? (await dummyPasswordHash()), input.password);
    if (userId === null || stored === null || !matches) throw new DomainError('INVALID_CREDENTIALS');
    const account = await this.account(userId);
    // Erasure deletes the e-mail row and the hash, so a deleted account stops above; this guards
    // a deletion whose table changes did not happen (an older run, a manual restore).
    if (!account.exists || account.deleted) throw new DomainError('INVALID_CREDENTIALS', 'no live account');
    if (!account.approved) {
      // A withdrawn approval is an administrator's decision: a new link would not undo it.
      if (!account.approvalRevoked) await this.resendConfirmation(account, now);
      throw new DomainError('USER_NOT_APPROVED');
    }
    return this.identity(account);
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
   * newPassword}). The token is spent, and so is every other reset link of the account.
   * @throws DomainError PASSWORD_TOO_SHORT / VALUE_TOO_LONG; INVALID_RESET_TOKEN for an unknown,
   *   used, expired or foreign token.
   */
  async resetPassword(input: { userId: string; token: string; newPassword: string }, request: CommandRequest): Promise<{ position: number }> {
    const { ctx, now } = await this.context(request);
    const { userId } = input;
    assertValidNewPassword(input.newPassword, this.edition);
    if (!isUserId(userId)) throw new DomainError('INVALID_RESET_TOKEN');
    const passwordHash = await hashPassword(input.newPassword);
    return this.deps.directory.transaction(async (tx) => {
      const token = await tx.tokenForUpdate(tokenHash(input.token), 'reset');
      const tokenValid = token !== null && token.userId === userId && token.usedAt === null && token.expiresAt > now;
      await tx.setPasswordHash(userId, passwordHash, now);
      await tx.useTokens(userId, 'reset', now);
      const result = await handleCommand(this.deps.store, streams.user(userId), accountDecider,
        { type: 'CompletePasswordReset', data: { userId, tokenValid, newPassword: input.newPassword } }, ctx, request.metadata);
      return { position: result.position };
    });
  }

  /**
   * Changes the acting user's password (spec §7 PUT /account/changepassword). Open reset links
   * stop working.
   * @throws DomainError UNAUTHORIZED (the actor is not an account), PASSWORD_TOO_SHORT,
   *   VALUE_TOO_LONG, INVALID_PASSWORD (wrong current password, spec §5).
   */
  async changePassword(input: { currentPassword: string; newPassword: string }, request: CommandRequest): Promise<{ position: number }> {
    const { ctx, now } = await this.context(request);
    const userId = request.actor.userId;
    if (!isUserId(userId)) throw new DomainError('UNAUTHORIZED', 'not an account');
    assertValidNewPassword(input.newPassword, this.edition);
    const passwordHash = await hashPassword(input.newPassword);
    return this.deps.directory.transaction(async (tx) => {
      const current = await tx.passwordHashForUpdate(userId);
      const currentPasswordValid = current !== null && (await verifyPassword(current, input.currentPassword));
      if (currentPasswordValid) {
        await tx.setPasswordHash(userId, passwordHash, now);
        await tx.useTokens(userId, 'reset', now);
      }
      const result = await handleCommand(this.deps.store, streams.user(userId), accountDecider,
        { type: 'ChangePassword', data: { userId, currentPasswordValid, newPassword: input.newPassword } }, ctx, request.metadata);
      return { position: result.position };
    });
  }

  /**
   * Approves an account or withdraws the approval (spec §4 "Admin may approve"; the admin
   * console's toggle, PUT /admin/user/{id} {is_approved}, comes with the console).
   * @throws DomainError FORBIDDEN (not an administrator), NOT_FOUND.
   */
  async setApproval(userId: string, approved: boolean, request: CommandRequest): Promise<{ position: number }> {
    const { ctx } = await this.context(request);
    if (!isUserId(userId)) throw new DomainError('NOT_FOUND', `user ${userId}`);
    const result = await handleCommand(this.deps.store, streams.user(userId), accountDecider,
      { type: 'SetApproval', data: { userId, approved } }, ctx, request.metadata);
    return { position: result.position };
  }

  /**
   * An administrator sets a user's password (spec §2 admin "Reset password": the browser
   * generates a random password and sends it; §7 POST /admin/resetpassword {userId,
   * newPassword}). The argon2id hash replaces the stored one and open reset links stop working,
   * in the transaction that appends PasswordChanged. The user logs in with it at once.
   * @throws DomainError FORBIDDEN (not an administrator), NOT_FOUND (unknown, deleted or malformed
   *   user id), PASSWORD_TOO_SHORT (under 6, spec §5), VALUE_TOO_LONG (over 128).
   */
  async adminResetPassword(userId: string, newPassword: string, request: CommandRequest): Promise<{ position: number }> {
    const { ctx, now } = await this.context(request);
    if (!isPrivileged(ctx.actor)) throw new DomainError('FORBIDDEN', 'only an administrator resets passwords');
    if (!isUserId(userId)) throw new DomainError('NOT_FOUND', `user ${userId}`);
    assertValidNewPassword(newPassword, this.edition);
    const previous = await this.deps.store.findEvent(eventIdFor(request.metadata.commandId, 0));
    if (previous) return { position: previous.globalPosition };
    const passwordHash = await hashPassword(newPassword);
    return this.deps.directory.transaction(async (tx) => {
      await tx.setPasswordHash(userId, passwordHash, now);
      await tx.useTokens(userId, 'reset', now);
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
   * Creates or updates an approved ADMIN account with this e-mail and password (ADMIN_EMAIL and
   * ADMIN_PASSWORD at start). An existing account with the e-mail (a participant's, say) becomes
   * an approved admin with this password. Running it again with the same values appends nothing.
   * @throws DomainError INVALID_EMAIL, PASSWORD_TOO_SHORT, VALUE_TOO_LONG.
   * @returns the admin's user id and whether anything changed.
   */
  async ensureAdmin(email: string, password: string, now: Date = this.deps.now()): Promise<{ userId: string; changed: boolean; position: number }> {
    assertValidNewPassword(password, this.edition);
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
      return handleCommand(this.deps.store, streams.user(userId), accountDecider,
        { type: 'EnsureAdmin', data: { userId, email, fullName: ADMIN_FULL_NAME, password, passwordMatches } },
        ctx, { commandId, correlationId: commandId, causationId: null });
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
