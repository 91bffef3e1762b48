/**
 * Reads one team's entry events from the event log (es.events) for "what this did",
 * through indexes only, never the whole log:
 * - the team's members: ParticipantRegistered by `data->>'teamId'` (index events_by_team);
 * - their entry streams: EntryAdded/EntryEdited by `data->>'participantId'` (index
 *   events_by_participant; an edit moves an entry only within its team, so a team's entries are
 *   its members' — the rule the deletions' stream index relies on, packages/commands
 *   stream-index.ts);
 * - those streams' events: the (stream, revision) key.
 * Both expression indexes come from the accounts migration 0004-stream-index.ts. The partial
 * indexes' conditions are literals in the statement, so the planner can use them.
 *
 * The events are not decrypted: entry events hold ids, km, types and dates, nothing personal,
 * and never leave the server as they are. Works only while the store is the PostgreSQL one (docs/decisions/0016).
 */
import { sql, type Kysely } from 'kysely';
import type { ReadModelDatabase } from '@sinilill/read-models';
import { EVENT_COLUMNS, toRecordedEvent, type EventRow, type RecordedEvent } from '@sinilill/event-store';
import { ENTRY_EVENTS } from './entry-fold';

const COLUMNS = sql.raw(EVENT_COLUMNS);

/**
 * Every EntryAdded, EntryEdited and EntryDeleted of team `teamId`'s entries (deleted ones
 * included), in global order. One statement.
 */
export async function teamEntryEvents(db: Kysely<ReadModelDatabase>, teamId: number): Promise<RecordedEvent[]> {
  const { rows } = await sql<EventRow>`
    WITH members AS MATERIALIZED (
      SELECT data->>'participantId' AS participant FROM es.events
      WHERE type = 'ParticipantRegistered' AND data->>'teamId' = ${String(teamId)}
    ), streams AS MATERIALIZED (
      SELECT DISTINCT stream FROM es.events
      WHERE type IN ('EntryAdded', 'EntryEdited') AND data->>'participantId' = ANY(ARRAY(SELECT participant FROM members))
    )
    SELECT ${COLUMNS} FROM es.events
    WHERE stream = ANY(ARRAY(SELECT stream FROM streams))
    ORDER BY global_position`.execute(db);
  // The types are filtered here, not in SQL: with a type condition there the planner ANDs in the
  // type index (every entry event of the edition) once per stream — 162 ms for the fixture's
  // largest team. An entry-{id} stream holds entry events only anyway. `= ANY(ARRAY(…))` rather
  // than `IN (SELECT …)`: the latter was planned as a hash join over a scan of the whole log.
  return rows.filter((row) => (ENTRY_EVENTS as readonly string[]).includes(row.type)).map(toRecordedEvent);
}
