/**
 * Pure account rules shared by the account decider and the command side: the password rule,
 * the comparison forms of e-mails, team names and join codes, the join-code check and the
 * registration switch. Facts that live outside one stream (the join-code index, the settings
 * stream) come in as arguments.
 */
import { isPrivileged } from '../actors';
import { isEntryWindowOpen, parseInstant } from '../dates';
import type { ActingUser } from '../decider';
import type { Edition } from '../edition/types';
import { DomainError } from '../errors';
import { textLength } from '../validation';

/**
 * Longest password, in characters. A product limit (spec §5 gives only the minimum): it keeps
 * argon2 hashing cheap and stops megabyte "passwords" from being used to load the server.
 */
export const PASSWORD_MAX = 128;

/**
 * Checks a new password (registration, reset, change): a string of at least
 * `edition.limits.passwordMin` = 6 characters (Unicode code points; spaces count, nothing is
 * trimmed) and at most PASSWORD_MAX = 128.
 *
 * @throws DomainError PASSWORD_TOO_SHORT (spec §5 "password minimum length 6"), VALUE_TOO_LONG,
 *   INVALID_REQUEST when not a string.
 */
export function assertValidNewPassword(password: unknown, edition: Edition): string {
  if (typeof password !== 'string') throw new DomainError('INVALID_REQUEST', 'password must be a string');
  const length = textLength(password);
  if (length < edition.limits.passwordMin) throw new DomainError('PASSWORD_TOO_SHORT');
  if (length > PASSWORD_MAX) throw new DomainError('VALUE_TOO_LONG', `password is longer than ${PASSWORD_MAX} characters`);
  return password;
}

/**
 * The form in which e-mail addresses are compared (uniqueness, login, reset): Unicode NFKC,
 * trimmed, lower-cased. 'Mari@Example.EE ' and 'mari@example.ee' are the same address.
 */
export function emailComparisonForm(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}

/**
 * The form in which team names are compared for uniqueness (TEAM_NAME_ALREADY_IN_USE): Unicode
 * NFKC (full-width and compatibility characters fold to their plain forms), trimmed, every run of
 * white space one space, lower-cased. '  TARTU   tammed ' and 'Tartu Tammed' are the same name.
 */
export function teamNameComparisonForm(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase();
}

/** The form in which join codes are compared: NFKC, trimmed, upper-cased ('dsnqk43s ' → 'DSNQK43S'). */
export function joinCodeComparisonForm(code: string): string {
  return code.normalize('NFKC').trim().toUpperCase();
}

/** What is known about a join code a visitor typed. */
export interface JoinCodeFacts {
  /** The join-code index row for the code, or null when no team ever had it. */
  record: { teamId: number; revoked: boolean; expiresAt: string | null } | null;
  /**
   * The team's current join code from its stream, or null when the team does not exist. A code
   * that is no longer the team's current one was replaced (spec §4: "Join code regeneration
   * invalidates the old code").
   */
  teamJoinCode: string | null;
}

/**
 * The team a join code admits to (spec §5 "valid unexpired join code").
 *
 * - INVALID_JOIN_CODE: blank, no team has (or had) this code, or the code was replaced by a new
 *   one or revoked (spec §4 "Join code regeneration invalidates the old code"; the old
 *   code answers exactly like a code that never existed, so it tells a guesser nothing).
 * - JOIN_CODE_EXPIRED: the code is the team's current one but (a) its own expiry (if it has one)
 *   has passed, or (b) the edition is over: the local date in the edition's time zone is after
 *   `edition.lateEntriesUntil` (2025: after midnight at the end of 3 May, Europe/Tallinn), when
 *   joining a team would let nobody log a kilometre any more.
 *
 * @param code as typed; compared in joinCodeComparisonForm.
 * @param now ISO-8601 instant of the decision.
 */
export function teamOfJoinCode(code: string, facts: JoinCodeFacts, now: string, edition: Edition): number {
  const wanted = joinCodeComparisonForm(code);
  if (wanted.length === 0 || facts.record === null || facts.teamJoinCode === null) throw new DomainError('INVALID_JOIN_CODE');
  if (facts.record.revoked || joinCodeComparisonForm(facts.teamJoinCode) !== wanted) {
    throw new DomainError('INVALID_JOIN_CODE', 'replaced or revoked');
  }
  if (facts.record.expiresAt !== null && parseInstant(now) >= parseInstant(facts.record.expiresAt)) {
    throw new DomainError('JOIN_CODE_EXPIRED', `expired at ${facts.record.expiresAt}`);
  }
  if (!isEntryWindowOpen(now, edition)) throw new DomainError('JOIN_CODE_EXPIRED', `the ${edition.year} edition is over`);
  return facts.record.teamId;
}

/** The global switches (spec §4); both on unless an administrator turned them off. */
export interface Settings {
  registrationEnabled: boolean;
  entryInsertionEnabled: boolean;
}

/**
 * Registration (spec §2 /register, §7 /registerteam and /jointeam) is open to visitors only while
 * the registration switch is on; administrators and the system (the importer) are not bound.
 * @throws DomainError('REGISTRATION_DISABLED')
 */
export function assertRegistrationOpen(registrationEnabled: boolean, actor: ActingUser): void {
  if (!registrationEnabled && !isPrivileged(actor)) throw new DomainError('REGISTRATION_DISABLED');
}
