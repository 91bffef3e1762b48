/**
 * The writes of one AccountDirectory transaction (directory.ts describes the tables): reservations
 * that must be unique across streams (e-mails; team names and join codes within an edition), secrets (password hashes,
 * token hashes), erasure and sessions. Every method runs on the
 * transaction's client; nothing is visible to others before AccountDirectory.transaction commits.
 */
import type pg from 'pg';
import { DomainError, joinCodeComparisonForm, teamNameComparisonForm } from '@sinilill/domain';

/** First key of the per-team advisory lock ('jc' in ASCII) taken while a team's join code is replaced. */
const JOIN_CODE_LOCK = 0x6a63;

/** A one-time token's kind: account confirmation or password reset. */
export type TokenKind = 'confirm' | 'reset';

/** A stored token (by its hash). Times are Dates (UTC). */
export interface TokenRecord {
  userId: string;
  kind: TokenKind;
  expiresAt: Date;
  usedAt: Date | null;
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

/** What a transaction needs of its AccountDirectory: the keyed form of an e-mail address. */
export interface EmailKeys {
  emailKey(email: string): Buffer;
}

/** The writes of one AccountDirectory transaction. */
export class AccountTransaction {
  /** The accounts whose sessions this transaction ended (each write NOTIFYs on commit: accounts migration 0007). */
  readonly endedSessions = new Set<string>();

  constructor(
    private readonly client: pg.PoolClient,
    private readonly directory: EmailKeys,
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
   * Reserves the team name (its comparison form) for `teamId` in its edition `edition` (a year);
   * teams of other editions may have the same name.
   * @throws DomainError('TEAM_NAME_ALREADY_IN_USE') when another team of the edition holds it.
   */
  async reserveTeamName(teamName: string, teamId: number, edition: number): Promise<void> {
    const key = teamNameComparisonForm(teamName);
    const inserted = await this.client.query<{ team_id: number }>(
      'INSERT INTO app.team_name_index (edition, name_key, team_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING team_id',
      [edition, key, teamId],
    );
    if (inserted.rows.length === 1) return;
    const { rows } = await this.client.query<{ team_id: number }>(
      'SELECT team_id FROM app.team_name_index WHERE edition = $1 AND name_key = $2', [edition, key]);
    if (rows[0]?.team_id !== teamId) throw new DomainError('TEAM_NAME_ALREADY_IN_USE');
  }

  /**
   * Records `code` (upper case) as `teamId`'s join code in its edition `edition` (a year).
   * @returns false when another team of the edition holds the code (the caller draws another).
   */
  async reserveJoinCode(code: string, teamId: number, expiresAt: Date | null, createdAt: Date, edition: number): Promise<boolean> {
    const normal = joinCodeComparisonForm(code);
    const { rows } = await this.client.query<{ team_id: number }>(
      `INSERT INTO app.join_codes (edition, code, team_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (edition, code) DO UPDATE SET code = EXCLUDED.code WHERE app.join_codes.team_id = EXCLUDED.team_id
       RETURNING team_id`,
      [edition, normal, teamId, createdAt, expiresAt],
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
   * Records a newly drawn `code` (upper case) for `teamId` in its edition `edition` (a year).
   * Unlike reserveJoinCode, a code that was ever used in the edition, by any team and also by this
   * one (a revoked code), is not taken: a replaced code must never start working again.
   * @returns false when the code exists already (the caller draws another).
   */
  async addJoinCode(code: string, teamId: number, createdAt: Date, edition: number): Promise<boolean> {
    const { rowCount } = await this.client.query(
      'INSERT INTO app.join_codes (edition, code, team_id, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (edition, code) DO NOTHING',
      [edition, joinCodeComparisonForm(code), teamId, createdAt],
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
   * Gives `teamId`, a team of `edition` (a year), the name `teamName` in the index: its old name
   * is released and the new one reserved, in this transaction (a rename to a name that differs
   * only in case or spacing keeps working).
   * @throws DomainError('TEAM_NAME_ALREADY_IN_USE') when another team of the edition holds the new name.
   */
  async renameTeam(teamId: number, teamName: string, edition: number): Promise<void> {
    await this.client.query('DELETE FROM app.team_name_index WHERE team_id = $1', [teamId]);
    await this.reserveTeamName(teamName, teamId, edition);
  }

  /**
   * A deleted team's index rows: its name becomes free for other teams, and every live join code
   * is revoked (revoked codes are never handed out again, docs/decisions/0015).
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
    // The Strava connection goes with the account (its proposals cascade); its sealed tokens are
    // unreadable anyway once the participant's key is forgotten after the commit.
    await this.client.query('DELETE FROM app.strava_connections WHERE user_id = $1', [userId]);
    await this.client.query('UPDATE app.account_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL', [userId, at]);
    await this.raiseSessionVersion(userId, at, { end: true });
  }

  /**
   * Ends every session of the account: its session version goes up by one (a row is
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
    this.endedSessions.add(userId);
  }

  /** Records a new session family (a login) of the account. */
  async addSessionFamily(familyId: string, userId: string, at: Date): Promise<void> {
    await this.client.query('INSERT INTO app.session_families (family_id, user_id, created_at) VALUES ($1, $2, $3)', [familyId, userId, at]);
  }

  /** Revokes a session family: its refresh tokens and its access tokens (`sid`) stop working. Idempotent. */
  async revokeSessionFamily(familyId: string, at: Date): Promise<void> {
    const { rows } = await this.client.query<{ user_id: string }>(
      'UPDATE app.session_families SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL RETURNING user_id', [familyId, at]);
    for (const row of rows) this.endedSessions.add(row.user_id);
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
