/**
 * An administrator's deletions of users and teams for good (spec §7 PUT
 * /admin/deleteentities/{user,team}; §2 "Deletion is permanent"; issue 6): every stream the
 * cascade touches in ONE atomic append (handler/command-handler.ts), the account tables erased
 * in the transaction around it, and the people's keys destroyed after it (D2).
 */
import { accountDecider, entryDecider, participantDecider, streams, teamDecider, type DecisionContext, type DomainEvent } from '@sinilill/domain';
import type { RecordedEvent } from '@sinilill/event-store';
import type { AccountTransaction } from '../accounts/directory';
import { executeCommand, type StreamReads, type StreamWrite } from '../handler/command-handler';
import { foldStream, type CommandRequest } from '../handler/metadata';
import { priorCommand } from '../handler/repeats';
import { decisionContext, required, type CommandServiceDependencies } from './context';

/** One person to delete: an account, its participant, or both. */
interface PersonToDelete {
  userId: string | null;
  participantId: number | null;
}

/** Streams read while gathering the people, kept for the first attempt (each read once). */
type Known = Map<string, readonly RecordedEvent[]>;

const PURPOSE = 'to delete users and teams';

/**
 * Deletes accounts for good. For each user, in ONE atomic append across streams: UserDeleted, and
 * when the account has a participant, ParticipantDeleted and EntryDeleted for each of the
 * participant's live entries (found through `entriesOfParticipant`). In the same account-table
 * transaction the e-mail index row and the password hash are deleted and the tokens spent (the
 * e-mail may register again; login answers INVALID_CREDENTIALS). After the commit the person's key
 * is destroyed (`participant-{id}`, or `user-{userId}` for an account without participant), so
 * every stored copy of their name, e-mail and birth year reads null (D2). Every id is decided
 * before anything is written: one refused id refuses them all.
 *
 * Idempotent by command id: a repeat appends nothing and runs the erasure again (which repairs
 * a run that failed between the append and the erasure).
 * @returns how many accounts were deleted and the position of the append.
 * @throws DomainError FORBIDDEN (not an administrator, or the administrator's own account),
 *   NOT_FOUND (an unknown or already deleted account), CONCURRENCY_CONFLICT.
 */
export async function deleteUsers(
  deps: CommandServiceDependencies,
  userIds: readonly string[],
  request: CommandRequest,
): Promise<{ count: number; position: number }> {
  const unique = [...new Set(userIds)];
  const known: Known = new Map();
  const people = await Promise.all(unique.map(async (userId): Promise<PersonToDelete> => {
    const events = await deps.store.readStream(streams.user(userId));
    known.set(streams.user(userId), events);
    return { userId, participantId: foldStream(accountDecider, events).participantId };
  }));
  const position = await deletePeople(deps, people, [], known, request);
  return { count: unique.length, position };
}

/**
 * Deletes teams for good. In ONE atomic append: TeamDeleted for each team and, for each member
 * (from `membersOfTeam`, each checked against its stream), the user deletion of deleteUsers
 * (UserDeleted, ParticipantDeleted, EntryDeleted). In the account-table transaction the team's
 * name is released (free for another team) and its join codes revoked; the members' accounts are
 * erased as in deleteUsers. A member's account is found through the e-mail index (the participant
 * stream holds the e-mail) and must name the participant; a member without an account loses only
 * the participant and its entries.
 * @returns how many teams were deleted and the position of the append.
 * @throws DomainError FORBIDDEN, NOT_FOUND (unknown or already deleted team), CONCURRENCY_CONFLICT.
 */
export async function deleteTeams(
  deps: CommandServiceDependencies,
  teamIds: readonly number[],
  request: CommandRequest,
): Promise<{ count: number; position: number }> {
  const unique = [...new Set(teamIds)];
  const membersOfTeam = required(deps.membersOfTeam, 'membersOfTeam', PURPOSE);
  const known: Known = new Map();
  const people: PersonToDelete[] = [];
  for (const teamId of unique) {
    for (const participantId of await membersOfTeam(teamId)) {
      const events = await deps.store.readStream(streams.participant(participantId));
      const participant = foldStream(participantDecider, events);
      // Only members of this team that are still alive (the read model may lag a deletion).
      if (!participant.exists || participant.deleted || participant.teamId !== teamId) continue;
      known.set(streams.participant(participantId), events);
      people.push({ userId: await accountOfParticipant(deps, participantId, participant.email, known), participantId });
    }
  }
  const position = await deletePeople(deps, people, unique, known, request);
  return { count: unique.length, position };
}

