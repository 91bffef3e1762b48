/**
 * Where the auth plugin checks a session and an account: the account's session
 * version and the token's session family (schema `app`, made and written by @sinilill/commands'
 * AccountDirectory), and the account's current role and approval (its `user-{id}` stream in the
 * event log, the source of truth).
 *
 * The command API passes its AccountService, which answers both from its own pool and store. The
 * query API, which has no AccountService, passes an SQL runner over the same database and a
 * reader of the event log, and gets `sqlSessionAuthority`: the same statement as
 * AccountDirectory.sessionState, and the account's events folded with the domain's account decider. Both read committed rows, so a change made by
 * one process is seen by the other on its next request. In the services both are wrapped in a
 * SessionCache (session-cache.ts), which keeps live sessions in memory and drops them when the
 * session tables' triggers NOTIFY a change.
 */
import { accountDecider, streams, type AccountEvent } from '@sinilill/domain';

/** An account's session state for one token (see AccountDirectory.sessionState). */
export interface SessionStanding {
  /** Current session version; a token with another `sv` is refused. */
  version: number;
  /** The account was deleted: none of its sessions is valid. */
  ended: boolean;
  /** The token's session family exists, is the account's and is not revoked. */
  familyLive: boolean;
}

/** What the admin checks read of an account (a subset of the domain's AccountState). */
export interface AccountStanding {
  exists: boolean;
  deleted: boolean;
  role: string;
  approved: boolean;
}

/** The two lookups the auth plugin makes (the command API: its AccountService). */
export interface SessionAuthority {
  /**
   * The session state of `userId` for a token of session `sessionId`, or null when the account
   * never had a session (then no token of it is valid).
   */
  session(userId: string, sessionId: string): Promise<SessionStanding | null>;
  /** The account's current state, from the event log (not existing for an unknown id). */
  account(userId: string): Promise<AccountStanding>;
}

/** Runs one parameterised statement ($1, $2 …) and answers its rows (pg's Pool.query fits). */
export type SqlRunner = (text: string, values: readonly unknown[]) => Promise<{ rows: readonly unknown[] }>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads one stream of the event log in revision order (an EventStore's readStream fits). */
export type StreamReader = (stream: string) => Promise<readonly { type: string; data: unknown }[]>;

/**
 * A SessionAuthority over SQL and the event log, for a service without an AccountService (the
 * query API). The session lookup is one statement reading one row of app.account_sessions and
 * one of app.session_families by primary key; the account lookup reads the account's stream
 * through `readStream` (a handful of events; admins only), on either engine.
 */
export function sqlSessionAuthority(run: SqlRunner, readStream: StreamReader): SessionAuthority {
  return {
    async session(userId, sessionId) {
      const { rows } = await run(
        `SELECT s.version, s.ended_at IS NOT NULL AS ended, (f.family_id IS NOT NULL AND f.revoked_at IS NULL) AS family_live
           FROM app.account_sessions s
           LEFT JOIN app.session_families f ON f.family_id = $2::uuid AND f.user_id = s.user_id
          WHERE s.user_id = $1`,
        [userId, UUID.test(sessionId) ? sessionId : null],
      );
      const row = rows[0] as { version: number; ended: boolean; family_live: boolean } | undefined;
      return row ? { version: row.version, ended: row.ended, familyLive: row.family_live } : null;
    },
    async account(userId) {
      const events = await readStream(streams.user(userId));
      // Personal fields (e-mail, name) may be encrypted in `data`; the fold only copies them, and
      // nothing here reads them.
      let state = accountDecider.initialState();
      for (const row of events as readonly { type: AccountEvent['type']; data: unknown }[]) {
        state = accountDecider.evolve(state, { type: row.type, data: row.data } as AccountEvent);
      }
      return state;
    },
  };
}
