/**
 * The Kysely instance over a pg pool, with PostgreSQL types parsed as the read models expect:
 * bigint (int8) as a JS number (positions and hundredths stay far below 2^53) and `date` as the
 * plain 'YYYY-MM-DD' string (never shifted by the process's time zone).
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { createResilientPool, type PoolLog } from '@sinilill/event-store';
import type { ReadModelDatabase } from './schema';

pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

/**
 * A pg pool for `databaseUrl` (max connections default 10) that survives the database going
 * away: broken idle connections are logged and replaced (createResilientPool).
 */
export function createPool(databaseUrl: string, max = 10, log?: PoolLog): pg.Pool {
  return createResilientPool({ connectionString: databaseUrl, max, ...(log ? { log } : {}) });
}

/** Kysely over an existing pool (the caller ends the pool, or calls db.destroy()). */
export function createReadModelDb(pool: pg.Pool): Kysely<ReadModelDatabase> {
  return new Kysely<ReadModelDatabase>({ dialect: new PostgresDialect({ pool }) });
}
