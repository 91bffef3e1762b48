/**
 * What the account, registration and session handlers share (spec §2 Registration, Login,
 * Account, Password reset and Confirmation): their dependencies with the
 * defaults resolved, the shapes they answer, the decision context of a request, the account's
 * state and session identity, and the mail helpers (mails go out after the commit).
 */
import {
  accountDecider,
  DomainError,
  isRegistrationOpen,
  isUserId,
  participantDecider,
  streams,
  type AccountState,
  type ActingUser,
  type DecisionContext,
  type Edition,
  type Gender,
  type MailLanguage,
  type Role,
  type Settings,
} from '@sinilill/domain';
import { editionSourceOf } from '../context';
import type { EditionSource } from '../edition/catalog';
import type { EventStore } from '@sinilill/event-store';
import type { Mailer, OutgoingMail } from '@sinilill/mail';
import type { AccountDirectory } from './directory';
import { foldStream, type CommandRequest } from '../metadata';
import type { IdAllocator } from '../ids';
import { readSettings } from '../settings/settings-cache';

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

/**
 * What a registration answers: the new ids and the position of its last event. When the address
 * already had an account, `created` is false, nothing was appended, the ids are that account's
 * (0 for a team or participant it has none of) and position is the log's head.
 */
export interface RegistrationResult {
  /** False when the address already had an account (registrationOfKnownAddress). */
  created: boolean;
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
  /** A fixed edition for every decision (tests); default: the catalogue's (editions). */
  edition?: Edition;
  /** The editions; default: folded from the store (context.ts editionSourceOf). */
  editions?: EditionSource;
  /** How long a confirmation link stays valid; default 7 days (an unapproved login mails a new one). */
  confirmationValidHours?: number;
  /** How long a password-reset link stays valid; default 2 hours (it says so in the mail). */
  resetValidHours?: number;
  /** Told about a mail that could not be sent where the command still succeeds (log it). */
  onMailError?: (error: unknown, kind: 'confirmation' | 'reset' | 'invitation') => void;
  /**
   * How long a refresh token stays valid after it was issued, seconds; default
   * REFRESH_TOKEN_SECONDS (30 days, contracts). Each refresh issues a new one.
   */
  refreshValidSeconds?: number;
}

/** AccountServiceDependencies with every default resolved (what the handlers take). */
export interface AccountDeps extends AccountServiceDependencies {
  confirmationValidHours: number;
  resetValidHours: number;
  refreshValidSeconds: number;
}

/** Refresh-token lifetime, seconds: 30 days (contracts' REFRESH_TOKEN_SECONDS). */
const REFRESH_VALID_SECONDS = 30 * 24 * 60 * 60;

/**
 * The edition whose limits apply to an account at `now` (its password's length): the fixed one,
 * else the current one, else the latest (EditionCatalog.latest).
 * @throws DomainError('REGISTRATION_NOT_OPEN') when no edition exists at all.
 */
export async function accountEdition(deps: AccountDeps, now: Date = deps.now()): Promise<Edition> {
  if (deps.edition) return deps.edition;
  const record = (await editionSourceOf(deps).catalog()).latest(now.toISOString());
  if (!record) throw new DomainError('REGISTRATION_NOT_OPEN', 'no edition exists');
  return record.edition;
}

/**
 * The edition taking registrations at `now`: the fixed one, else the current one while its
 * registration is open (EditionCatalog.current, isRegistrationOpen).
 * @throws DomainError('REGISTRATION_NOT_OPEN') between editions and before registration's day.
 */
export async function registrationEdition(deps: AccountDeps, now: Date = deps.now()): Promise<Edition> {
  if (deps.edition) return deps.edition;
  const record = (await editionSourceOf(deps).catalog()).current(now.toISOString());
  if (!record || !isRegistrationOpen(record, now.toISOString())) throw new DomainError('REGISTRATION_NOT_OPEN');
  return record.edition;
}

/** The dependencies with their defaults: 7-day confirmation, 2-hour reset, 30-day refresh. */
export function accountDeps(deps: AccountServiceDependencies): AccountDeps {
  return {
    ...deps,
    confirmationValidHours: deps.confirmationValidHours ?? 7 * 24,
    resetValidHours: deps.resetValidHours ?? 2,
    refreshValidSeconds: deps.refreshValidSeconds ?? REFRESH_VALID_SECONDS,
  };
}

/** The system as actor (ensureAdmin at start). */
export const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };

/** The name shown for the administrator ADMIN_EMAIL creates (it has no participant). */
export const ADMIN_FULL_NAME = 'Administrator';

/** `from` plus `count` hours. */
export const hours = (from: Date, count: number): Date => new Date(from.getTime() + count * 3_600_000);

/** A request's decision context with the settings read for it and its instant. */
export async function accountContext(deps: AccountDeps, request: CommandRequest): Promise<{ ctx: DecisionContext; settings: Settings; now: Date }> {
  const now = request.now ?? deps.now();
  const settings = await readSettings(deps.store);
  const catalog = await editionSourceOf(deps).catalog();
  // What belongs to no edition (an account) follows the latest edition's limits.
  const edition = deps.edition ?? catalog.latest(now.toISOString())?.edition;
  return { now, settings, ctx: { now: now.toISOString(), actor: request.actor, entryInsertionEnabled: settings.entryInsertionEnabled, ...(edition ? { edition } : {}) } };
}

/**
 * The account's state from its stream (not existing for an unknown or malformed id). The
 * account's e-mail and name are sealed under its first participant's key: when that participant
 * was deleted (its earlier edition's team was deleted) while the account lives on in a later
 * edition, they are read from the latest participant instead, so mails still reach the person.
 */
export async function accountState(store: EventStore, userId: string): Promise<AccountState> {
  if (!isUserId(userId)) return accountDecider.initialState();
  const account = foldStream(accountDecider, await store.readStream(streams.user(userId)));
  if (!account.exists || account.deleted || account.email !== null || account.participantId === null || account.participantIds.length < 2) return account;
  const latest = foldStream(participantDecider, await store.readStream(streams.participant(account.participantId)));
  return latest.exists && !latest.deleted ? { ...account, email: latest.email, fullName: account.fullName ?? latest.fullName } : account;
}

/** The spec §3 session identity of an account; team, paid flag and name from the participant. */
export async function identityOf(store: EventStore, account: AccountState): Promise<SessionIdentity> {
  let participant = null;
  if (account.participantId !== null) {
    participant = foldStream(participantDecider, await store.readStream(streams.participant(account.participantId)));
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

/** The confirmation link of a mail: `<publicUrl>/confirm/account/<token>/<userId>`. */
export function confirmationLink(deps: AccountDeps, token: string, userId: string): string {
  return `${deps.publicUrl}/confirm/account/${token}/${userId}`;
}

/** Sends a mail whose failure does not fail the command: false (and onMailError) when it could not be sent. */
export async function trySend(deps: AccountDeps, mail: OutgoingMail, kind: 'confirmation' | 'reset'): Promise<boolean> {
  try {
    await deps.mailer.send(mail);
    return true;
  } catch (error) {
    deps.onMailError?.(error, kind);
    return false;
  }
}
