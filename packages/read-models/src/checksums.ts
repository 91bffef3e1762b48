/**
 * Read-model checksums: before a replay swaps its rebuilt tables in, the
 * operator sees, per table, a checksum of the rebuilt rows and of the live ones, and whether they
 * match. A replay of an unchanged log and unchanged rules must reproduce the live tables exactly;
 * a mismatch points at a table that drifted (a bug in a projection, a row changed by hand) or at
 * rules that changed on purpose (a new route).
 *
 * A table's checksum is order-independent: the row count and the sum, as an exact numeric, of a
 * 64-bit hash of each row's text (`hashtextextended(ROW(...)::text, 0)`, PostgreSQL's own hash),
 * over the table's columns in name order (so a live table whose columns were added by later
 * migrations, in another physical order, compares equal to a freshly built one). Columns that
 * record when the projector wrote a row, not what the log says, are left out (IGNORED_COLUMNS);
 * the migrations' own tables are not read models and are left out too. Computed by PostgreSQL in
 * one pass per table, so it costs a sequential scan and no memory in Node.
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ReadModelDatabase } from './schema';

/**
 * Columns left out of a table's checksum: wall-clock times of the projector's own work, and a
 * park's attempt count and message, which depend on how often a projector tried, not on the log.
 */
export const IGNORED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  checkpoints: ['updated_at'],
  settings: ['updated_at'],
  parked_events: ['parked_at', 'attempts', 'error'],
};

/** Tables of a read-model schema that are not read models (Kysely's migration bookkeeping). */
const NOT_READ_MODELS = new Set(['kysely_migration', 'kysely_migration_lock']);

/** One table's checksum. */
export interface TableChecksum {
  table: string;
  rows: number;
  /** 16 hex digits (the first 64 bits of SHA-256 over the row count and the hash sum). */
  checksum: string;
}

/** One table compared between the rebuilt and the live schema. */
export interface TableComparison {
  table: string;
  rebuilt: TableChecksum;
  /** Null when the live schema has no such table (a first replay, a new table) or was too far behind to compare. */
  live: TableChecksum | null;
  match: boolean;
}

/** The read-model tables of `schema` (base tables, by name), without the migrations' own. */
export async function readModelTables(db: Kysely<ReadModelDatabase>, schema: string): Promise<string[]> {
  const result = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables
    WHERE table_schema = ${schema} AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(db);
  return result.rows.map((r) => r.table_name).filter((name) => !NOT_READ_MODELS.has(name));
}

/** The columns of `schema.table` that a checksum covers, by name. */
async function checksumColumns(db: Kysely<ReadModelDatabase>, schema: string, table: string): Promise<string[]> {
  const result = await sql<{ column_name: string }>`
    SELECT column_name FROM information_schema.columns
    WHERE table_schema = ${schema} AND table_name = ${table} ORDER BY column_name`.execute(db);
  const ignored = new Set(IGNORED_COLUMNS[table] ?? []);
  return result.rows.map((r) => r.column_name).filter((name) => !ignored.has(name));
}

/**
 * The checksum of `schema.table` over `columns` (module docs). Read inside the caller's
 * transaction when `db` is one, so that it sees the same snapshot as the caller's other reads.
 */
export async function tableChecksum(db: Kysely<ReadModelDatabase>, schema: string, table: string, columns: readonly string[]): Promise<TableChecksum> {
  const row = sql.join(columns.map((c) => sql.ref(`t.${c}`)));
  const result = await sql<{ rows: string; total: string }>`
    SELECT count(*)::bigint AS rows, coalesce(sum(hashtextextended(ROW(${row})::text, 0)::numeric), 0)::text AS total
    FROM ${sql.table(`${schema}.${table}`)} AS t`.execute(db);
  const { rows, total } = result.rows[0]!;
  const checksum = createHash('sha256').update(`${rows}:${total}`).digest('hex').slice(0, 16);
  return { table, rows: Number(rows), checksum };
}

/**
 * Compares every read-model table of `rebuilt` with the table of the same name in `live`, over
 * the rebuilt table's columns (a live table missing one of them compares as not matching). Meant
 * to run inside the swap's transaction, with both schemas caught up to the same position. `live`
 * null: the rebuilt side alone (each `live` null, no `match`).
 */
export async function compareReadModels(db: Kysely<ReadModelDatabase>, rebuilt: string, live: string | null): Promise<TableComparison[]> {
  const liveTables = new Set(live === null ? [] : await readModelTables(db, live));
  const comparisons: TableComparison[] = [];
  for (const table of await readModelTables(db, rebuilt)) {
    const columns = await checksumColumns(db, rebuilt, table);
    const rebuiltSum = await tableChecksum(db, rebuilt, table, columns);
    let liveSum: TableChecksum | null = null;
    if (live !== null && liveTables.has(table)) {
      const liveColumns = new Set(await checksumColumns(db, live, table));
      liveSum = columns.every((c) => liveColumns.has(c))
        ? await tableChecksum(db, live, table, columns)
        : { table, rows: -1, checksum: 'columns differ' };
    }
    comparisons.push({
      table, rebuilt: rebuiltSum, live: liveSum,
      match: liveSum !== null && liveSum.rows === rebuiltSum.rows && liveSum.checksum === rebuiltSum.checksum,
    });
  }
  return comparisons;
}
