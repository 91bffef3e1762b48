/**
 * Accounts migration 0004: the event store's index of what a deletion removes.
 *
 * Two partial expression indexes on `es.events` (the event store's own table; this set runs after
 * the event store's, see the CLI's migrateToLatest), read by stream-index.ts:
 * - `events_by_team`: ParticipantRegistered by `data->>'teamId'` (a team's members; their entries
 *   are found by participant, so an entry is indexed once);
 * - `events_by_participant`: EntryAdded and EntryEdited by `data->>'participantId'` (a
 *   participant's entries, also one moved to them by an edit).
 * Both end in `global_position`, so the newest position a deletion saw is read from the index.
 * The ids are plain data (personal fields are encrypted, ids never are: personal-data.ts).
 *
 * Never edit it once applied; change the indexes in a new file. No `down`: the indexes are part
 * of how deletions stay complete.
 */
import { sql, type Kysely } from 'kysely';

/** Creates `es.events_by_team` and `es.events_by_participant`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS events_by_team ON es.events ((data->>'teamId'), global_position)
    WHERE type = 'ParticipantRegistered'`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS events_by_participant ON es.events ((data->>'participantId'), global_position)
    WHERE type IN ('EntryAdded', 'EntryEdited')`.execute(db);
}
