/**
 * An administrator's deletions of users and teams for good (spec §7 PUT
 * /admin/deleteentities/{user,team}; §2 "Deletion is permanent"): every stream the
 * cascade touches in ONE atomic append (execute-command.ts), the account tables erased
 * in the transaction around it, and the people's keys destroyed after it (docs/decisions/0002).
 *
 * One deletion rule for people (docs/decisions/0109): an administrator's deletion of a user and
 * the user's own erasure do the same to the team's kilometres: the entries stay and read
 * as a deleted person's (the privacy page says so). A team's deletion removes its entries with it.
 *
 * What a deletion removes is found in the event store, never in the read
 * models: a team's members and entries come from the stream index
 * (stream-index.ts), each checked against its own stream. The append carries the condition that
 * the index has not moved since it was read (appendToStreamsIf, checked under the append's
 * locks); when a member joined or an entry was added meanwhile, the append rolls back and the
 * deletion gathers again (at most MAX_GATHERS times, then CONCURRENCY_CONFLICT). After the commit
 * a new entry or member fails its own revision check of the participant's or the team's stream
 * (entry/handlers.ts, account/registration.ts), so no entry survives its team or participant.
 */
import {
  DomainError,
  accountDecider,
  entryDecider,
  participantDecider,
  streams,
  teamDecider,
  type DecisionContext,
  type DomainEvent,
  type EntryState,
} from '@sinilill/domain';
import { AppendConditionFailedError, type EventStore, type RecordedEvent } from '@sinilill/event-store';
import type { AccountTransaction } from '../account/directory';
import { executeCommand, type StreamReads, type StreamWrite } from '../execute-command';
import { foldStream, type CommandRequest } from '../metadata';
import { priorCommand } from '../repeats';
import { readIndexedStreams, type IndexedStreams } from '../stream-index';
import { decisionContext, required, type CommandServiceDependencies } from '../context';

/**
 * How many times a deletion gathers what it removes and appends before it gives up with
 * CONCURRENCY_CONFLICT (first gathering included): each further one follows a member or entry
 * added between the read of the index and the append.
 */
export const MAX_GATHERS = 5;

/** One person to delete: an account, its participant, or both. */
interface PersonToDelete {
  userId: string | null;
  participantId: number | null;
  /**
   * True for a team's member found in the index: a member deleted meanwhile (by another
   * deletion) is skipped rather than refusing the team's deletion. False for a user named by the
   * administrator: an unknown or deleted one refuses the deletion (NOT_FOUND).
   */
  found: boolean;
  /**
   * The owner's erasure only: this participant is an earlier edition's participant of the account
   * `userId` being erased (AccountState.participantIds), deleted by the owner as their own.
   */
  earlierOf?: string;
}

/** Streams read while gathering, kept for the first attempt (each read once). */
type Known = Map<string, readonly RecordedEvent[]>;

/** The index keys a deletion read, as stream-index.ts takes them. */
interface IndexKeys {
  teams: readonly number[];
  participants: readonly number[];
}

/** Everything one gathering decided to delete, and the index mark it was found at. */
interface Cascade {
  teamIds: readonly number[];
  people: readonly PersonToDelete[];
  /** Ids of the live entries to delete, ascending. */
  entries: readonly number[];
  /** Whether an entry (as the append finds it) still belongs to what is deleted. */
  belongs: (entry: EntryState) => boolean;
  known: Known;
  /** The index keys and the mark they were read at; null when nothing was looked up. */
  index: { keys: IndexKeys; mark: number; condition: IndexedStreams['condition'] } | null;
  /**
   * The owner's own erasure: the verdict of the check of the password they
   * typed, passed to the deciders (DeleteUser ownPasswordValid, DeleteParticipant byOwner).
   * Undefined for an administrator's deletion.
   */
  ownPasswordValid?: boolean;
}

/** What deleteUsers does besides the administrator's deletion. */
export interface DeleteUsersOptions {
  /**
   * The owner's own erasure (the one user id must be the acting user's): the
   * verdict of the caller's check of their password, passed to the deciders. The events are
   * the administrator's deletion's (entries kept in both, docs/decisions/0109).
   */
  ownPasswordValid?: boolean;
}

const PURPOSE = 'to delete users and teams';

