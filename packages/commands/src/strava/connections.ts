/**
 * The Strava connections and proposals (tables app.strava_connections, app.strava_proposals;
 * migration 0006, docs/decisions/0095).
 *
 * Tokens and the athlete's and activities' names are personal data: they are sealed with the
 * event store's personal-data encryption (PersonalDataVault, docs/decisions/0002) under the
 * participant's subject (`participant-{id}`), the subject the person's erasure forgets. A token
 * of an erased person thus reads as null even from a backup; the erasure deletes the rows too
 * (AccountTransaction.eraseAccount).
 *
 * A token is refreshed when it expires within REFRESH_MARGIN_MS, under a row lock
 * (SELECT … FOR UPDATE) held across the refresh, so two jobs in two processes never both use
 * the same refresh token: Strava revokes a refresh token once it has been exchanged.
 */
import type pg from 'pg';
import { streams } from '@sinilill/domain';
import type { JsonValue } from '@sinilill/event-store';
import { StravaHttpError, StravaUnauthorizedError, type StravaClient, type StravaTokenAnswer } from './client';

/** Refresh an access token that expires within this, ms (5 minutes; Strava's tokens live 6 hours). */
export const REFRESH_MARGIN_MS = 5 * 60_000;

/** What seals and opens personal values (PersonalDataVault of @sinilill/event-store). */
export interface Sealer {
  encryptMany(items: readonly { subject: string; value: JsonValue }[]): Promise<string[]>;
  decryptMany(sealed: readonly string[]): Promise<(JsonValue | null)[]>;
}

export type StravaMode = 'auto' | 'confirm';
export type StravaStatus = 'connected' | 'deauthorized' | 'disconnected';

/** A connection as the account page shows it (GET /api/me/strava). */
export interface StravaConnectionView {
  athleteId: number;
  athleteName: string;
  mode: StravaMode;
  status: StravaStatus;
  /** ISO-8601 UTC. */
  connectedAt: string;
  lastSyncAt: string | null;
  /** A catalogue code (the last skipped or failed activity's), or null. */
  lastError: string | null;
  /** Activities skipped since connecting (outside the edition, no distance). */
  skipped: number;
}

/** A connection with what the sync needs. */
export interface StravaConnection extends StravaConnectionView {
  userId: string;
  participantId: number;
}

/** An activity held for the member to confirm (mode confirm). */
export interface StravaProposal {
  activityId: number;
  name: string;
  sportType: string;
  entryType: string | null;
  /** km, two decimals. */
  distance: number;
  /** YYYY-MM-DD. */
  performedAt: string;
  /** ISO-8601 UTC. */
  startedAt: string;
}

interface ConnectionRow {
  user_id: string;
  participant_id: number;
  athlete_id: string;
  athlete_name: string;
  mode: StravaMode;
  status: StravaStatus;
  connected_at: Date;
  last_sync_at: Date | null;
  last_error: string | null;
  skipped: number;
}

const COLUMNS = 'user_id, participant_id, athlete_id, athlete_name, mode, status, connected_at, last_sync_at, last_error, skipped';

/** The connection and proposal tables, over the account tables' pool. */
export class StravaConnections {
  constructor(private readonly pool: pg.Pool, private readonly sealer: Sealer) {}

