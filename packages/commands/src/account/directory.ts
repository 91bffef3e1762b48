/**
 * The account side's tables in schema `app`: what must stay out of the event log (secrets) or
 * must be unique across streams (indexes). Events say *that* a password changed or a reset was
 * requested; these tables hold the argon2id hash and the SHA-256 hashes of live tokens.
 *
 * | table | holds |
 * |---|---|
 * | app.credentials(user_id pk, password_hash, updated_at) | argon2id hash per account with a password |
 * | app.account_tokens(token_hash pk, user_id, kind, created_at, expires_at, used_at) | SHA-256 of confirmation ('confirm') and reset ('reset') tokens; single use |
 * | app.email_index(email_key pk, user_id unique) | HMAC-SHA256 of the e-mail's comparison form → account (no readable address) |
 * | app.team_name_index(edition, name_key pk, team_id unique) | a team name's comparison form in an edition → team (team names are public) |
 * | app.join_codes(edition, code pk, team_id, created_at, expires_at, revoked_at) | join code (upper case) in an edition → team |
 * | app.account_sessions(user_id pk, version, ended_at, updated_at) | session version per account |
 * | app.session_families(family_id pk, user_id, created_at, revoked_at) | one row per login: the session a refresh-token chain belongs to |
 * | app.refresh_tokens(token_hash pk, family_id, user_id, session_version, created_at, expires_at, used_at) | SHA-256 of refresh tokens; single use |
 *
 * Uniqueness under races: a reservation is an INSERT … ON CONFLICT DO NOTHING inside a
 * transaction that stays open until the events are appended (AccountDirectory.transaction). A
 * racing registration of the same e-mail or team name waits on the unique index until the first
 * one commits (then finds it taken) or rolls back (then takes it): exactly one wins, and a failed
 * append releases its reservations by rolling back. Rows owned by the same account or team count
 * as free, so re-running the importer never trips over its own reservations.
 *
 * Team names and join codes are unique within an edition (the team's), not forever
 * (docs/decisions/0084): last year's team name is free for this year's teams.
 *
 * Erasure deletes the person's email_index row and credentials and spends their tokens
 * (eraseAccount); deleting a team releases its name and revokes its join codes (releaseTeam).
 *
 * Sessions: an access token carries its account's session version (`sv`) and its
 * session family (`sid`); `sessionState` is the one-row check every authenticated request makes
 * (the query API reads the same rows through @sinilill/http's sqlSessionAuthority). Whatever
 * should end an account's sessions calls `raiseSessionVersion` in the transaction of its events:
 * the version goes up and every family of the account is revoked, so access tokens and refresh
 * tokens issued before stop working at once, in every process. Deletion also marks the row ended.
 * Every such write NOTIFYs `session_changes` (accounts migration 0007's triggers), which the
 * processes' session caches listen to; `transaction` answers once they have acknowledged it
 * (waitForSessionChanges).
 *
 * The writes of a transaction are AccountTransaction's (account-transaction.ts). The tables are
 * made by migrations/0002-account-tables.ts and 0003-session-tables.ts.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import type pg from 'pg';
import { emailComparisonForm, joinCodeComparisonForm, teamNameComparisonForm } from '@sinilill/domain';
import { AccountTransaction } from './account-transaction';

export { AccountTransaction, type RefreshTokenRecord, type TokenKind, type TokenRecord } from './account-transaction';

/**
 * An account's session state as one authenticated request sees it (app.account_sessions, and the
 * token's family in app.session_families).
 */
export interface SessionState {
  /** The account's current session version (≥ 1); a token with another `sv` is refused. */
  version: number;
  /** The account was deleted: none of its sessions is valid any more. */
  ended: boolean;
  /** The family asked about exists, belongs to the account and is not revoked. */
  familyLive: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A join-code index row. */
export interface JoinCodeRecord {
  teamId: number;
  revoked: boolean;
  /** ISO-8601 UTC, or null: the code has no expiry of its own. */
  expiresAt: string | null;
}

/** How an AccountDirectory is built: its pool and the e-mail index's secret. */
export interface AccountDirectoryOptions {
  /**
   * The pool for these tables. Give it its own pool (not the event store's): a registration
   * holds one connection of it while the event store appends with another, and a shared, full
   * pool could leave every holder waiting for a second connection.
   */
  pool: pg.Pool;
  /**
   * Secret the e-mail index key is derived from (HKDF-SHA256). Changing it makes every stored
   * e-mail key unfindable: keep it as stable as the data (today the server passes JWT_SECRET).
   */
  indexSecret: string;
}

/**
 * What AccountDirectory.transaction tells of the sessions it ended (a SessionCache of
 * @sinilill/http fits): `mark()` before the COMMIT, then `heard(userIds, mark)` after it, which
 * resolves once every process keeping sessions has acknowledged those accounts' change
 * notifications (bounded; at once when this process is not listening).
 */
export interface SessionChangeWaiter {
  mark(): number;
  heard(userIds: readonly string[], since: number): Promise<void>;
}

/** Reads and writes the account tables; writes go through `transaction`. */
export class AccountDirectory {
  private readonly pool: pg.Pool;
  private readonly indexKey: Buffer;
  private sessionChanges: SessionChangeWaiter | null = null;

