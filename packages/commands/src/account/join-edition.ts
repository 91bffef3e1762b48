/**
 * A returning participant joins the edition taking registrations with the account they already
 * have (POST /api/me/editions/{year}/join; docs/decisions/0083). A person takes part in each
 * edition as a NEW participant: the new participant's ParticipantRegistered (profile carried over
 * from the person's latest participant: name, e-mail, birth year, gender, newsletter choice), the
 * team's part (a new team, a team of the edition by its join code, or a new team that continues an
 * earlier team of the person's) and the account's UserJoinedEdition go in ONE atomic append
 * (execute-command.ts), inside an AccountDirectory transaction that reserves the new team's name
 * and join code in the edition and ends the account's earlier sessions (their claims name last
 * year's participant; the route starts a new session at once). The fee is the new edition's: the
 * participant belongs to it (ParticipantRegistered.edition) and every fee rule reads that edition.
 *
 * Nobody is carried into a new edition without this step: a person who does not return has no
 * participant in it and is counted nowhere in it.
 */
import {
  DomainError,
  accountDecider,
  announcementStreams,
  assertRegistrationOpen,
  isUserId,
  participantDecider,
  streams,
  teamDecider,
  teamOfJoinCode,
  type AccountState,
  type DecisionContext,
  type ParticipantState,
  type TeamRegistered,
} from '@sinilill/domain';
import type { EventStore } from '@sinilill/event-store';
import type { AccountTransaction } from './directory';
import { newJoinCode } from './secrets';
import { executeCommand, type StreamReads, type StreamWrite } from '../execute-command';
import { foldStream, type CommandRequest } from '../metadata';
import { priorCommand } from '../repeats';
import { teamState } from '../context';
import { liveJoinCode } from './registration';
import { accountContext, accountState, registrationEdition, type AccountDeps } from './shared';

/**
 * How the person joins (the request body):
 * - `newTeam`: a new team with the person as its captain; `teamName` must be free in the edition
 *   (last year's names are free again); `company` registers a company team;
 * - `joinCode`: the team of the edition with this join code;
 * - `reopenTeam`: a new team with the name, description, icon and company flag of the person's team
 *   `teamId` of an earlier edition, which it `continues`; the person is its captain.
 */
export type JoinEditionInput =
  | { mode: 'newTeam'; teamName: string; company?: boolean }
  | { mode: 'joinCode'; joinCode: string }
  | { mode: 'reopenTeam'; teamId: number };

/** What a join answers: the new participant and its team, and the position of the append's last event. */
export interface JoinEditionResult {
  userId: string;
  participantId: number;
  teamId: number;
  /** The new team's join code (newTeam, reopenTeam); null when the person joined a team by its code. */
  joinCode: string | null;
  position: number;
}

/** The team's part of a join: the team, whether the person is its captain, its new code, the decision, the reservations. */
interface TeamPlan {
  teamId: number;
  isCaptain: boolean;
  joinCode: string | null;
  decide: (read: StreamReads, context: DecisionContext) => StreamWrite;
  reserve: (tx: AccountTransaction) => Promise<void>;
}

/**
 * Joins the acting person to edition `year` (see the module's comment). A keyed request answered
 * before answers again as it did (nothing appended).
 * @throws DomainError UNAUTHORIZED (no account in the token); REGISTRATION_DISABLED (the switch);
 *   REGISTRATION_NOT_OPEN (`year` is not the edition taking registrations now); NOT_FOUND (a
 *   deleted account; reopenTeam of an unknown or deleted team); FORBIDDEN (an account without a
 *   participant; reopenTeam of a team the person was not a member of); ALREADY_EXISTS (the person
 *   takes part in `year` already); INVALID_REQUEST (reopenTeam of a team that is not of an earlier
 *   edition); TEAM_NAME_ALREADY_IN_USE (the name is taken in `year`); INVALID_JOIN_CODE and
 *   JOIN_CODE_EXPIRED (the code is not a live code of a team of `year`); the deciders' codes.
 */
