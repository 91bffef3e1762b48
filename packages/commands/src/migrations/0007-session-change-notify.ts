/**
 * Accounts migration 0007: every write that can end a session NOTIFYs channel `session_changes`
 * (SESSION_CHANGES_CHANNEL) with the account's id, so that the processes that keep live sessions
 * in memory (@sinilill/http SessionCache, docs/decisions/0100) drop them when the write commits.
 *
 * Triggers, not calls in the code that writes: whatever writes these rows (AccountTransaction's
 * raiseSessionVersion and revokeSessionFamily, an erasure, an operator's SQL, a restore) is heard.
 * - `app.account_sessions`: any insert, update or delete (a raised version, an ended account).
 * - `app.session_families`: updates and deletes (a logout, a revoked family). A login's insert
 *   makes no session less live, so it notifies nothing (a rush of logins wakes no listener).
 * PostgreSQL delivers a transaction's notifications when it commits, once per distinct payload.
 *
 * Never edit it: a database that ran it keeps what it made. Change the schema in a new file.
 */
import { sql, type Kysely } from 'kysely';

/** The channel the triggers notify on (repeated as @sinilill/http SESSION_CHANGES_CHANNEL). */
export const SESSION_CHANGES_CHANNEL = 'session_changes';

const SQL = /* sql */ `
      CREATE FUNCTION app.notify_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${SESSION_CHANGES_CHANNEL}', CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END);
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER account_sessions_notify AFTER INSERT OR UPDATE OR DELETE ON app.account_sessions
        FOR EACH ROW EXECUTE FUNCTION app.notify_session_change();
      CREATE TRIGGER session_families_notify AFTER UPDATE OR DELETE ON app.session_families
        FOR EACH ROW EXECUTE FUNCTION app.notify_session_change();
`;

/** Creates the notifying function and its two triggers. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(SQL).execute(db);
}
