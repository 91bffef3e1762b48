/**
 * Accounts migration 0005: team names and join codes are unique within an edition, not forever
 * (docs/decisions/0084). A returning captain takes last year's team name again for the new
 * edition, and a code is looked up in the edition that takes registrations, so a code of an
 * earlier edition joins nobody now.
 *
 * - `app.team_name_index` gets `edition` (the team's edition year); its key becomes
 *   (edition, name_key). `team_id` stays unique: a team has one name, in its own edition.
 * - `app.join_codes` gets `edition`; its key becomes (edition, code). A revoked code is still never
 *   handed out again within its edition.
 *
 * Every row written before this migration is a 2025 team's: editions were not data until then, and
 * every team of such a log belongs to 2025 (the event upcasters say the same).
 *
 * Never edit it: a database that ran it keeps what it made. Change the schema in a new file.
 */
import { sql, type Kysely } from 'kysely';

const SQL = /* sql */ `
      ALTER TABLE app.team_name_index ADD COLUMN edition integer;
      UPDATE app.team_name_index SET edition = 2025;
      ALTER TABLE app.team_name_index ALTER COLUMN edition SET NOT NULL;
      ALTER TABLE app.team_name_index DROP CONSTRAINT team_name_index_pkey;
      ALTER TABLE app.team_name_index ADD PRIMARY KEY (edition, name_key);
      ALTER TABLE app.join_codes ADD COLUMN edition integer;
      UPDATE app.join_codes SET edition = 2025;
      ALTER TABLE app.join_codes ALTER COLUMN edition SET NOT NULL;
      ALTER TABLE app.join_codes DROP CONSTRAINT join_codes_pkey;
      ALTER TABLE app.join_codes ADD PRIMARY KEY (edition, code);
`;

/** Adds the edition to the team-name and join-code indexes and keys them by it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(SQL).execute(db);
}