export async function joinEdition(deps: AccountDeps, year: number, input: JoinEditionInput, request: CommandRequest): Promise<JoinEditionResult> {
  const userId = request.actor.userId;
  if (!isUserId(userId)) throw new DomainError('UNAUTHORIZED', 'not an account');
  const repeat = await repeatedJoin(deps.store, userId, request);
  if (repeat) return repeat;
  const { ctx: accountCtx, settings, now } = await accountContext(deps, request);
  assertRegistrationOpen(settings.registrationEnabled, request.actor);
  const edition = await registrationEdition(deps, now);
  if (edition.year !== year) throw new DomainError('REGISTRATION_NOT_OPEN', `${year} does not take registrations now`);
  const ctx: DecisionContext = { ...accountCtx, edition };
  const { store } = deps;
  const account = await accountState(store, userId);
  if (!account.exists || account.deleted) throw new DomainError('NOT_FOUND', `user ${userId}`);
  const earlier = await participantsOf(store, account);
  const editionsTakenPart = earlier.flatMap((participant) => (participant.edition !== null ? [participant.edition] : []));
  if (editionsTakenPart.includes(year)) throw new DomainError('ALREADY_EXISTS', `user ${userId} takes part in ${year} already`);
  const latest = earlier.find((participant) => participant.participantId === account.participantId);
  if (!latest || !latest.exists || latest.deleted) throw new DomainError('FORBIDDEN', 'an account without a participant takes part in no edition');
  const newsletter = latest.newsletter && (await store.readStream(announcementStreams.newsletter(latest.participantId!))).length === 0;

  const plan = await teamPlan(deps, year, input, earlier, ctx);
  const participantId = await deps.ids.next('participant');
  const team = streams.team(plan.teamId);
  const participant = streams.participant(participantId);
  const user = streams.user(userId);
  const outcome = await executeCommand(store, {
    streams: [team, participant, user],
    context: ctx,
    metadata: request.metadata,
    decide: (read, context) => {
      const current = read.fold(user, accountDecider);
      // Another join of this account committed since the participants were read: its edition is
      // not among editionsTakenPart, so this one is refused rather than decided on stale facts.
      if (current.participantIds.length !== account.participantIds.length) throw new DomainError('ALREADY_EXISTS', 'the account joined an edition meanwhile');
      return [
        plan.decide(read, context),
        {
          stream: participant,
          events: participantDecider.decide({
            type: 'RegisterParticipant',
            data: {
              participantId, teamId: plan.teamId, fullName: latest.fullName ?? '', email: latest.email ?? account.email ?? '',
              birthYear: latest.birthYear ?? 0, gender: latest.gender ?? 'UNDEFINED', isCaptain: plan.isCaptain, newsletter,
            },
          }, read.fold(participant, participantDecider), context),
        },
        {
          stream: user,
          events: accountDecider.decide({ type: 'JoinEdition', data: { userId, participantId, edition: year, editionsTakenPart } }, current, context),
        },
      ];
    },
    within: (attempts) => deps.directory.transaction(async (tx) => {
      await plan.reserve(tx);
      // The account's tokens name its earlier participant: they end with the join (the route
      // gives the caller a new session naming the new one).
      await tx.raiseSessionVersion(userId, now);
      return attempts();
    }),
  });
  return { userId, participantId, teamId: plan.teamId, joinCode: plan.joinCode, position: outcome.position };
}

