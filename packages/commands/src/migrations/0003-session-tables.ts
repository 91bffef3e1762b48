/**
 * Accounts migration 0003: the tables that end sessions when they should (see
 * accounts/directory.ts for how each is used).
 *
 * - `app.account_sessions`: one row per account that ever had a session, with its session
 *   *version*. A password change or reset, a withdrawn approval, a role change and the account's
 *   deletion raise it (deletion also sets `ended_at`); every authenticated request compares its
 *   access token's `sv` claim with it (a primary-key lookup, in both APIs).
 * - `app.session_families`: one row per login (a "session"): the refresh tokens that descend from
 *   it share it; logging out or a reused refresh token sets `revoked_at`, which ends the family's
 *   access tokens (their `sid` claim) and refresh tokens at once.
 * - `app.refresh_tokens`: the SHA-256 of each refresh token (the cookie holds the value), the
 *   session version it was issued under, its expiry (30 days) and when it was used (each is used
 *   once: a refresh replaces it; a second use revokes the family). A login deletes the account's
 *   expired ones.
 *
 * Never edit it: a database that ran it keeps what it made. Change the schema in a new file.
 * No `down`: dropping them would make every ended session valid again until its tokens expire.
 */
import { sql, type Kysely } from 'kysely';

const SQL = /* sql */ `
      CREATE TABLE app.account_sessions (
        user_id    text PRIMARY KEY,
        version    integer NOT NULL CHECK (version >= 1),
        ended_at   timestamptz,
        updated_at timestamptz NOT NULL
      );
      CREATE TABLE app.session_families (
        family_id  uuid PRIMARY KEY,
        user_id    text NOT NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz
      );
      CREATE INDEX session_families_live ON app.session_families (user_id) WHERE revoked_at IS NULL;
      CREATE TABLE app.refresh_tokens (
        token_hash      bytea PRIMARY KEY,
        family_id       uuid NOT NULL REFERENCES app.session_families (family_id) ON DELETE CASCADE,
        user_id         text NOT NULL,
        session_version integer NOT NULL,
        created_at      timestamptz NOT NULL,
        expires_at      timestamptz NOT NULL,
        used_at         timestamptz
      );
      CREATE INDEX refresh_tokens_family ON app.refresh_tokens (family_id);
      CREATE INDEX refresh_tokens_user_expiry ON app.refresh_tokens (user_id, expires_at);
`;

/** Creates account_sessions, session_families and refresh_tokens. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(SQL).execute(db);
}
