/**
 * Event store migration 0003: two partial expression indexes on `es.events` for the filtered
 * reads that look events up by an id in their payload (EventStore.readEvents with `data`):
 * - `events_by_team`: ParticipantRegistered by `data->>'teamId'` (a team's members);
 * - `events_by_participant`: EntryAdded and EntryEdited by `data->>'participantId'` (a
 *   participant's entries, also one moved to them by an edit).
 * Both end in `global_position`, so a read bounded by a position (a deletion's condition, "no
 * member or entry after the mark") is an index range. The planner uses them when a statement
 * names the same types as literals, which readEvents does (postgres-event-store.ts). The ids are
 * plain data: personal fields are encrypted, ids never are (personal-data.ts).
 *
 * The accounts schema's migration 0004-stream-index made the same indexes in earlier databases:
 * IF NOT EXISTS makes this a no-op there.
 *
 * Never edit it once applied; change the indexes in a new file. No `down`: deletions rely on them
 * to stay fast.
 */
import { sql, type Kysely } from 'kysely';

/** Creates `es.events_by_team` and `es.events_by_participant` (when missing). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS events_by_team ON es.events ((data->>'teamId'), global_position)
    WHERE type = 'ParticipantRegistered'`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS events_by_participant ON es.events ((data->>'participantId'), global_position)
    WHERE type IN ('EntryAdded', 'EntryEdited')`.execute(db);
}
