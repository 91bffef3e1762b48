/**
 * Accounts migration 0002: the account side's tables in schema `app` (see
 * accounts/directory.ts for what each holds and why). Under the hand-rolled runner this was version 1 of the
 * hand-rolled runner (`app.account_migrations`); runner.ts adopts such databases.
 *
 * Never edit it: a database that ran it keeps what it made. Change the schema in a new file.
 * No `down`: the password hashes and the uniqueness indexes exist nowhere else.
 */
import { sql, type Kysely } from 'kysely';

const SQL = /* sql */ `
      CREATE TABLE app.credentials (
        user_id       text PRIMARY KEY,
        password_hash text NOT NULL,
        updated_at    timestamptz NOT NULL
      );
      CREATE TABLE app.account_tokens (
        token_hash bytea PRIMARY KEY,
        user_id    text NOT NULL,
        kind       text NOT NULL CHECK (kind IN ('confirm', 'reset')),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at    timestamptz
      );
      CREATE INDEX account_tokens_user ON app.account_tokens (user_id, kind) WHERE used_at IS NULL;
      CREATE TABLE app.email_index (
        email_key bytea PRIMARY KEY,
        user_id   text NOT NULL UNIQUE
      );
      CREATE TABLE app.team_name_index (
        name_key text PRIMARY KEY,
        team_id  integer NOT NULL UNIQUE
      );
      CREATE TABLE app.join_codes (
        code       text PRIMARY KEY,
        team_id    integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        revoked_at timestamptz
      );
      CREATE INDEX join_codes_team ON app.join_codes (team_id);
`;

/** Creates credentials, account_tokens, email_index, team_name_index and join_codes. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(SQL).execute(db);
}
