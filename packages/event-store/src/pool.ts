/**
 * PostgreSQL connection pools that survive the database going away ("the site heals
 * itself"). pg emits 'error' on a pool when an idle client's connection breaks (a restart, a
 * failover, `pg_terminate_backend`); unhandled, that event ends the process. Here it is logged
 * and the broken client is dropped: the pool opens a new connection on the next checkout, so
 * requests fail while the database is down and work again once it is back.
 */
import pg from 'pg';
import { pendingMigrations, type MigrationSet } from './migrations/runner';

/** Where pool problems are reported (pino-shaped). */
export interface PoolLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** The options of createResilientPool. */
export interface ResilientPoolOptions {
  connectionString: string;
  /** Maximum connections (default 10). */
  max?: number;
  /** How long a checkout waits for a connection before failing, ms (default 10 000). */
  connectionTimeoutMillis?: number;
  log?: PoolLog;
}

/**
 * A pg pool whose idle-client errors are logged instead of crashing the process. TCP keep-alive
 * is on, so a connection to a database that vanished without a word is found broken.
 */
export function createResilientPool(options: ResilientPoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 10_000,
    keepAlive: true,
  });
  guardPool(pool, options.log);
  return pool;
}

/**
 * Attaches the 'error' handlers of createResilientPool to an existing pool. Returns the pool.
 * Two places need one: the pool re-emits the errors of idle clients, and a checked-out client
 * emits its own — pg fails the client's queries with the error and then emits it on the client,
 * where pg-pool listens only while the client is idle; unheard, it ended the process (the
 * projector, in the middle of a batch, when PostgreSQL crashed).
 */
export function guardPool(pool: pg.Pool, log?: PoolLog): pg.Pool {
  pool.on('error', (error) => {
    log?.warn({ err: error }, 'a pooled PostgreSQL connection broke; it is dropped and replaced on demand');
  });
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      log?.warn({ err: error }, 'a PostgreSQL connection in use broke; its queries fail and it is replaced');
    });
  });
  return pool;
}

/**
 * Waits until `pool` can run `SELECT 1` and, when `schemas` is given, until every migration of
 * those sets is applied (pendingMigrations), retrying with back-off (250 ms doubling to 5 s), so
 * a service started before its database, or before `npm run migrate` finished, waits instead of
 * exiting on a missing table.
 * @param log reports each failed attempt (at warn): the connection error's message, or the
 *   migrations still pending.
 * @param timeoutMs gives up after this long (default: never).
 * @throws the last connection error (or an Error listing the pending migrations) once timeoutMs
 *   has passed, or when `signal` aborts.
 */
export async function waitForPostgres(
  pool: pg.Pool,
  options: { log?: PoolLog; timeoutMs?: number; signal?: AbortSignal; schemas?: readonly MigrationSet[] } = {},
): Promise<void> {
  const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
  for (let attempt = 0; ; attempt++) {
    let problem: { error: unknown; fields: Record<string, unknown>; message: string };
    try {
      await pool.query('SELECT 1');
      const pending = options.schemas ? await pendingMigrations(pool, options.schemas) : [];
      if (pending.length === 0) return;
      problem = {
        error: new Error(`the database is not migrated: ${pending.join(', ')} pending`),
        fields: { pending },
        message: 'the database is not migrated yet (npm run migrate); waiting',
      };
    } catch (error) {
      problem = { error, fields: { err: error instanceof Error ? error.message : String(error) }, message: 'PostgreSQL is not reachable yet; waiting' };
    }
    if (Date.now() >= deadline || options.signal?.aborted) throw problem.error;
    const delay = Math.min(5_000, 250 * 2 ** Math.min(attempt, 5));
    options.log?.warn({ ...problem.fields, attempt: attempt + 1, retryInMs: delay }, problem.message);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
