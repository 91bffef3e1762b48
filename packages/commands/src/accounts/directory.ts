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
 * | app.team_name_index(name_key pk, team_id unique) | a team name's comparison form → team (team names are public) |
 * | app.join_codes(code pk, team_id, created_at, expires_at, revoked_at) | join code (upper case) → team |
 * | app.account_sessions(user_id pk, version, ended_at, updated_at) | session version per account (issue 13) |
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
 * Erasure (issue 6) deletes the person's email_index row and credentials and spends their tokens
 * (eraseAccount); deleting a team releases its name and revokes its join codes (releaseTeam).
 *
 * Sessions (issue 13): an access token carries its account's session version (`sv`) and its
 * session family (`sid`); `sessionState` is the one-row check every authenticated request makes
 * (the query API reads the same rows through @sinilill/http's sqlSessionAuthority). Whatever
 * should end an account's sessions calls `raiseSessionVersion` in the transaction of its events:
 * the version goes up and every family of the account is revoked, so access tokens and refresh
 * tokens issued before stop working at once, in every process. Deletion also marks the row ended.
 *
 * The tables are made by migrations/0002-account-tables.ts and 0003-session-tables.ts.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import type pg from 'pg';
import { DomainError, emailComparisonForm, joinCodeComparisonForm, teamNameComparisonForm } from '@sinilill/domain';

/** First key of the per-team advisory lock ('jc' in ASCII) taken while a team's join code is replaced. */
const JOIN_CODE_LOCK = 0x6a63;

export type TokenKind = 'confirm' | 'reset';

/** A stored token (by its hash). Times are Dates (UTC). */
export interface TokenRecord {
  userId: string;
  kind: TokenKind;
  expiresAt: Date;
  usedAt: Date | null;
}

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

/** A stored refresh token (by its hash), with its family's state. Times are Dates (UTC). */
export interface RefreshTokenRecord {
  familyId: string;
  userId: string;
  /** The account's session version when the token was issued. */
  sessionVersion: number;
  expiresAt: Date;
  /** Set once the token was traded for a new one; a second use means it was copied. */
  usedAt: Date | null;
  familyRevoked: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A join-code index row. */
export interface JoinCodeRecord {
  teamId: number;
  revoked: boolean;
  /** ISO-8601 UTC, or null: the code has no expiry of its own. */
  expiresAt: string | null;
}

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

/** Reads and writes the account tables; writes go through `transaction`. */
export class AccountDirectory {
  private readonly pool: pg.Pool;
  private readonly indexKey: Buffer;

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

  /** The team that owns this name (comparison form), or null. */
  async teamOfName(teamName: string): Promise<number | null> {
    const { rows } = await this.pool.query<{ team_id: number }>('SELECT team_id FROM app.team_name_index WHERE name_key = $1', [teamNameComparisonForm(teamName)]);
    return rows[0]?.team_id ?? null;
  }

  /** The join-code row of `code` (any case), or null when no team ever had it. */
  async joinCode(code: string): Promise<JoinCodeRecord | null> {
    const { rows } = await this.pool.query<{ team_id: number; revoked_at: Date | null; expires_at: Date | null }>(
      'SELECT team_id, revoked_at, expires_at FROM app.join_codes WHERE code = $1',
      [joinCodeComparisonForm(code)],
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
   * Runs `work` in one transaction on a connection of this pool: reservations, secrets and token
   * changes made through the AccountTransaction commit only if `work` (which appends the events
   * last) succeeds, and roll back otherwise.
   */
  async transaction<T>(work: (tx: AccountTransaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(new AccountTransaction(client, this));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

/** The writes of one AccountDirectory transaction. */
export class AccountTransaction {
  constructor(
    private readonly client: pg.PoolClient,
    private readonly directory: AccountDirectory,
  ) {}

  /**
   * Reserves the e-mail for `userId`.
   * @throws DomainError('EMAIL_ALREADY_IN_USE') when another account holds it.
   */
  async reserveEmail(email: string, userId: string): Promise<void> {
    const key = this.directory.emailKey(email);
    const owner = await this.reserve('INSERT INTO app.email_index (email_key, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING user_id',
      'SELECT user_id AS owner FROM app.email_index WHERE email_key = $1', [key, userId]);
    if (owner !== userId) throw new DomainError('EMAIL_ALREADY_IN_USE');
  }

  /**
   * Reserves the team name (its comparison form) for `teamId`.
   * @throws DomainError('TEAM_NAME_ALREADY_IN_USE') when another team holds it.
   */
  async reserveTeamName(teamName: string, teamId: number): Promise<void> {
    const owner = await this.reserve('INSERT INTO app.team_name_index (name_key, team_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING team_id',
      'SELECT team_id AS owner FROM app.team_name_index WHERE name_key = $1', [teamNameComparisonForm(teamName), teamId]);
    if (owner !== teamId) throw new DomainError('TEAM_NAME_ALREADY_IN_USE');
  }

  /**
   * Records `code` (upper case) as `teamId`'s join code.
   * @returns false when another team holds the code (the caller draws another).
   */
  async reserveJoinCode(code: string, teamId: number, expiresAt: Date | null, createdAt: Date): Promise<boolean> {
    const normal = joinCodeComparisonForm(code);
    const { rows } = await this.client.query<{ team_id: number }>(
      `INSERT INTO app.join_codes (code, team_id, created_at, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (code) DO UPDATE SET code = EXCLUDED.code WHERE app.join_codes.team_id = EXCLUDED.team_id
       RETURNING team_id`,
      [normal, teamId, createdAt, expiresAt],
    );
    return rows.length === 1;
  }

  /**
   * Revokes every live join code of the team (sets revoked_at = `at`), after taking a per-team
   * lock held until the transaction ends: two replacements of one team's code take turns, so the
   * second revokes the first's new code too and one live code remains.
   * @returns how many codes were revoked.
   */
  async revokeJoinCodes(teamId: number, at: Date): Promise<number> {
    await this.client.query('SELECT pg_advisory_xact_lock($1, $2)', [JOIN_CODE_LOCK, teamId]);
    const result = await this.client.query('UPDATE app.join_codes SET revoked_at = $2 WHERE team_id = $1 AND revoked_at IS NULL', [teamId, at]);
    return result.rowCount ?? 0;
  }

  /**
   * Records a newly drawn `code` (upper case) for `teamId`. Unlike reserveJoinCode, a code that
   * was ever used, by any team and also by this one (a revoked code), is not taken: a replaced
   * code must never start working again.
   * @returns false when the code exists already (the caller draws another).
   */
  async addJoinCode(code: string, teamId: number, createdAt: Date): Promise<boolean> {
    const { rowCount } = await this.client.query(
      'INSERT INTO app.join_codes (code, team_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (code) DO NOTHING',
      [joinCodeComparisonForm(code), teamId, createdAt],
    );
    return rowCount === 1;
  }

  /** Sets (or replaces) the account's password hash. */
  async setPasswordHash(userId: string, passwordHash: string, at: Date): Promise<void> {
    await this.client.query(
      `INSERT INTO app.credentials (user_id, password_hash, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = EXCLUDED.updated_at`,
      [userId, passwordHash, at],
    );
  }

  /** The account's password hash, locked until the transaction ends (null: no password). */
  async passwordHashForUpdate(userId: string): Promise<string | null> {
    const { rows } = await this.client.query<{ password_hash: string }>('SELECT password_hash FROM app.credentials WHERE user_id = $1 FOR UPDATE', [userId]);
    return rows[0]?.password_hash ?? null;
  }

  /** Stores a token's hash. */
  async addToken(tokenHash: Buffer, userId: string, kind: TokenKind, createdAt: Date, expiresAt: Date): Promise<void> {
    await this.client.query(
      'INSERT INTO app.account_tokens (token_hash, user_id, kind, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [tokenHash, userId, kind, createdAt, expiresAt],
    );
  }

  /**
   * The token with this hash, locked until the transaction ends (a second use of the same token
   * waits here and then finds it used), or null when unknown or of another kind.
   */
  async tokenForUpdate(tokenHash: Buffer, kind: TokenKind): Promise<TokenRecord | null> {
    const { rows } = await this.client.query<{ user_id: string; kind: TokenKind; expires_at: Date; used_at: Date | null }>(
      'SELECT user_id, kind, expires_at, used_at FROM app.account_tokens WHERE token_hash = $1 AND kind = $2 FOR UPDATE',
      [tokenHash, kind],
    );
    const row = rows[0];
    return row ? { userId: row.user_id, kind: row.kind, expiresAt: row.expires_at, usedAt: row.used_at } : null;
  }

  /** Marks every unused token of this kind of the account used (a used link, a newer reset, a new password). */
  async useTokens(userId: string, kind: TokenKind, at: Date): Promise<void> {
    await this.client.query('UPDATE app.account_tokens SET used_at = $3 WHERE user_id = $1 AND kind = $2 AND used_at IS NULL', [userId, kind, at]);
  }

  /**
   * Gives `teamId` the name `teamName` in the index: its old name is released and the new one
   * reserved, in this transaction (a rename to a name that differs only in case or spacing keeps
   * working).
   * @throws DomainError('TEAM_NAME_ALREADY_IN_USE') when another team holds the new name.
   */
  async renameTeam(teamId: number, teamName: string): Promise<void> {
    await this.client.query('DELETE FROM app.team_name_index WHERE team_id = $1', [teamId]);
    await this.reserveTeamName(teamName, teamId);
  }

  /**
   * A deleted team's index rows: its name becomes free for other teams, and every live join code
   * is revoked (revoked codes are never handed out again, D15).
   */
  async releaseTeam(teamId: number, at: Date): Promise<void> {
    await this.client.query('DELETE FROM app.team_name_index WHERE team_id = $1', [teamId]);
    await this.revokeJoinCodes(teamId, at);
  }

  /**
   * A deleted account's secrets and index rows: the e-mail becomes free to register again, the
   * password hash is deleted (login answers INVALID_CREDENTIALS like for an unknown e-mail),
   * every unused confirmation and reset token is marked used at `at`, and the account's sessions
   * end for good (raiseSessionVersion with `end`: its tokens get 401 at once). Idempotent.
   */
  async eraseAccount(userId: string, at: Date): Promise<void> {
    await this.client.query('DELETE FROM app.email_index WHERE user_id = $1', [userId]);
    await this.client.query('DELETE FROM app.credentials WHERE user_id = $1', [userId]);
    await this.client.query('UPDATE app.account_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL', [userId, at]);
    await this.raiseSessionVersion(userId, at, { end: true });
  }

  /**
   * Ends every session of the account (issue 13): its session version goes up by one (a row is
   * made for an account that had none) and every live session family is revoked, so every access
   * and refresh token issued before is refused from the commit on. `end` marks the account's
   * sessions ended for good (deletion): no new one can start.
   */
  async raiseSessionVersion(userId: string, at: Date, options: { end?: boolean } = {}): Promise<void> {
    await this.client.query(
      `INSERT INTO app.account_sessions (user_id, version, ended_at, updated_at) VALUES ($1, 2, CASE WHEN $3 THEN $2::timestamptz END, $2)
       ON CONFLICT (user_id) DO UPDATE SET version = app.account_sessions.version + 1,
         ended_at = COALESCE(app.account_sessions.ended_at, EXCLUDED.ended_at), updated_at = EXCLUDED.updated_at`,
      [userId, at, options.end === true],
    );
    await this.client.query('UPDATE app.session_families SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, at]);
  }

  /** Records a new session family (a login) of the account. */
  async addSessionFamily(familyId: string, userId: string, at: Date): Promise<void> {
    await this.client.query('INSERT INTO app.session_families (family_id, user_id, created_at) VALUES ($1, $2, $3)', [familyId, userId, at]);
  }

  /** Revokes a session family: its refresh tokens and its access tokens (`sid`) stop working. Idempotent. */
  async revokeSessionFamily(familyId: string, at: Date): Promise<void> {
    await this.client.query('UPDATE app.session_families SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL', [familyId, at]);
  }

  /** Stores a refresh token's hash, issued under session version `sessionVersion`. */
  async addRefreshToken(
    tokenHash: Buffer,
    token: { familyId: string; userId: string; sessionVersion: number; createdAt: Date; expiresAt: Date },
  ): Promise<void> {
    await this.client.query(
      `INSERT INTO app.refresh_tokens (token_hash, family_id, user_id, session_version, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [tokenHash, token.familyId, token.userId, token.sessionVersion, token.createdAt, token.expiresAt],
    );
  }

  /**
   * The refresh token with this hash and its family's state, the token locked until the
   * transaction ends (a second, concurrent use of the same token waits here and then finds it
   * used), or null when unknown.
   */
  async refreshTokenForUpdate(tokenHash: Buffer): Promise<RefreshTokenRecord | null> {
    const { rows } = await this.client.query<{
      family_id: string; user_id: string; session_version: number; expires_at: Date; used_at: Date | null; revoked_at: Date | null;
    }>(
      `SELECT t.family_id, t.user_id, t.session_version, t.expires_at, t.used_at, f.revoked_at
         FROM app.refresh_tokens t JOIN app.session_families f USING (family_id)
        WHERE t.token_hash = $1 FOR UPDATE OF t`,
      [tokenHash],
    );
    const row = rows[0];
    return row ? {
      familyId: row.family_id, userId: row.user_id, sessionVersion: row.session_version,
      expiresAt: row.expires_at, usedAt: row.used_at, familyRevoked: row.revoked_at !== null,
    } : null;
  }

  /**
   * Deletes the account's refresh tokens that expired before `at` (used or not: an expired one
   * is refused whatever it was), so that the table does not grow with every refresh.
   */
  async pruneRefreshTokens(userId: string, at: Date): Promise<void> {
    await this.client.query('DELETE FROM app.refresh_tokens WHERE user_id = $1 AND expires_at < $2', [userId, at]);
  }

  /** Marks a refresh token used (it was traded for its successor). */
  async useRefreshToken(tokenHash: Buffer, at: Date): Promise<void> {
    await this.client.query('UPDATE app.refresh_tokens SET used_at = $2 WHERE token_hash = $1', [tokenHash, at]);
  }

  /** The account's current session version and whether its sessions have ended (null: no row yet). */
  async sessionVersion(userId: string): Promise<{ version: number; ended: boolean } | null> {
    const { rows } = await this.client.query<{ version: number; ended: boolean }>(
      'SELECT version, ended_at IS NOT NULL AS ended FROM app.account_sessions WHERE user_id = $1',
      [userId],
    );
    return rows[0] ?? null;
  }

  /**
   * INSERT … ON CONFLICT DO NOTHING RETURNING the owner; on a conflict, the key's current owner
   * (null when the conflict was on the owner's column: the owner already holds another key). A
   * concurrent, uncommitted insert of the same key makes the INSERT wait for that transaction.
   */
  private async reserve<Owner>(insert: string, selectByKey: string, params: [unknown, Owner]): Promise<Owner | null> {
    const inserted = await this.client.query<Record<string, Owner>>(insert, params);
    const first = inserted.rows[0];
    if (first) return Object.values(first)[0] ?? null;
    const { rows } = await this.client.query<{ owner: Owner }>(selectByKey, [params[0]]);
    return rows[0]?.owner ?? null;
  }
}
