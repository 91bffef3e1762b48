/**
 * What a deletion removes, found in the event store itself, not in the read
 * models: a team's members and entries, a participant's entries. Read through the indexes of
 * migrations/0004-stream-index.ts on `es.events`: a team's members by team, entries by
 * participant (a team's entries are its members').
 *
 * Every look-up answers, from ONE statement (one snapshot), the ids it found and `mark`: the
 * highest global position among the indexed events it read. A deletion decides from the ids and
 * appends with `appendToStreamsIf`, whose condition reads the mark again under the append's
 * locks: a member who joined or an entry added between the read and the append moves the mark,
 * the append rolls back, and the deletion reads and decides again. Nothing added before the
 * deletion's commit can survive it; after the commit, a new entry or member fails its own
 * check of the participant's or team's stream.
 *
 * Ids found here may be stale (an entry deleted since, an entry moved to another participant by
 * an edit): the caller checks each against its own stream before acting on it.
 */

/** The ids of what belongs to some teams and participants, and the mark they were read at. */
export interface IndexedStreams {
  /** Participant ids registered into the teams, ascending. */
  members: number[];
  /** Entry ids added to the teams, or added to / moved to the participants, ascending. */
  entries: number[];
  /** The highest global position of the indexed events read (0 when none). */
  mark: number;
}

/** A query function: a pool's, or the one appendToStreamsIf gives its condition. */
export type IndexQuery = (text: string, values: readonly unknown[]) => Promise<Record<string, unknown>[]>;

/** A team's members (their ParticipantRegistered), for $1 = team ids as text. */
const MEMBERS = `SELECT stream, global_position, data->>'participantId' AS participant FROM es.events
  WHERE type = 'ParticipantRegistered' AND data->>'teamId' = ANY($1::text[])`;

/**
 * Members of the teams, and entries of their members and of the participants ($2): an entry
 * belongs to a participant of its team (an edit moves it only within the team), so a team's
 * entries are its members' and an entry is indexed once, by participant.
 */
const SQL = `
  WITH members AS MATERIALIZED (${MEMBERS})
  SELECT 'ParticipantRegistered' AS type, stream, global_position FROM members
  UNION ALL
  SELECT type, stream, global_position FROM es.events
  WHERE type IN ('EntryAdded', 'EntryEdited')
    AND data->>'participantId' = ANY(array_cat($2::text[], ARRAY(SELECT participant FROM members)))`;

const MARK_SQL = `
  WITH members AS MATERIALIZED (${MEMBERS})
  SELECT greatest(
    (SELECT max(global_position) FROM members),
    (SELECT max(global_position) FROM es.events
     WHERE type IN ('EntryAdded', 'EntryEdited')
       AND data->>'participantId' = ANY(array_cat($2::text[], ARRAY(SELECT participant FROM members))))
  ) AS mark`;

/** The numeric id at the end of a stream name (`entry-12` → 12). */
function idOf(stream: string): number {
  return Number(stream.slice(stream.lastIndexOf('-') + 1));
}

/**
 * The members and entries of `teams` and the entries of `participants` (integer ids), with
 * their mark (see the module docs). One statement.
 */
export async function readIndexedStreams(query: IndexQuery, keys: { teams: readonly number[]; participants: readonly number[] }): Promise<IndexedStreams> {
  const rows = await query(SQL, [keys.teams.map(String), keys.participants.map(String)]);
  const members = new Set<number>();
  const entries = new Set<number>();
  let mark = 0;
  for (const row of rows) {
    const id = idOf(String(row.stream));
    if (row.type === 'ParticipantRegistered') members.add(id);
    else entries.add(id);
    mark = Math.max(mark, Number(row.global_position));
  }
  const ascending = (a: number, b: number) => a - b;
  return { members: [...members].sort(ascending), entries: [...entries].sort(ascending), mark };
}

/** The mark alone (for appendToStreamsIf's condition): one index-only statement. */
export async function indexMark(query: IndexQuery, keys: { teams: readonly number[]; participants: readonly number[] }): Promise<number> {
  const rows = await query(MARK_SQL, [keys.teams.map(String), keys.participants.map(String)]);
  return Number(rows[0]?.mark ?? 0);
}
