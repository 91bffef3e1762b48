/**
 * Operators' reads and writes of the PostgreSQL log's own tables, for tools that work on the
 * database as a whole (backup and restore copy tables, whatever the EventStore interface says):
 * the log's head and its position sequence, and the crypto-shredding of the people whose deletion
 * the log records. PostgreSQL only, by nature; every other reader of the log goes through
 * EventStore.
 */
import type pg from 'pg';

/** The PostgreSQL log's table, as a backup names it among the tables it copies. */
export const POSTGRES_LOG_TABLE = 'es.events';

/** A connection in the caller's transaction (a backup's snapshot, a restore's load). */
type Queryable = Pick<pg.ClientBase, 'query'>;

/** The log's head (its highest global position, 0 when empty), as seen by `client`'s snapshot. */
export async function postgresLogHead(client: Queryable): Promise<number> {
  const { rows } = await client.query<{ head: string }>('SELECT coalesce(max(global_position), 0)::text AS head FROM es.events');
  return Number(rows[0]?.head ?? 0);
}

/**
 * The log's head and the position `es.global_position` hands out next, both as decimal text
 * (bigints), for a restore's check that no position can be handed out twice.
 */
export async function postgresLogPositions(client: Queryable): Promise<{ head: string; next: string }> {
  const { rows } = await client.query<{ head: string; next: string }>(
    `SELECT (SELECT coalesce(max(global_position), 0) FROM es.events)::text AS head,
            (SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM es.global_position)::text AS next`,
  );
  return rows[0]!;
}

/**
 * Destroys the key (crypto-shredding, personal-data.ts) of every subject whose deletion the log
 * records — `participant-{id}` of a ParticipantDeleted, `user-{id}` of a UserDeleted — that still
 * has one, in `client`'s transaction; answers those subjects.
 */
export async function destroyKeysOfDeletedSubjects(client: Queryable): Promise<string[]> {
  const { rows } = await client.query<{ subject: string }>(
    `UPDATE es.subject_keys SET key = NULL, erased_at = coalesce(erased_at, now())
      WHERE key IS NOT NULL AND subject IN (
        SELECT 'participant-' || (data->>'participantId') FROM es.events WHERE type = 'ParticipantDeleted'
        UNION SELECT 'user-' || (data->>'userId') FROM es.events WHERE type = 'UserDeleted')
      RETURNING subject`,
  );
  return rows.map((row) => row.subject);
}
