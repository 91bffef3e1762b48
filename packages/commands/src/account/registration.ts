/**
 * Registration (spec §2 REGISTER_TEAM and JOIN_TEAM, §5 validation; §7 /registerteam, /jointeam):
 * the team (for a new team), the participant and the account decided together and appended in
 * ONE atomic append on the write path (execute-command.ts), inside an AccountDirectory
 * transaction that reserves the team name, join code and e-mail and writes the password hash and
 * the confirmation token first: a refusal or a failed append rolls every table change back. The
 * confirmation mail goes out after the commit.
 */
import { randomUUID } from 'node:crypto';
import {
  DomainError,
  accountDecider,
  assertRegistrationOpen,
  assertValidNewPassword,
  participantDecider,
  streams,
  teamDecider,
  teamOfJoinCode,
  isPrivileged,
  type ActingUser,
  type DecisionContext,
  type Edition,
  type Settings,
  type TeamState,
  type UserRegistered,
} from '@sinilill/domain';
import { confirmationMail, registrationAttemptMail } from '@sinilill/mail';
import type { AccountTransaction } from './directory';
import { assertStrongPassword } from './password-strength';
import { hashPassword, newJoinCode, newToken } from './secrets';
import { executeCommand, type StreamReads, type StreamWrite } from '../execute-command';
import { foldStream, type CommandRequest } from '../metadata';
import { priorCommand } from '../repeats';
import { issueResetLink } from './handlers';
import { editionSourceOf } from '../context';
import { accountContext, accountEdition, confirmationLink, registrationEdition, hours, identityOf, trySend, type AccountDeps, type RegistrationInput, type RegistrationResult } from './shared';

/** The ids a registration gives out (drawn before deciding, so that a retry keeps them). */
interface NewIds {
  teamId: number;
  participantId: number;
  userId: string;
}

/**
 * Registers a new team with the person as its captain, and the person's account (spec §2
 * REGISTER_TEAM): TeamRegistered, ParticipantRegistered and UserRegistered in one atomic
 * append, then the confirmation mail in `input.lang`. An address that already has an account
 * creates nothing and answers the same (registrationOfKnownAddress). `company` (default false) registers a
 * company team (15 EUR per person, the captain may pay for all).
 * @throws DomainError REGISTRATION_DISABLED, PASSWORD_TOO_SHORT, PASSWORD_TOO_WEAK (judged with
 *   the e-mail, name and team name), INVALID_EMAIL, INVALID_REQUEST, VALUE_TOO_LONG,
 *   TEAM_NAME_ALREADY_IN_USE.
 */
export async function registerTeamWithCaptain(
  deps: AccountDeps,
  input: RegistrationInput & { teamName: string; company?: boolean },
  request: CommandRequest,
): Promise<RegistrationResult> {
  const { ctx: accountCtx, settings, now } = await accountContext(deps, request);
  await assertMayRegister(deps, input, settings, request.actor, input.teamName);
  const ctx: DecisionContext = { ...accountCtx, edition: await joiningEdition(deps, request, now) };
  const { directory, ids } = deps;
  // Names and codes are unique within the edition the team joins.
  const year = ctx.edition!.year;
  // Early answers without spending ids; the transaction below is what holds under races.
  if ((await directory.teamOfName(input.teamName, year)) !== null) throw new DomainError('TEAM_NAME_ALREADY_IN_USE');
  const existing = await directory.userIdOfEmail(input.email);
  if (existing !== null) return registrationOfKnownAddress(deps, input, existing, request);
  let joinCode = newJoinCode();
  while ((await directory.joinCode(joinCode, year)) !== null) joinCode = newJoinCode();
  const newIds: NewIds = { teamId: await ids.next('team'), participantId: await ids.next('participant'), userId: randomUUID() };
  const { teamId } = newIds;
  const team = streams.team(teamId);
  return neutralOnTakenEmail(deps, input, request, () => register(deps, input, request, ctx, newIds, [team], (read, context) => ({
    stream: team,
    events: teamDecider.decide({
      type: 'RegisterTeam',
      data: { teamId, teamName: input.teamName, description: '', joinCode, icon: null, ...(input.company ? { company: true } : {}) },
    }, read.fold(team, teamDecider), context),
  }), { isCaptain: true, registrationEnabled: settings.registrationEnabled, now }, async (tx) => {
    await tx.reserveTeamName(input.teamName, teamId, year);
    if (!(await tx.reserveJoinCode(joinCode, teamId, null, now, year))) throw new DomainError('CONCURRENCY_CONFLICT', 'join code drawn twice');
  }));
}