/**
 * Deletes accounts for good. In ONE atomic append across streams: UserDeleted for each user and,
 * when the account has a participant, ParticipantDeleted. The participant's entries STAY, as in
 * the owner's own erasure (one deletion rule, docs/decisions/0109; the privacy page says the
 * kilometres stay): the team keeps its kilometres, which read as a deleted person's from then on.
 * An entry added meanwhile fails its own revision check of the participant's stream, written in
 * the append, so none is added after it. In the same account-table transaction the e-mail index row and
 * the password hash are deleted and the tokens spent (the e-mail may register again; login
 * answers INVALID_CREDENTIALS). After the commit the person's key is destroyed
 * (`participant-{id}`, or `user-{userId}` for an account without participant), so every stored
 * copy of their name, e-mail and birth year reads null (docs/decisions/0002). Every id is decided before anything
 * is written: one refused id refuses them all. A person who took part in several editions is
 * deleted in each: the account's earlier participants get ParticipantDeleted and lose their keys
 * too, while their entries stay (earlier editions' results do not change).
 *
 * Idempotent by command id: a repeat appends nothing and runs the erasure again (which repairs
 * a run that failed between the append and the erasure).
 *
 * With `options.ownPasswordValid` it is the owner's own erasure (eraseOwnAccount
 * in self-erasure.ts): the same events and erasure, and the deciders check that the actor is the
 * owner and the password was right.
 * @returns how many accounts were deleted and the position of the append.
 * @throws DomainError FORBIDDEN (not an administrator, or the administrator's own account),
 *   INVALID_PASSWORD (the owner's erasure with a wrong password),
 *   NOT_FOUND (an unknown or already deleted account), CONCURRENCY_CONFLICT (the streams kept
 *   changing). Error when `personalData` is not wired.
 */
export async function deleteUsers(
  deps: CommandServiceDependencies,
  userIds: readonly string[],
  request: CommandRequest,
  options: DeleteUsersOptions = {},
): Promise<{ count: number; position: number }> {
  const unique = [...new Set(userIds)];
  const { ownPasswordValid } = options;
  const position = await gatheringAgainOnChange(async () => {
    const known = await readAll(deps.store, unique.map((userId) => streams.user(userId)));
    // No entry is deleted (docs/decisions/0109), so no entry belongs to the cascade.
    const belongs = () => false;
    const people = unique.flatMap((userId): PersonToDelete[] => {
      const account = foldStream(accountDecider, known.get(streams.user(userId))!);
      const person: PersonToDelete = { userId, participantId: account.participantId, found: false };
      // The person is erased in every edition they took part in: each earlier participant of the
      // account is deleted too and its key destroyed after the append (the first one's key also
      // seals the account's own e-mail and name). Earlier editions' entries stay: those editions'
      // results do not change; they read as a deleted person's.
      const earlier = account.participantIds.filter((participantId) => participantId !== account.participantId)
        .map((participantId): PersonToDelete => ({ userId: null, participantId, found: true, earlierOf: userId }));
      return [person, ...earlier];
    });
    // The entries stay, so no index is read (nothing to find, no race to lose).
    return deletePeople(deps, { teamIds: [], people, entries: [], belongs, known, index: null, ...(ownPasswordValid !== undefined ? { ownPasswordValid } : {}) }, request);
  });
  return { count: unique.length, position };
}

/**
 * Deletes teams for good. In ONE atomic append: TeamDeleted for each team; for each live member
 * (a participant registered into the team, from the stream index, checked against its stream)
 * the user deletion of deleteUsers (UserDeleted when it has an account, ParticipantDeleted); and
 * EntryDeleted for EVERY live entry of the team (entries keep their team; from the index, each
 * checked against its stream). The append holds only if no member joined and no entry was added
 * to the teams since the index was read; otherwise everything is gathered again
 * (MAX_GATHERS). In the account-table transaction the team's name is released (free for another
 * team) and its join codes revoked; the members' accounts are erased as in deleteUsers. A member's
 * account is found through the e-mail index (the participant stream holds the e-mail) and must
 * name the participant; a member without an account loses only the participant. A member or
 * entry deleted meanwhile by another deletion is skipped.
 * @returns how many teams were deleted and the position of the append.
 * @throws DomainError FORBIDDEN, NOT_FOUND (unknown or already deleted team), CONCURRENCY_CONFLICT
 *   (as deleteUsers). Error when `streamIndex` or `personalData` is not wired.
 */
export async function deleteTeams(
  deps: CommandServiceDependencies,
  teamIds: readonly number[],
  request: CommandRequest,
): Promise<{ count: number; position: number }> {
  const unique = [...new Set(teamIds)];
  const teams = new Set(unique);
  const belongs = (entry: EntryState) => entry.teamId !== null && teams.has(entry.teamId);
  const position = await gatheringAgainOnChange(async () => {
    const keys: IndexKeys = { teams: unique, participants: [] };
    const found = await readIndex(deps, keys);
    const known = await readAll(deps.store, found.members.map((participantId) => streams.participant(participantId)));
    const people: PersonToDelete[] = [];
    for (const participantId of found.members) {
      const participant = foldStream(participantDecider, known.get(streams.participant(participantId))!);
      // Only members of these teams that are still alive.
      if (!participant.exists || participant.deleted || participant.teamId === null || !teams.has(participant.teamId)) continue;
      people.push({ userId: await accountOfParticipant(deps, participantId, participant.email, known), participantId, found: true });
    }
    const entries = await liveEntries(deps.store, found.entries, belongs, known);
    return deletePeople(deps, { teamIds: unique, people, entries, belongs, known, index: { keys, mark: found.mark, condition: found.condition } }, request);
  });
  return { count: unique.length, position };
}

