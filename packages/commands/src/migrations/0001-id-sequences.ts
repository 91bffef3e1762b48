/**
 * Accounts migration 0001: schema `app` and the id sequences of new teams, participants and
 * entries (ids.ts). Under the hand-rolled runner these statements ran on every start (migrateIdSequences),
 * hence IF NOT EXISTS; runner.ts adopts a database that has the three sequences.
 *
 * Never edit it: a database that ran it keeps what it made. Change the schema in a new file.
 * No `down`: dropping a sequence would hand out ids again that events already carry.
 */
import { sql, type Kysely } from 'kysely';

/** Creates schema `app` and `app.team_ids`, `app.participant_ids`, `app.entry_ids`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE SCHEMA IF NOT EXISTS app`.execute(db);
  for (const kind of ['team', 'participant', 'entry']) {
    await sql`CREATE SEQUENCE IF NOT EXISTS ${sql.table(`app.${kind}_ids`)}`.execute(db);
  }
}