  constructor(options: AccountDirectoryOptions) {
    if (options.indexSecret.length < 16) throw new Error('AccountDirectory: indexSecret must be at least 16 characters');
    this.pool = options.pool;
    this.indexKey = Buffer.from(hkdfSync('sha256', options.indexSecret, 'sinilill', 'email-index v1', 32));
  }

  /** The e-mail index key: HMAC-SHA256 of the address's comparison form (trimmed, NFKC, lower case). */
  emailKey(email: string): Buffer {
    return createHmac('sha256', this.indexKey).update(emailComparisonForm(email), 'utf8').digest();
  }

  /** The account registered with this e-mail (any case or spacing), or null. */
  async userIdOfEmail(email: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ user_id: string }>('SELECT user_id FROM app.email_index WHERE email_key = $1', [this.emailKey(email)]);
    return rows[0]?.user_id ?? null;
  }

  /**
   * The team that owns this name (comparison form) in `edition` (a year), or null. Without
   * `edition`: the team of the newest edition that has the name.
   */
  async teamOfName(teamName: string, edition?: number): Promise<number | null> {
    const { rows } = await this.pool.query<{ team_id: number }>(
      'SELECT team_id FROM app.team_name_index WHERE name_key = $1 AND ($2::integer IS NULL OR edition = $2) ORDER BY edition DESC LIMIT 1',
      [teamNameComparisonForm(teamName), edition ?? null],
    );
    return rows[0]?.team_id ?? null;
  }

  /**
   * The join-code row of `code` (any case) in `edition` (a year), or null when no team of it ever
   * had the code. Without `edition`: the row of the newest edition that has the code.
   */
  async joinCode(code: string, edition?: number): Promise<JoinCodeRecord | null> {
    const { rows } = await this.pool.query<{ team_id: number; revoked_at: Date | null; expires_at: Date | null }>(
      'SELECT team_id, revoked_at, expires_at FROM app.join_codes WHERE code = $1 AND ($2::integer IS NULL OR edition = $2) ORDER BY edition DESC LIMIT 1',
      [joinCodeComparisonForm(code), edition ?? null],
    );
    const row = rows[0];
    return row ? { teamId: row.team_id, revoked: row.revoked_at !== null, expiresAt: row.expires_at?.toISOString() ?? null } : null;
  }

  /** The account's argon2id hash, or null when it has no password (imported people). */
  async passwordHash(userId: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ password_hash: string }>('SELECT password_hash FROM app.credentials WHERE user_id = $1', [userId]);
    return rows[0]?.password_hash ?? null;
  }

  /**
   * The session state of an account for a token of family `familyId` (one primary-key lookup of
   * each table, in one statement), or null when the account never had a session (no token of it
   * can be valid). A `familyId` that is not a UUID is reported as not live.
   */
  async sessionState(userId: string, familyId: string): Promise<SessionState | null> {
    const { rows } = await this.pool.query<{ version: number; ended: boolean; family_live: boolean }>(
      `SELECT s.version, s.ended_at IS NOT NULL AS ended, (f.family_id IS NOT NULL AND f.revoked_at IS NULL) AS family_live
         FROM app.account_sessions s
         LEFT JOIN app.session_families f ON f.family_id = $2::uuid AND f.user_id = s.user_id
        WHERE s.user_id = $1`,
      [userId, UUID.test(familyId) ? familyId : null],
    );
    const row = rows[0];
    return row ? { version: row.version, ended: row.ended, familyLive: row.family_live } : null;
  }

  /**
   * The account's session version for a new session: the row is made (version 1) if the account
   * never had one. Read it *before* reading the account's events for the token's claims: a change
   * that commits in between raises the version, so the token is refused rather than stale.
   * @returns null when the account's sessions have ended for good (deleted).
   */
  async openSessionVersion(userId: string, at: Date): Promise<number | null> {
    await this.pool.query(
      'INSERT INTO app.account_sessions (user_id, version, updated_at) VALUES ($1, 1, $2) ON CONFLICT (user_id) DO NOTHING',
      [userId, at],
    );
    const { rows } = await this.pool.query<{ version: number; ended: boolean }>(
      'SELECT version, ended_at IS NOT NULL AS ended FROM app.account_sessions WHERE user_id = $1',
      [userId],
    );
    const row = rows[0];
    return row && !row.ended ? row.version : null;
  }

  /**
   * Whom transaction() tells of the sessions it ended (the process's SessionCache; see
   * SessionChangeWaiter). Without one, a transaction answers as soon as it has committed.
   */
  waitForSessionChanges(waiter: SessionChangeWaiter): void {
    this.sessionChanges = waiter;
  }

  /**
   * Runs `work` in one transaction on a connection of this pool: reservations, secrets and token
   * changes made through the AccountTransaction commit only if `work` (which appends the events
   * last) succeeds, and roll back otherwise.
   */
  async transaction<T>(work: (tx: AccountTransaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let result: T;
    let ended: string[];
    let mark = 0;
    try {
      await client.query('BEGIN');
      const tx = new AccountTransaction(client, this);
      result = await work(tx);
      mark = this.sessionChanges?.mark() ?? 0;
      await client.query('COMMIT');
      ended = [...tx.endedSessions];
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    // A transaction that ended sessions answers once every process that keeps sessions has
    // acknowledged dropping them: the caller's next request, to any of them, is refused
    // (docs/decisions/0100).
    if (this.sessionChanges && ended.length > 0) await this.sessionChanges.heard(ended, mark);
    return result;
  }
}
