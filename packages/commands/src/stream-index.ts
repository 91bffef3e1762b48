/**
 * What a deletion removes, found in the event log itself, not in the read models (which may lag):
 * a team's members and entries, a participant's entries. Read through EventStore.readEvents, on
 * either engine: a team's members by `teamId` of ParticipantRegistered, entries by
 * `participantId` of EntryAdded and EntryEdited (a team's entries are its members': an edit
 * moves an entry only within its team). On PostgreSQL the event store's partial indexes on those
 * fields answer it without a scan.
 *
 * Every look-up answers the ids it found, `mark` (the log's head position read before the
 * look-up: everything found is at or below it) and `condition`: "no member joined and no entry of
 * these people was added or moved to them after the mark". A deletion decides from the ids and
 * appends with `appendToStreamsIf(…, condition)`; if the condition fails, the append writes
 * nothing and the deletion reads and decides again; on both engines nothing committed between
 * the look-up and the append escapes the condition (EventStore.appendToStreamsIf: PostgreSQL's
 * locks, KurrentDB's payload index streams). After the commit, a new entry or member fails its
 * own check of the participant's or team's stream.
 *
 * Ids found here may be stale (an entry deleted since, an entry moved to another participant by
 * an edit): the caller checks each against its own stream before acting on it.
 */
import type { AppendCondition, EventSelector, EventStore } from '@sinilill/event-store';

/** The ids of what belongs to some teams and participants, the mark they were read at, and the condition that keeps them current. */
export interface IndexedStreams {
  /** Participant ids registered into the teams, ascending. */
  members: number[];
  /** Entry ids added to the teams, or added to / moved to the participants, ascending. */
  entries: number[];
  /** The log's head position read before the look-up (0 for an empty log). */
  mark: number;
  /** For appendToStreamsIf: no member of the teams and no entry of these people after `mark`. */
  condition: AppendCondition;
}

/** The reads of the log a look-up needs: an EventStore (the command API passes its own). */
export type StreamIndex = Pick<EventStore, 'readEvents' | 'headPosition'>;

/** Which keys a look-up starts from: team ids and participant ids. */
export interface IndexKeys {
  teams: readonly number[];
  participants: readonly number[];
}

const MEMBER_TYPES = ['ParticipantRegistered'] as const;
const ENTRY_TYPES = ['EntryAdded', 'EntryEdited'] as const;

/** The numeric id at the end of a stream name (`entry-12` → 12). */
function idOf(stream: string): number {
  return Number(stream.slice(stream.lastIndexOf('-') + 1));
}

const ascending = (a: number, b: number) => a - b;

/** The selectors of the members of `teams` and of the entries of `participants`. */
function selectors(teams: readonly number[], participants: readonly number[]): { members: EventSelector; entries: EventSelector } {
  return {
    members: { types: MEMBER_TYPES, data: [{ field: 'teamId', values: teams }] },
    entries: { types: ENTRY_TYPES, data: [{ field: 'participantId', values: participants }] },
  };
}

/**
 * The members and entries of `keys.teams` and the entries of `keys.participants` (integer ids),
 * with their mark and condition (see the module docs). Three reads: the head, the members, the
 * entries of the participants and members, the last two bounded by the head.
 */
export async function readIndexedStreams(log: StreamIndex, keys: IndexKeys): Promise<IndexedStreams> {
  const mark = await log.headPosition();
  const members = new Set<number>();
  if (keys.teams.length > 0) {
    for (const event of await log.readEvents({ ...selectors(keys.teams, []).members, until: mark })) members.add(idOf(event.stream));
  }
  const people = [...new Set([...keys.participants, ...members])];
  const entries = new Set<number>();
  if (people.length > 0) {
    for (const event of await log.readEvents({ ...selectors([], people).entries, until: mark })) entries.add(idOf(event.stream));
  }
  const watched = selectors(keys.teams, people);
  return {
    members: [...members].sort(ascending),
    entries: [...entries].sort(ascending),
    mark,
    condition: { noneAfter: mark, selectors: [watched.members, watched.entries] },
  };
}