  /**
   * Stores a new connection of `userId` (replacing the account's earlier one, and any other
   * account's connection of the same athlete: one athlete syncs into one account), status
   * connected.
   */
  async connect(input: { userId: string; participantId: number; athlete: { id: number; name: string }; mode: StravaMode; scope: string; tokens: StravaTokenAnswer; at: Date }): Promise<StravaConnection> {
    const subject = streams.participant(input.participantId);
    const [name, access, refresh] = await this.sealer.encryptMany([
      { subject, value: input.athlete.name }, { subject, value: input.tokens.access_token }, { subject, value: input.tokens.refresh_token },
    ]);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('DELETE FROM app.strava_connections WHERE athlete_id = $1 AND user_id <> $2', [input.athlete.id, input.userId]);
      await client.query(
        `INSERT INTO app.strava_connections (user_id, participant_id, athlete_id, subject, athlete_name, mode, status, scope, access_token, refresh_token, expires_at, connected_at, last_sync_at, last_error, skipped, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'connected', $7, $8, $9, to_timestamp($10), $11, NULL, NULL, 0, $11)
         ON CONFLICT (user_id) DO UPDATE SET participant_id = EXCLUDED.participant_id, athlete_id = EXCLUDED.athlete_id, subject = EXCLUDED.subject,
           athlete_name = EXCLUDED.athlete_name, mode = EXCLUDED.mode, status = 'connected', scope = EXCLUDED.scope, access_token = EXCLUDED.access_token,
           refresh_token = EXCLUDED.refresh_token, expires_at = EXCLUDED.expires_at, connected_at = EXCLUDED.connected_at, last_sync_at = NULL,
           last_error = NULL, skipped = 0, updated_at = EXCLUDED.updated_at`,
        [input.userId, input.participantId, input.athlete.id, subject, name, input.mode, input.scope, access, refresh, input.tokens.expires_at, input.at],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
    return (await this.get(input.userId))!;
  }

  /** The account's connection, or null. */
  async get(userId: string): Promise<StravaConnection | null> {
    const { rows } = await this.pool.query<ConnectionRow>(`SELECT ${COLUMNS} FROM app.strava_connections WHERE user_id = $1`, [userId]);
    return rows[0] ? this.view(rows[0]) : null;
  }

  /** The connection of a Strava athlete, or null. */
  async byAthlete(athleteId: number): Promise<StravaConnection | null> {
    const { rows } = await this.pool.query<ConnectionRow>(`SELECT ${COLUMNS} FROM app.strava_connections WHERE athlete_id = $1`, [athleteId]);
    return rows[0] ? this.view(rows[0]) : null;
  }

  /**
   * The account's participant changed (it joined a new edition): entries go to the new one, and
   * the tokens are sealed under its subject from the next refresh on.
   */
  async moveTo(userId: string, participantId: number, at: Date): Promise<void> {
    await this.pool.query('UPDATE app.strava_connections SET participant_id = $2, subject = $3, updated_at = $4 WHERE user_id = $1',
      [userId, participantId, streams.participant(participantId), at]);
  }

  /** Changes the mode of a live connection; null when there is none. */
  async setMode(userId: string, mode: StravaMode, at: Date): Promise<StravaConnection | null> {
    await this.pool.query("UPDATE app.strava_connections SET mode = $2, updated_at = $3 WHERE user_id = $1 AND status = 'connected'", [userId, mode, at]);
    return this.get(userId);
  }

  /**
   * Ends the connection (disconnected by the member, deauthorized on Strava's side): the tokens
   * and the proposals are dropped, the row stays so the page can say so.
   * @returns the access token it held (to deauthorize at Strava), or null.
   */
  async end(userId: string, status: 'disconnected' | 'deauthorized', at: Date): Promise<string | null> {
    const { rows } = await this.pool.query<{ access_token: string | null }>(
      `UPDATE app.strava_connections c SET status = $2, access_token = NULL, refresh_token = NULL, expires_at = NULL, updated_at = $3
       FROM (SELECT user_id, access_token FROM app.strava_connections WHERE user_id = $1 FOR UPDATE) old
       WHERE c.user_id = old.user_id RETURNING old.access_token`,
      [userId, status, at],
    );
    await this.pool.query('DELETE FROM app.strava_proposals WHERE user_id = $1', [userId]);
    const sealed = rows[0]?.access_token ?? null;
    if (sealed === null) return null;
    const [token] = await this.sealer.decryptMany([sealed]);
    return typeof token === 'string' ? token : null;
  }

  /** Records a sync's outcome: its time, and a skipped activity's or a failure's code (null: none). */
  async recordSync(userId: string, at: Date, outcome: { error?: string | null; skipped?: boolean } = {}): Promise<void> {
    await this.pool.query(
      `UPDATE app.strava_connections SET last_sync_at = $2, last_error = CASE WHEN $3::boolean THEN $4 ELSE last_error END,
         skipped = skipped + CASE WHEN $5::boolean THEN 1 ELSE 0 END WHERE user_id = $1`,
      [userId, at, outcome.error !== undefined, outcome.error ?? null, outcome.skipped === true],
    );
  }

  /**
   * Runs `use` with a live access token of the connection, refreshed first (and stored) when it
   * expires within REFRESH_MARGIN_MS. The refresh holds the row's lock, so concurrent jobs wait for
   * it and then use the new token. A token Strava refuses (401) before its time is refreshed once
   * and `use` tried again; a refresh token Strava refuses means the grant is gone.
   * @returns null when the connection is not live (no tokens: disconnected, deauthorized, erased).
   * @throws StravaUnauthorizedError when Strava refuses the refreshed token or the refresh token.
   */
  async withAccessToken<T>(userId: string, client: StravaClient, nowMs: number, use: (accessToken: string) => Promise<T>): Promise<{ value: T } | null> {
    const token = await this.accessToken(userId, client, nowMs, null);
    if (token === null) return null;
    try {
      return { value: await use(token) };
    } catch (error) {
      if (!(error instanceof StravaUnauthorizedError)) throw error;
      const fresh = await this.accessToken(userId, client, nowMs, token);
      if (fresh === null) return null;
      return { value: await use(fresh) };
    }
  }

  /** A live access token; `refused`: the one Strava just refused, refreshed unless another job has already replaced it. */
  private async accessToken(userId: string, strava: StravaClient, nowMs: number, refused: string | null): Promise<string | null> {
    const db = await this.pool.connect();
    try {
      await db.query('BEGIN');
      const { rows } = await db.query<{ subject: string; access_token: string | null; refresh_token: string | null; expires_at: Date | null }>(
        "SELECT subject, access_token, refresh_token, expires_at FROM app.strava_connections WHERE user_id = $1 AND status = 'connected' FOR UPDATE",
        [userId],
      );
      const row = rows[0];
      if (!row || row.access_token === null || row.refresh_token === null) {
        await db.query('COMMIT');
        return null;
      }
      const [access, refresh] = await this.sealer.decryptMany([row.access_token, row.refresh_token]);
      if (typeof access !== 'string' || typeof refresh !== 'string') {
        await db.query('COMMIT');
        return null; // the person's key is forgotten: nothing to use
      }
      const replaced = refused !== null && access !== refused;
      if (replaced || (refused === null && row.expires_at !== null && row.expires_at.getTime() - nowMs > REFRESH_MARGIN_MS)) {
        await db.query('COMMIT');
        return access;
      }
      let fresh: StravaTokenAnswer;
      try {
        fresh = await strava.refresh(refresh);
      } catch (error) {
        // Strava answers 400 to a refresh token it no longer knows (revoked with the grant).
        if (error instanceof StravaHttpError && (error.status === 400 || error.status === 401)) throw new StravaUnauthorizedError('Strava refused the refresh token');
        throw error;
      }
      const [sealedAccess, sealedRefresh] = await this.sealer.encryptMany([
        { subject: row.subject, value: fresh.access_token }, { subject: row.subject, value: fresh.refresh_token },
      ]);
      await db.query(
        'UPDATE app.strava_connections SET access_token = $2, refresh_token = $3, expires_at = to_timestamp($4), updated_at = now() WHERE user_id = $1',
        [userId, sealedAccess, sealedRefresh, fresh.expires_at],
      );
      await db.query('COMMIT');
      return fresh.access_token;
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      db.release();
    }
  }

  /** Holds (or replaces) an activity for the member to confirm. */
  async propose(userId: string, participantId: number, proposal: StravaProposal, at: Date): Promise<void> {
    const [name] = await this.sealer.encryptMany([{ subject: streams.participant(participantId), value: proposal.name }]);
    await this.pool.query(
      `INSERT INTO app.strava_proposals (activity_id, user_id, participant_id, name, sport_type, entry_type, distance, performed_at, started_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (activity_id) DO UPDATE SET user_id = EXCLUDED.user_id, participant_id = EXCLUDED.participant_id, name = EXCLUDED.name,
         sport_type = EXCLUDED.sport_type, entry_type = EXCLUDED.entry_type, distance = EXCLUDED.distance, performed_at = EXCLUDED.performed_at,
         started_at = EXCLUDED.started_at`,
      [proposal.activityId, userId, participantId, name, proposal.sportType, proposal.entryType, proposal.distance, proposal.performedAt, proposal.startedAt, at],
    );
  }

  /** The account's proposals, oldest activity first. */
  async proposals(userId: string): Promise<StravaProposal[]> {
    const { rows } = await this.pool.query<ProposalRow>(`${PROPOSAL_SELECT} WHERE user_id = $1 ORDER BY started_at, activity_id`, [userId]);
    return this.proposalViews(rows);
  }

  /** One proposal of the account, or null. */
  async proposal(userId: string, activityId: number): Promise<StravaProposal | null> {
    const { rows } = await this.pool.query<ProposalRow>(`${PROPOSAL_SELECT} WHERE user_id = $1 AND activity_id = $2`, [userId, activityId]);
    return (await this.proposalViews(rows))[0] ?? null;
  }

  /** Drops a proposal (dismissed, confirmed, or the activity deleted); true when there was one. */
  async dropProposal(activityId: number, userId?: string): Promise<boolean> {
    const { rowCount } = userId === undefined
      ? await this.pool.query('DELETE FROM app.strava_proposals WHERE activity_id = $1', [activityId])
      : await this.pool.query('DELETE FROM app.strava_proposals WHERE activity_id = $1 AND user_id = $2', [activityId, userId]);
    return (rowCount ?? 0) > 0;
  }

  private async proposalViews(rows: readonly ProposalRow[]): Promise<StravaProposal[]> {
    const names = await this.sealer.decryptMany(rows.map((row) => row.name));
    return rows.map((row, index) => ({
      activityId: Number(row.activity_id),
      name: typeof names[index] === 'string' ? names[index] : '',
      sportType: row.sport_type,
      entryType: row.entry_type,
      distance: Number(row.distance),
      performedAt: row.performed_at,
      startedAt: row.started_at.toISOString(),
    }));
  }

  private async view(row: ConnectionRow): Promise<StravaConnection> {
    const [name] = await this.sealer.decryptMany([row.athlete_name]);
    return {
      userId: row.user_id,
      participantId: row.participant_id,
      athleteId: Number(row.athlete_id),
      athleteName: typeof name === 'string' ? name : '',
      mode: row.mode,
      status: row.status,
      connectedAt: row.connected_at.toISOString(),
      lastSyncAt: row.last_sync_at?.toISOString() ?? null,
      lastError: row.last_error,
      skipped: row.skipped,
    };
  }
}

interface ProposalRow {
  activity_id: string;
  name: string;
  sport_type: string;
  entry_type: string | null;
  distance: string;
  performed_at: string;
  started_at: Date;
}

// performed_at as text: a date column would come back as a local-midnight Date.
const PROPOSAL_SELECT = "SELECT activity_id, name, sport_type, entry_type, distance, to_char(performed_at, 'YYYY-MM-DD') AS performed_at, started_at FROM app.strava_proposals";
