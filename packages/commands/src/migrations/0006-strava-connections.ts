/**
 * Accounts migration 0006: Strava connections and proposals (docs/decisions/0095).
 *
 * - `app.strava_connections`: one row per account that connected Strava: the athlete, the
 *   participant whose entries the sync makes, the mode (`auto` adds entries at once, `confirm`
 *   holds proposals), the status, and the OAuth tokens, sealed with the event store's
 *   personal-data encryption under `subject` (the participant's subject), so erasing the person
 *   makes them unreadable even in a backup. The row itself is deleted with the account.
 * - `app.strava_proposals`: activities held for the member to confirm (mode `confirm`); the
 *   activity's name is sealed like the tokens. Deleted with their connection.
 *
 * Never edit it: a database that ran it keeps what it made. Change the schema in a new file.
 */
import { sql, type Kysely } from 'kysely';

const SQL = /* sql */ `
      CREATE TABLE app.strava_connections (
        user_id        text PRIMARY KEY,
        participant_id integer NOT NULL,
        athlete_id     bigint NOT NULL UNIQUE,
        subject        text NOT NULL,
        athlete_name   text NOT NULL,
        mode           text NOT NULL CHECK (mode IN ('auto', 'confirm')),
        status         text NOT NULL CHECK (status IN ('connected', 'deauthorized', 'disconnected')),
        scope          text NOT NULL,
        access_token   text,
        refresh_token  text,
        expires_at     timestamptz,
        connected_at   timestamptz NOT NULL,
        last_sync_at   timestamptz,
        last_error     text,
        skipped        integer NOT NULL DEFAULT 0,
        updated_at     timestamptz NOT NULL
      );
      CREATE TABLE app.strava_proposals (
        activity_id    bigint PRIMARY KEY,
        user_id        text NOT NULL REFERENCES app.strava_connections (user_id) ON DELETE CASCADE,
        participant_id integer NOT NULL,
        name           text NOT NULL,
        sport_type     text NOT NULL,
        entry_type     text,
        distance       numeric(8, 2) NOT NULL,
        performed_at   date NOT NULL,
        started_at     timestamptz NOT NULL,
        created_at     timestamptz NOT NULL
      );
      CREATE INDEX strava_proposals_user ON app.strava_proposals (user_id, started_at);
`;

/** Creates the Strava connection and proposal tables. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(SQL).execute(db);
}
