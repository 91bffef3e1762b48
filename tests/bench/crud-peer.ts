/**
 * The honest peer of POST /api/entry: what a conventional (not event-sourced) Fastify + pg app
 * does for the same request, on the same database, the same tokens and the same session rows.
 *
 * For each POST /api/entry it
 * 1. verifies the access token (@fastify/jwt, HS256, the command API's secret and claims);
 * 2. checks the session is live: ONE SELECT, the very statement of AccountDirectory.sessionState
 *    (app.account_sessions, app.session_families), the token's `sv` against the row's version;
 * 3. checks the participant's team and the April window: one SELECT of its own participants
 *    table (crud_peer.participants: the participant's team; its entry goes to that team), the
 *    day within 2025-04-01…2025-04-30 and not after the clock's day;
 * 4. in ONE transaction on one pooled connection (BEGIN, INSERT the entry row into
 *    crud_peer.entries, UPDATE crud_peer.teams' total, COMMIT; synchronous_commit on, the
 *    database's default), and answers the row.
 * So six sequential round trips, the shape an ORM or a hand-written service gives (a session
 * look-up, a permission look-up, an explicit transaction); no cache of sessions, no moderation,
 * no idempotency, no event log: less work than ours, as a plain CRUD app would do.
 *
 * Its tables live in schema crud_peer of the bench database, made here and dropped on close.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyJwt from '@fastify/jwt';
import type pg from 'pg';

/** The body the peer takes: spec §7 POST /entry's fields. */
const BODY = {
  type: 'object',
  required: ['distance', 'entry_type', 'performed_at'],
  additionalProperties: false,
  properties: {
    distance: { type: 'number', exclusiveMinimum: 0, maximum: 1000, multipleOf: 0.01 },
    entry_type: { type: 'string', minLength: 1, maxLength: 64 },
    performed_at: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
  },
} as const;

const SESSION = `SELECT s.version, s.ended_at IS NOT NULL AS ended, (f.family_id IS NOT NULL AND f.revoked_at IS NULL) AS family_live
    FROM app.account_sessions s
    LEFT JOIN app.session_families f ON f.family_id = $2::uuid AND f.user_id = s.user_id
   WHERE s.user_id = $1`;

interface Claims { userId: string; sv: number; sid: string; participantId: number | null }
interface Body { distance: number; entry_type: string; performed_at: string }

/** The peer, listening on 127.0.0.1: its URL and close(). `participants`: participant id → team id. */
export async function startCrudPeer(options: {
  pool: pg.Pool;
  jwtSecret: string;
  /** The clock's day (YYYY-MM-DD): no entry after it. */
  today: string;
  participants: ReadonlyMap<number, number>;
}): Promise<{ url: string; close(): Promise<void> }> {
  const { pool } = options;
  await pool.query(`DROP SCHEMA IF EXISTS crud_peer CASCADE; CREATE SCHEMA crud_peer;
    CREATE TABLE crud_peer.teams (team_id integer PRIMARY KEY, total_hundredths bigint NOT NULL DEFAULT 0);
    CREATE TABLE crud_peer.participants (participant_id integer PRIMARY KEY, team_id integer NOT NULL REFERENCES crud_peer.teams);
    CREATE TABLE crud_peer.entries (
      entry_id bigserial PRIMARY KEY, participant_id integer NOT NULL REFERENCES crud_peer.participants, team_id integer NOT NULL,
      distance_hundredths integer NOT NULL, entry_type text NOT NULL, performed_at date NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
    CREATE INDEX entries_team_day ON crud_peer.entries (team_id, performed_at);`);
  const teams = [...new Set(options.participants.values())];
  await pool.query('INSERT INTO crud_peer.teams (team_id) SELECT unnest($1::int[])', [teams]);
  await pool.query('INSERT INTO crud_peer.participants (participant_id, team_id) SELECT * FROM unnest($1::int[], $2::int[])',
    [[...options.participants.keys()], [...options.participants.values()]]);

  const app: FastifyInstance = Fastify({ logger: false });
  await app.register(fastifyJwt, { secret: options.jwtSecret, verify: { algorithms: ['HS256'] } });
  app.post<{ Body: Body }>('/api/entry', { schema: { body: BODY } }, async (request, reply) => {
    let claims: Claims;
    try {
      claims = await request.jwtVerify<Claims>();
    } catch {
      return reply.status(401).send({ message: 'UNAUTHORIZED' });
    }
    const session = (await pool.query<{ version: number; ended: boolean; family_live: boolean }>(SESSION, [claims.userId, claims.sid])).rows[0];
    if (!session || session.ended || !session.family_live || session.version !== claims.sv) return reply.status(401).send({ message: 'UNAUTHORIZED' });
    const participant = (await pool.query<{ team_id: number }>('SELECT team_id FROM crud_peer.participants WHERE participant_id = $1', [claims.participantId])).rows[0];
    if (!participant) return reply.status(404).send({ message: 'NOT_FOUND' });
    const day = request.body.performed_at;
    if (day < '2025-04-01' || day > '2025-04-30' || day > options.today) return reply.status(400).send({ message: 'INVALID_PERFORMED_AT' });
    const hundredths = Math.round(request.body.distance * 100);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ entry_id: string; created_at: Date }>(
        `INSERT INTO crud_peer.entries (participant_id, team_id, distance_hundredths, entry_type, performed_at)
         VALUES ($1, $2, $3, $4, $5) RETURNING entry_id, created_at`,
        [claims.participantId, participant.team_id, hundredths, request.body.entry_type, day]);
      await client.query('UPDATE crud_peer.teams SET total_hundredths = total_hundredths + $2 WHERE team_id = $1', [participant.team_id, hundredths]);
      await client.query('COMMIT');
      const row = rows[0]!;
      return {
        success: true,
        entry: {
          id: Number(row.entry_id), team_id: participant.team_id, participant_id: claims.participantId, distance: request.body.distance,
          entry_type: request.body.entry_type, performed_at: day, created_at: row.created_at.toISOString(),
        },
      };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    async close() {
      await app.close();
      await pool.query('DROP SCHEMA IF EXISTS crud_peer CASCADE');
    },
  };
}