/**
 * Registers the person into the team of a join code, with an account (spec §2 JOIN_TEAM):
 * ParticipantRegistered and UserRegistered in one atomic append, then the confirmation mail. The
 * team's stream is checked in the same append (zero events): a join decided before a deletion of
 * the team commits fails its check and is judged again.
 * @throws DomainError as registerTeamWithCaptain, plus INVALID_JOIN_CODE and JOIN_CODE_EXPIRED
 *   (see teamOfJoinCode: replaced, revoked, or the edition is over).
 */
export async function joinTeam(
  deps: AccountDeps,
  input: RegistrationInput & { joinCode: string },
  request: CommandRequest,
): Promise<RegistrationResult> {
  const { ctx: accountCtx, settings, now } = await accountContext(deps, request);
  await assertMayRegister(deps, input, settings, request.actor);
  const { directory, ids, store } = deps;
  const { edition, open } = await joinCodeEdition(deps, request, now);
  // Codes are unique within an edition: only the joining edition's codes are looked at.
  const record = input.joinCode.trim() === '' ? null : await directory.joinCode(input.joinCode, edition.year);
  const team = record ? foldStream(teamDecider, await store.readStream(streams.team(record.teamId))) : null;
  const ctx: DecisionContext = { ...accountCtx, edition };
  // A code of another edition's team joins nobody now: that edition is over, or not yet open.
  const teamJoinCode = team?.edition === edition.year ? liveJoinCode(team) : null;
  const teamId = teamOfJoinCode(input.joinCode, { record, teamJoinCode }, ctx.now, edition);
  if (!open) throw new DomainError('REGISTRATION_NOT_OPEN');
  const existing = await directory.userIdOfEmail(input.email);
  if (existing !== null) return registrationOfKnownAddress(deps, input, existing, request);
  const newIds: NewIds = { teamId, participantId: await ids.next('participant'), userId: randomUUID() };
  // The team's stream is part of the append as a revision check (zero events), and the code is
  // judged again on the team as the append reads it: a team deleted (or its code replaced) before
  // the append refuses the join, so no member joins a deleted team.
  const teamStream = streams.team(teamId);
  return neutralOnTakenEmail(deps, input, request, () => register(deps, input, request, ctx, newIds, [teamStream], (read, context) => {
    const current = read.fold(teamStream, teamDecider);
    teamOfJoinCode(input.joinCode, { record, teamJoinCode: current.edition === edition.year ? liveJoinCode(current) : null }, context.now, edition);
    return { stream: teamStream, events: [] };
  }, { isCaptain: false, registrationEnabled: settings.registrationEnabled, now }, async () => undefined));
}

/**
 * Runs a registration; when the e-mail was taken between the early look-up and the append (the
 * directory refuses it in the transaction), answers as for any registered address.
 */
async function neutralOnTakenEmail(
  deps: AccountDeps,
  input: RegistrationInput,
  request: CommandRequest,
  run: () => Promise<RegistrationResult>,
): Promise<RegistrationResult> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'EMAIL_ALREADY_IN_USE') throw error;
    const existing = await deps.directory.userIdOfEmail(input.email);
    if (existing === null) throw error;
    return registrationOfKnownAddress(deps, input, existing, request);
  }
}