/** The team's part of a join for `input` (see JoinEditionInput), with the early refusals that spend no id. */
async function teamPlan(deps: AccountDeps, year: number, input: JoinEditionInput, earlier: readonly ParticipantState[], ctx: DecisionContext): Promise<TeamPlan> {
  const { directory, ids, store } = deps;
  const now = new Date(ctx.now);
  if (input.mode === 'joinCode') {
    // Codes are unique within an edition: only this edition's codes join anybody.
    const record = input.joinCode.trim() === '' ? null : await directory.joinCode(input.joinCode, year);
    const found = record ? await teamState(store, record.teamId) : null;
    const codeOf = (team: typeof found) => (team?.edition === year ? liveJoinCode(team) : null);
    const teamId = teamOfJoinCode(input.joinCode, { record, teamJoinCode: codeOf(found) }, ctx.now, ctx.edition!);
    const stream = streams.team(teamId);
    return {
      teamId, isCaptain: false, joinCode: null, reserve: async () => undefined,
      // The team's stream is a revision check (zero events); the code is judged again on the team
      // as the append reads it, so nobody joins a team deleted (or its code replaced) meanwhile.
      decide: (read, context) => {
        teamOfJoinCode(input.joinCode, { record, teamJoinCode: codeOf(read.fold(stream, teamDecider)) }, context.now, ctx.edition!);
        return { stream, events: [] };
      },
    };
  }
  let team: { teamName: string; description: string; icon: string | null; company: boolean; continues?: number };
  if (input.mode === 'newTeam') {
    team = { teamName: input.teamName, description: '', icon: null, company: input.company === true };
  } else {
    const old = await teamState(store, input.teamId);
    if (!old.exists || old.deleted) throw new DomainError('NOT_FOUND', `team ${input.teamId}`);
    if (old.edition === null || old.edition >= year) throw new DomainError('INVALID_REQUEST', 'only a team of an earlier edition is re-opened');
    if (!earlier.some((participant) => participant.teamId === input.teamId)) throw new DomainError('FORBIDDEN', `not a member of team ${input.teamId}`);
    team = { teamName: old.teamName ?? '', description: old.description ?? '', icon: old.icon, company: old.company === true, continues: input.teamId };
  }
  // Early answers without spending ids; the reservations in the transaction are what holds under races.
  if ((await directory.teamOfName(team.teamName, year)) !== null) throw new DomainError('TEAM_NAME_ALREADY_IN_USE');
  let joinCode = newJoinCode();
  while ((await directory.joinCode(joinCode, year)) !== null) joinCode = newJoinCode();
  const teamId = await ids.next('team');
  const stream = streams.team(teamId);
  const { teamName, description, icon, company, continues } = team;
  return {
    teamId, isCaptain: true, joinCode,
    decide: (read, context) => ({
      stream,
      events: teamDecider.decide({
        type: 'RegisterTeam',
        data: { teamId, teamName, description, joinCode, icon, ...(company ? { company: true } : {}), ...(continues !== undefined ? { continues } : {}) },
      }, read.fold(stream, teamDecider), context),
    }),
    reserve: async (tx) => {
      await tx.reserveTeamName(teamName, teamId, year);
      if (!(await tx.reserveJoinCode(joinCode, teamId, null, now, year))) throw new DomainError('CONCURRENCY_CONFLICT', 'join code drawn twice');
    },
  };
}

/** Every participant of the account, oldest first, folded from their streams (with their ids). */
async function participantsOf(store: EventStore, account: AccountState): Promise<ParticipantState[]> {
  const states: ParticipantState[] = [];
  for (const participantId of account.participantIds) {
    states.push(foldStream(participantDecider, await store.readStream(streams.participant(participantId))));
  }
  return states;
}

/**
 * The answer to a keyed join handled before (its events are one append: contiguous positions,
 * docs/decisions/0001), or null when the request has no Idempotency-Key or the key is new.
 * @throws DomainError('IDEMPOTENCY_KEY_REUSED') when the key was used for another request.
 */
async function repeatedJoin(store: EventStore, userId: string, request: CommandRequest): Promise<JoinEditionResult | null> {
  if (request.metadata.requestFingerprint === undefined) return null;
  const prior = await priorCommand(store, request.metadata);
  if (!prior) return null;
  const events = [prior, ...(await store.readAll({ after: prior.globalPosition, maxCount: 3 }))]
    .filter((event) => event.metadata.commandId === request.metadata.commandId);
  const participant = events.find((event) => event.type === 'ParticipantRegistered');
  if (!participant) return null;
  const registered = events.find((event) => event.type === 'TeamRegistered');
  const data = participant.data as { participantId: number; teamId: number };
  return {
    userId, participantId: data.participantId, teamId: data.teamId,
    joinCode: registered ? (registered.data as TeamRegistered['data']).joinCode : null,
    position: events.at(-1)!.globalPosition,
  };
}
