/**
 * Reading the parks for the administrators: GET /api/admin/parked in the query API
 * lists them and counts the open ones per projection (the metric). The runner writes them
 * (runner.ts); nothing else does.
 */
import type { Kysely } from 'kysely';
import { READ_MODEL_SCHEMA, type ParkedEventsTable, type ReadModelDatabase } from './schema';

/** One park as the admin console shows it (contracts' ParkedEvent). Instants ISO-8601 UTC. */
export interface ParkedEventView {
  projection: string;
  position: number;
  eventId: string;
  eventType: string;
  errorCode: string;
  error: string;
  parkedAt: string;
  attempts: number;
  status: ParkedEventsTable['status'];
  resolvedAt: string | null;
  reason: string | null;
}

/**
 * The parks in the live schema, by position then projection: the open ones (`status: 'parked'`),
 * or with `all` the resolved ones too; at most `limit`.
 */
export async function readParkedEvents(
  db: Kysely<ReadModelDatabase>,
  options: { all?: boolean; limit?: number } = {},
): Promise<ParkedEventView[]> {
  let query = db.withSchema(READ_MODEL_SCHEMA).selectFrom('parked_events').selectAll();
  if (!options.all) query = query.where('status', '=', 'parked');
  const rows = await query.orderBy('position').orderBy('projection').limit(options.limit ?? 500).execute();
  return rows.map((row) => ({
    projection: row.projection,
    position: row.position,
    eventId: row.event_id,
    eventType: row.event_type,
    errorCode: row.error_code,
    error: row.error,
    parkedAt: row.parked_at.toISOString(),
    attempts: row.attempts,
    status: row.status,
    resolvedAt: row.resolved_at?.toISOString() ?? null,
    reason: row.reason,
  }));
}

/**
 * The metric: how many events each projection has parked now (open parks), for every name in
 * `projections` (0 when none) and any other projection that has some.
 */
export async function countParkedEvents(
  db: Kysely<ReadModelDatabase>,
  projections: readonly string[],
): Promise<{ projection: string; parked: number }[]> {
  const rows = await db.withSchema(READ_MODEL_SCHEMA).selectFrom('parked_events')
    .select(['projection', (eb) => eb.fn.countAll<string>().as('n')])
    .where('status', '=', 'parked').groupBy('projection').execute();
  const counts = new Map<string, number>(projections.map((name) => [name, 0]));
  for (const row of rows) counts.set(row.projection, Number(row.n));
  return [...counts].map(([projection, parked]) => ({ projection, parked }));
}