/**
 * A registration with an address that already has an account (spec §7 /registerteam, /jointeam):
 * answered as a new registration is, so that nobody learns which addresses are registered; no
 * team, participant or account is created. The address's owner gets a mail in the request's
 * language with a login link and a password-reset link (a new reset token: issueResetLink), so
 * that a returning participant, above all one imported without a password, gets in from there.
 * The password is hashed and thrown away, so that the answer takes about as long as a real
 * registration's. The answer's position is the log's head (nothing was appended).
 */
async function registrationOfKnownAddress(deps: AccountDeps, input: RegistrationInput, userId: string, request: CommandRequest): Promise<RegistrationResult> {
  await hashPassword(input.password);
  const issued = await issueResetLink(deps, userId, request);
  const known = async (mailSent: boolean): Promise<RegistrationResult> => {
    const identity = issued ? await identityOf(deps.store, issued.account) : null;
    return {
      created: false, userId, teamId: identity?.teamId ?? 0, participantId: identity?.participantId ?? 0,
      position: await deps.store.headPosition(), mailSent,
    };
  };
  if (!issued) return known(true);
  const mail = registrationAttemptMail(
    { email: issued.account.email!, fullName: issued.account.fullName ?? '' },
    { login: `${deps.publicUrl}/login`, reset: issued.link },
    input.lang,
    { validHours: deps.resetValidHours, hasPassword: issued.account.hasPassword },
  );
  return known(await trySend(deps, mail, 'reset'));
}

/** The join code of a live team; null for an unknown or deleted team (its code joins nobody). */
export function liveJoinCode(team: TeamState | null): string | null {
  return team?.exists && !team.deleted ? team.joinCode : null;
}

/**
 * The edition a registration joins: the one taking registrations now (registrationEdition); an
 * administrator or the importer registers into the current or latest edition at any time.
 * @throws DomainError('REGISTRATION_NOT_OPEN') for anyone else between editions.
 */
async function joiningEdition(deps: AccountDeps, request: CommandRequest, now: Date): Promise<Edition> {
  if (isPrivileged(request.actor)) return accountEdition(deps, now);
  return registrationEdition(deps, now);
}

/**
 * The edition a join by code is judged in: the joining edition (joiningEdition, `open`), or,
 * once the current edition's registration is over, that edition (not `open`): its teams' codes
 * then answer JOIN_CODE_EXPIRED and unknown codes INVALID_JOIN_CODE, as spec §8 has them answer
 * after the event, rather than every code answering REGISTRATION_NOT_OPEN.
 * @throws DomainError('REGISTRATION_NOT_OPEN') when no edition has begun.
 */
async function joinCodeEdition(deps: AccountDeps, request: CommandRequest, now: Date): Promise<{ edition: Edition; open: boolean }> {
  try {
    return { edition: await joiningEdition(deps, request, now), open: true };
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'REGISTRATION_NOT_OPEN' || deps.edition) throw error;
    const current = (await editionSourceOf(deps).catalog()).current(now.toISOString());
    if (!current) throw error;
    return { edition: current.edition, open: false };
  }
}

async function assertMayRegister(deps: AccountDeps, input: RegistrationInput, settings: Settings, actor: ActingUser, teamName: string | null = null): Promise<void> {
  assertRegistrationOpen(settings.registrationEnabled, actor);
  assertValidNewPassword(input.password, await accountEdition(deps));
  assertStrongPassword(input.password, { email: input.email, fullName: input.fullName, teamName });
}

/**
 * Decides the registration (the team's part first, then the participant's and the account's: the
 * event ids run across them in that order), appends it in the account transaction after
 * `reserveTeam` and the person's reservations, then mails the confirmation link.
 */