/**
 * Runs `gatherAndDelete` again while its append's index condition fails, at most MAX_GATHERS
 * times in all. @throws DomainError('CONCURRENCY_CONFLICT') when the last one fails too.
 */
async function gatheringAgainOnChange(gatherAndDelete: () => Promise<number>): Promise<number> {
  for (let gathering = 1; ; gathering++) {
    try {
      return await gatherAndDelete();
    } catch (error) {
      if (!(error instanceof AppendConditionFailedError)) throw error;
      if (gathering >= MAX_GATHERS) throw new DomainError('CONCURRENCY_CONFLICT', `members or entries kept being added (${MAX_GATHERS} gatherings)`);
    }
  }
}

/** The stream index's members and entries of `keys` (stream-index.ts). */
function readIndex(deps: CommandServiceDependencies, keys: IndexKeys): Promise<IndexedStreams> {
  return readIndexedStreams(required(deps.streamIndex, 'streamIndex', PURPOSE), keys);
}

/** The events of each stream (one round trip where the store has readStreams). */
async function readAll(store: EventStore, names: readonly string[]): Promise<Known> {
  if (names.length === 0) return new Map();
  if (store.readStreams) {
    const read = await store.readStreams(names.map((stream) => ({ stream })));
    return new Map(names.map((stream, index) => [stream, read.streams[index]!]));
  }
  return new Map(await Promise.all(names.map(async (stream) => [stream, await store.readStream(stream)] as const)));
}

/** The entries among `entryIds` that are live and `belong` as their streams read now; their streams join `known`. */
async function liveEntries(store: EventStore, entryIds: readonly number[], belongs: (entry: EntryState) => boolean, known: Known): Promise<number[]> {
  const read = await readAll(store, entryIds.map((entryId) => streams.entry(entryId)));
  return entryIds.filter((entryId) => {
    const events = read.get(streams.entry(entryId))!;
    const entry = foldStream(entryDecider, events);
    if (entry.status !== 'active' || !belongs(entry)) return false;
    known.set(streams.entry(entryId), events);
    return true;
  });
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

/**
 * The shared cascade of deleteUsers and deleteTeams: decide all, append once (under the index
 * condition when the cascade looked the index up), then erase.
 * @throws AppendConditionFailedError when the index moved since it was read (gather again).
 */
async function deletePeople(deps: CommandServiceDependencies, cascade: Cascade, request: CommandRequest): Promise<number> {
  const forget = required(deps.personalData, 'personalData', PURPOSE);
  const { store, directory } = deps;
  const { teamIds, people, known, index } = cascade;
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
    for (const person of people) parts.push(...personDeletion(person, cascade.ownPasswordValid));
    for (const entryId of cascade.entries) parts.push(entryDeletion(entryId, cascade.belongs));
  }
  const outcome = await executeCommand(store, {
    streams: parts.map((p) => p.stream),
    known,
    prior,
    context,
    metadata: request.metadata,
    decide: (read, ctx) => parts.map((p) => p(read, ctx)),
    ...(index ? { condition: index.condition } : {}),
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

/**
 * The parts that delete one person: account and participant. A member found in the index that
 * is no longer live when the append reads it is left alone (zero events: a revision check).
 */
function personDeletion(person: PersonToDelete, ownPasswordValid: boolean | undefined): Part[] {
  const parts: Part[] = [];
  const { userId, participantId, found } = person;
  const byOwner = ownPasswordValid !== undefined;
  if (userId !== null) {
    const stream = streams.user(userId);
    parts.push(part(stream, (read, ctx) => {
      const account = read.fold(stream, accountDecider);
      if (found && (!account.exists || account.deleted)) return [];
      return accountDecider.decide({ type: 'DeleteUser', data: { userId, ...(byOwner ? { ownPasswordValid } : {}) } }, account, ctx);
    }));
  }
  if (participantId !== null) {
    const stream = streams.participant(participantId);
    parts.push(part(stream, (read, ctx) => {
      const participant = read.fold(stream, participantDecider);
      if (found && (!participant.exists || participant.deleted)) return [];
      // An earlier edition's participant of the erased account is the owner's own as much as the
      // current one: the owner acts as that participant (the account's stream, checked in the same
      // append, names it).
      const context = byOwner && person.earlierOf !== undefined ? { ...ctx, actor: { ...ctx.actor, participantId } } : ctx;
      return participantDecider.decide({ type: 'DeleteParticipant', data: { participantId, ...(byOwner ? { byOwner } : {}) } }, participant, context);
    }));
  }
  return parts;
}

/**
 * The part that deletes one entry; one deleted meanwhile, or moved away from the deleted
 * participant by an edit, is left alone (zero events: a revision check).
 */
function entryDeletion(entryId: number, belongs: (entry: EntryState) => boolean): Part {
  const stream = streams.entry(entryId);
  return part(stream, (read, ctx) => {
    const entry = read.fold(stream, entryDecider);
    if (entry.status !== 'active' || !belongs(entry)) return [];
    return entryDecider.decide({ type: 'DeleteEntry', data: { entryId } }, entry, ctx);
  });
}