/** The account (user id) of a participant, through the e-mail index; null when it has none. */
async function accountOfParticipant(deps: CommandServiceDependencies, participantId: number, email: string | null, known: Known): Promise<string | null> {
  if (!deps.directory || email === null) return null;
  const userId = await deps.directory.userIdOfEmail(email);
  if (userId === null) return null;
  const events = await deps.store.readStream(streams.user(userId));
  const account = foldStream(accountDecider, events);
  if (!account.exists || account.deleted || account.participantId !== participantId) return null;
  known.set(streams.user(userId), events);
  return userId;
}

/** The shared cascade of deleteUsers and deleteTeams: decide all, append once, then erase. */
async function deletePeople(
  deps: CommandServiceDependencies,
  people: readonly PersonToDelete[],
  teamIds: readonly number[],
  known: Known,
  request: CommandRequest,
): Promise<number> {
  const forget = required(deps.personalData, 'personalData', PURPOSE);
  const { store, directory } = deps;
  const context = await decisionContext(deps, request);
  const at = new Date(context.now);
  const eraseTables = async (tx: AccountTransaction) => {
    for (const teamId of teamIds) await tx.releaseTeam(teamId, at);
    for (const person of people) if (person.userId !== null) await tx.eraseAccount(person.userId, at);
  };
  const prior = await priorCommand(store, request.metadata);
  if (prior && directory) await directory.transaction(eraseTables);
  const parts: Part[] = [];
  if (!prior) {
    for (const teamId of teamIds) {
      const stream = streams.team(teamId);
      parts.push(part(stream, (read, ctx) => teamDecider.decide({ type: 'DeleteTeam', data: { teamId } }, read.fold(stream, teamDecider), ctx)));
    }
    for (const person of people) parts.push(...(await personDeletion(deps, person, known)));
  }
  const outcome = await executeCommand(store, {
    streams: parts.map((p) => p.stream),
    known,
    prior,
    context,
    metadata: request.metadata,
    decide: (read, ctx) => parts.map((p) => p(read, ctx)),
    ...(directory ? {
      within: (attempts) => directory.transaction(async (tx) => {
        await eraseTables(tx);
        return attempts();
      }),
    } : {}),
  });
  for (const person of people) {
    await forget.forget(person.participantId !== null ? streams.participant(person.participantId) : streams.user(person.userId!));
  }
  return outcome.position;
}

/** One stream's part of the cascade: its stream, and its decision over what was read. */
type Part = ((read: StreamReads, context: DecisionContext) => StreamWrite) & { stream: string };

/** A Part of `stream` deciding with `decide`. */
function part(stream: string, decide: (read: StreamReads, context: DecisionContext) => DomainEvent[]): Part {
  return Object.assign((read: StreamReads, context: DecisionContext) => ({ stream, events: decide(read, context) }), { stream });
}

/** The parts that delete one person: account, participant, the participant's live entries. */
async function personDeletion(deps: CommandServiceDependencies, person: PersonToDelete, known: Known): Promise<Part[]> {
  const parts: Part[] = [];
  const { userId, participantId } = person;
  if (userId !== null) {
    const stream = streams.user(userId);
    parts.push(part(stream, (read, ctx) => accountDecider.decide({ type: 'DeleteUser', data: { userId } }, read.fold(stream, accountDecider), ctx)));
  }
  if (participantId === null) return parts;
  const stream = streams.participant(participantId);
  parts.push(part(stream, (read, ctx) => participantDecider.decide({ type: 'DeleteParticipant', data: { participantId } }, read.fold(stream, participantDecider), ctx)));
  const entriesOfParticipant = required(deps.entriesOfParticipant, 'entriesOfParticipant', PURPOSE);
  for (const entryId of await entriesOfParticipant(participantId)) {
    const entryStream = streams.entry(entryId);
    const events = await deps.store.readStream(entryStream);
    const entry = foldStream(entryDecider, events);
    if (entry.status !== 'active' || entry.participantId !== participantId) continue;
    known.set(entryStream, events);
    parts.push(part(entryStream, (read, ctx) => entryDecider.decide({ type: 'DeleteEntry', data: { entryId } }, read.fold(entryStream, entryDecider), ctx)));
  }
  return parts;
}