async function register(
  deps: AccountDeps,
  input: RegistrationInput,
  request: CommandRequest,
  ctx: DecisionContext,
  ids: NewIds,
  extraStreams: readonly string[],
  teamPart: ((read: StreamReads, context: DecisionContext) => StreamWrite) | null,
  person: { isCaptain: boolean; registrationEnabled: boolean; now: Date },
  reserveTeam: (tx: AccountTransaction) => Promise<void>,
): Promise<RegistrationResult> {
  const { userId, teamId, participantId } = ids;
  const { now } = person;
  const participant = streams.participant(participantId);
  const user = streams.user(userId);
  const passwordHash = await hashPassword(input.password);
  const confirmation = newToken();
  const outcome = await executeCommand(deps.store, {
    streams: [...extraStreams, participant, user],
    context: ctx,
    metadata: request.metadata,
    // A registration is not looked up as a repeat (its ids are new each time).
    prior: null,
    decide: (read, context) => [
      ...(teamPart ? [teamPart(read, context)] : []),
      {
        stream: participant,
        events: participantDecider.decide({
          type: 'RegisterParticipant',
          data: {
            participantId, teamId, fullName: input.fullName, email: input.email, birthYear: input.birthYear,
            gender: input.gender, isCaptain: person.isCaptain, newsletter: input.newsletter,
          },
        }, read.fold(participant, participantDecider), context),
      },
      {
        stream: user,
        events: accountDecider.decide({
          type: 'RegisterUser',
          data: {
            userId, participantId, email: input.email, fullName: input.fullName, role: 'USER', approved: false,
            hasPassword: true, lang: input.lang, registrationEnabled: person.registrationEnabled,
          },
        }, read.fold(user, accountDecider), context),
      },
    ],
    within: (attempts) => deps.directory.transaction(async (tx) => {
      await reserveTeam(tx);
      await tx.reserveEmail(input.email, userId);
      await tx.setPasswordHash(userId, passwordHash, now);
      await tx.addToken(confirmation.hash, userId, 'confirm', now, hours(now, deps.confirmationValidHours));
      return attempts();
    }),
  });
  const registered = outcome.events.find((event): event is UserRegistered => event.type === 'UserRegistered');
  if (!registered) return { created: true, userId, teamId, participantId, position: outcome.position, mailSent: false };
  const to = { email: registered.data.email!, fullName: registered.data.fullName! };
  const mailSent = await trySend(deps, confirmationMail(to, confirmationLink(deps, confirmation.token, userId), input.lang), 'confirmation');
  return { created: true, userId, teamId, participantId, position: outcome.position, mailSent };
}

/**
 * The answer to a keyed registration handled before (a client's retry of a
 * registration whose answer was lost answers as the first run did, appends nothing and mails
 * nothing), or null when the request has no Idempotency-Key or the key is new. The command's
 * events are one append (contiguous positions, docs/decisions/0001): its ParticipantRegistered and UserRegistered
 * are found right after its first event.
 * @throws DomainError('IDEMPOTENCY_KEY_REUSED') when the key was used for another request.
 */
export async function repeatedRegistration(deps: AccountDeps, request: CommandRequest): Promise<RegistrationResult | null> {
  if (request.metadata.requestFingerprint === undefined) return null;
  const prior = await priorCommand(deps.store, request.metadata);
  if (!prior) return null;
  const events = [prior, ...(await deps.store.readAll({ after: prior.globalPosition, maxCount: 4 }))]
    .filter((event) => event.metadata.commandId === request.metadata.commandId);
  const participant = events.find((event) => event.type === 'ParticipantRegistered');
  const user = events.find((event) => event.type === 'UserRegistered');
  if (!participant || !user) return null;
  const participantData = participant.data as { participantId: number; teamId: number };
  return {
    created: true,
    userId: (user.data as { userId: string }).userId,
    teamId: participantData.teamId,
    participantId: participantData.participantId,
    position: events.at(-1)!.globalPosition,
    mailSent: true,
  };
}
