/**
 * Bulk writes of read-model rows: one `INSERT … SELECT * FROM unnest($1::t[],
 * $2::t[], …) ON CONFLICT … DO UPDATE` per call, one array parameter per column, whatever the
 * number of rows. Against Kysely's multi-row VALUES (one bind parameter per cell, a query text
 * and a syntax tree growing with the rows, chunked under 65 535 parameters) it costs Node far
 * less per row, which is what a replay of a million events is made of; the projections' hot
 * tables (the entries' ledgers, team rows, members) are written through it.
 *
 * Built with Kysely's builder, so a `db` bound to a schema (`withSchema`, the runner's target
 * schema) writes there.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ReadModelDatabase } from './schema';

/** PostgreSQL element types the columns are sent as (arrays of them). */
export type BulkColumnType = 'int' | 'bigint' | 'text' | 'bool' | 'timestamptz' | 'date';

/** How a conflicting row's column is updated: taken from the new row, or added to the stored value. */
export type BulkUpdate = 'replace' | 'add';

export interface BulkUpsert<T extends keyof ReadModelDatabase> {
  table: T;
  /** Every column written, with its type, in any order. */
  columns: Partial<Record<keyof ReadModelDatabase[T] & string, BulkColumnType>>;
  /** The unique key the conflict is on. */
  key: readonly (keyof ReadModelDatabase[T] & string)[];
  /** Columns updated on conflict and how (default: every non-key column, replaced). */
  update?: Partial<Record<keyof ReadModelDatabase[T] & string, BulkUpdate>>;
}

/** A text element that must be escaped inside its double quotes. */
const ESCAPE = /[\\"]/g;
/** What a number or ISO-8601 time written bare may not hold (anything else is quoted). */
const NOT_BARE = /[^0-9A-Za-z.:+-]/;

/**
 * The column `name` of `rows` as a PostgreSQL array literal of `type` (`{1,2,NULL}`,
 * `{"a b","c"}`): numbers and booleans as they print, dates as ISO-8601, text always quoted
 * (backslash and double quote escaped), undefined and null as NULL. Built here rather than by
 * pg's array serialisation, which escapes every element through a regular expression and was a
 * quarter of a replay's time in Node.
 * @throws TypeError for a value of another type (objects, arrays).
 */
export function arrayLiteral(rows: readonly Record<string, unknown>[], name: string, type: BulkColumnType = 'text'): string {
  const quoted = type === 'text';
  let out = '{';
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) out += ',';
    const value = rows[i]![name];
    if (value === null || value === undefined) out += 'NULL';
    else if (typeof value === 'number' || typeof value === 'bigint') out += String(value);
    else if (typeof value === 'boolean') out += value ? 't' : 'f';
    else if (value instanceof Date) out += value.toISOString();
    else if (typeof value === 'string') {
      // Dates and times (ISO-8601) need no quotes; text always gets them ('NULL', '', spaces, commas).
      if (!quoted && value !== '' && !NOT_BARE.test(value)) out += value;
      else out += `"${value.includes('"') || value.includes('\\') ? value.replace(ESCAPE, (c) => `\\${c}`) : value}"`;
    } else throw new TypeError(`bulk upsert: column ${name} holds a ${typeof value}, not a scalar`);
  }
  return `${out}}`;
}

/** The loose shape the builder is driven with here (tables and columns come from the typed spec). */
type LooseDb = Kysely<Record<string, Record<string, unknown>>>;

/**
 * Upserts `rows` (objects keyed by column name; undefined is written as null) into `spec.table`
 * in one statement. Does nothing for no rows. Rows must not repeat a key (PostgreSQL: "ON
 * CONFLICT DO UPDATE command cannot affect row a second time").
 * @throws pg errors (a data exception parks the batch's events, parking.ts).
 */
export async function upsertRows<T extends keyof ReadModelDatabase>(
  db: Kysely<ReadModelDatabase>,
  spec: BulkUpsert<T>,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.entries(spec.columns) as [string, BulkColumnType][];
  const names = columns.map(([name]) => name);
  const arrays = columns.map(([name, type]) => sql`${arrayLiteral(rows, name, type)}::${sql.raw(type)}[]`);
  const source: RawBuilder<unknown> = sql`SELECT * FROM unnest(${sql.join(arrays)})`;
  const key = new Set<string>(spec.key);
  const update = (spec.update ?? Object.fromEntries(names.filter((n) => !key.has(n)).map((n) => [n, 'replace']))) as Record<string, BulkUpdate>;
  const table = spec.table as string;
  await (db as unknown as LooseDb).insertInto(table).columns(names).expression(source)
    .onConflict((oc) => {
      const target = oc.columns([...key]);
      const entries = Object.entries(update);
      if (entries.length === 0) return target.doNothing();
      return target.doUpdateSet(Object.fromEntries(entries.map(([column, how]) => [
        column,
        how === 'add'
          ? sql`${sql.ref(`${table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`
          : sql.ref(`excluded.${column}`),
      ])));
    })
    .execute();
}
