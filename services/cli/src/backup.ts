/**
 * `npm run backup [-- <file>]`: a consistent dump of everything that is not
 * derived — the event log, the account tables, the subject keys of personal data, the stored
 * images and the id sequences — into one gzip'd file (format: backup-format.ts), written in Node
 * so that no pg_dump of a matching version is needed.
 *
 * Consistency: one `REPEATABLE READ READ ONLY` transaction, so every table is read in one
 * snapshot (a prefix of the log, docs/decisions/0001, with exactly the keys, accounts and images committed with
 * it); the sequences, which no snapshot covers, are read after it began, so they are never behind
 * the ids and positions it shows (a gap after restore is harmless, a repeat would not be). The
 * transaction only reads: appends go on meanwhile.
 *
 * Streaming: each table goes through `COPY (SELECT … ORDER BY <primary key>) TO STDOUT`
 * (pg-copy-streams) into gzip and the file, with backpressure: memory stays flat whatever the
 * size. The file is written as `<file>.partial` (mode 0600: it holds password hashes and the keys
 * that decrypt personal data), flushed to disk, then renamed: a file with the final name is
 * complete; a crashed backup leaves only a `.partial`.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { postgresLogHead } from '@sinilill/event-store';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  SECTION_END,
  backedUpSchemas,
  countLines,
  jsonLine,
  leftOutReason,
  orderTables,
  parseHeader,
  quoteIdentifier,
  quoteQualified,
  secretCheck,
  type BackupHeader,
  type BackupSequence,
  type BackupTable,
} from './backup-format';
import { MIGRATION_SETS } from './migrate';

/** What to back up, and where. */
export interface BackupOptions {
  /** The application's database. */
  databaseUrl: string;
  /** The file to write; must not exist (a backup never replaces another). Its folder is made. */
  file: string;
  /**
   * The deployment's EMAIL_INDEX_SECRET: only its check value (secretCheck) goes into the header,
   * so that a restore under another secret is caught. Omitted: no check value.
   */
  emailIndexSecret?: string;
  /** Called as rows are written: the table, its rows so far, and all tables' rows done and in all. */
  onProgress?: (progress: { table: string; done: number; total: number }) => void;
}

/** What a backup wrote. */
export interface BackupSummary {
  file: string;
  /** Size of the (compressed) file in bytes. */
  bytes: number;
  /** SHA-256 of the content, as the trailer holds it. */
  sha256: string;
  header: BackupHeader;
  milliseconds: number;
}

/** The file named for a backup exists, or the file named for a restore does not. */
export class BackupFileError extends Error {
  override readonly name = 'BackupFileError';
}

interface PlannedTable extends BackupTable {
  references: string[];
  primaryKey: string[];
}

/**
 * Writes a backup of the database at `databaseUrl` to `file` (see the module docs).
 * @returns the file's size, checksum, header and the time taken.
 * @throws BackupFileError when `file` exists; Error when the database is not migrated (no
 *   migration records), or a table's row count changed within the snapshot (it cannot: a bug);
 *   pg and fs errors as they come. On any error the `.partial` file is removed and nothing with
 *   the final name is written.
 */
export async function backupDatabase(options: BackupOptions): Promise<BackupSummary> {
  const started = performance.now();
  const { file } = options;
  if (existsSync(file)) throw new BackupFileError(`${file} exists already: a backup never replaces another file`);
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  const client = new pg.Client({ connectionString: options.databaseUrl });
  // A broken connection fails the query in flight (and so the backup); unheard, pg's 'error'
  // event would end the process instead.
  client.on('error', () => undefined);
  await client.connect();
  let failed = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const schemas = backedUpSchemas(MIGRATION_SETS);
    // The first query fixes the snapshot; the sequences are read after it (module docs).
    const { rows: [now] } = await client.query<{ at: Date; version: string }>('SELECT now() AS at, current_setting(\'server_version\') AS version');
    const migrations = await readMigrations(client, schemas);
    const { tables, leftOut } = await planTables(client, schemas);
    const sequences = await readSequences(client, schemas);
    const headPosition = await postgresLogHead(client);
    const positions = sequences.find((s) => s.name === 'es.global_position');
    if (positions && BigInt(positions.lastValue) < BigInt(headPosition)) {
      throw new Error(`es.global_position (${positions.lastValue}) is behind the log's head (${headPosition}): the database needs a look by hand`);
    }
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      createdAt: now!.at.toISOString(),
      headPosition,
      migrations,
      tables: tables.map(({ name, columns, rows }) => ({ name, columns, rows })),
      sequences,
      leftOut,
      emailIndexSecretCheck: options.emailIndexSecret ? secretCheck(options.emailIndexSecret) : null,
      postgres: now!.version,
    };
    parseHeader(JSON.stringify(header)); // what the restore will check, checked before writing
    const total = tables.reduce((sum, t) => sum + t.rows, 0);
    let done = 0;
    let sha256 = '';
    const hash = createHash('sha256');
    async function* content(): AsyncGenerator<Buffer> {
      const hashed = (bytes: Buffer) => { hash.update(bytes); return bytes; };
      yield hashed(jsonLine(header));
      for (const table of tables) {
        yield hashed(jsonLine({ table: table.name }));
        const columns = table.columns.map(quoteIdentifier).join(', ');
        const order = table.primaryKey.length > 0 ? ` ORDER BY ${table.primaryKey.map(quoteIdentifier).join(', ')}` : '';
        const copy = client.query(copyTo(`COPY (SELECT ${columns} FROM ${quoteQualified(table.name)}${order}) TO STDOUT`));
        let rows = 0;
        for await (const chunk of copy as AsyncIterable<Buffer>) {
          const lines = countLines(chunk);
          rows += lines;
          done += lines;
          yield hashed(chunk);
          options.onProgress?.({ table: table.name, done, total });
        }
        if (rows !== table.rows) throw new Error(`${table.name}: ${rows} rows copied, ${table.rows} counted in the same snapshot`);
        yield hashed(SECTION_END);
      }
      sha256 = hash.digest('hex');
      yield jsonLine({ end: BACKUP_FORMAT, sha256, rows: Object.fromEntries(tables.map((t) => [t.name, t.rows])) });
    }
    await pipeline(Readable.from(content()), createGzip(), createWriteStream(partial, { mode: 0o600 }));
    await syncFile(partial);
    await rename(partial, file);
    await syncFolder(dirname(file));
    await client.query('COMMIT');
    const { size } = await stat(file);
    return { file, bytes: size, sha256, header, milliseconds: performance.now() - started };
  } catch (error) {
    failed = true;
    await rm(partial, { force: true });
    throw error;
  } finally {
    // After a failure the connection may be mid-COPY: ending it aborts the transaction, which
    // only read, without waiting for a ROLLBACK.
    await client.end().catch((error: unknown) => { if (!failed) throw error; });
  }
}

/** Per schema, the names of its applied migrations. @throws Error when a schema has none (not migrated). */
async function readMigrations(client: pg.Client, schemas: readonly string[]): Promise<Record<string, string[]>> {
  const migrations: Record<string, string[]> = {};
  for (const schema of schemas) {
    const table = `${schema}.kysely_migration`;
    const { rows: [found] } = await client.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [table]);
    if (!found?.exists) throw new Error(`schema ${schema} has no migration records (${table}): this database was never migrated, there is nothing to back up`);
    const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${quoteQualified(table)} ORDER BY name`);
    migrations[schema] = rows.map((row) => row.name);
  }
  return migrations;
}

/**
 * The tables of `schemas` to back up (every one not left out: leftOutReason), with columns,
 * primary key, references and row count, in an order that loads referenced tables first; and the
 * tables left out with why.
 */
async function planTables(client: pg.Client, schemas: readonly string[]): Promise<{ tables: PlannedTable[]; leftOut: BackupHeader['leftOut'] }> {
  const { rows: found } = await client.query<{ oid: number; name: string }>(
    `SELECT c.oid, n.nspname || '.' || c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1::text[]) AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY 2`,
    [schemas],
  );
  const leftOut = found.flatMap(({ name }) => { const why = leftOutReason(name); return why ? [{ name, why }] : []; });
  const kept = found.filter(({ name }) => leftOutReason(name) === null);
  const oids = kept.map((t) => t.oid);
  const { rows: columns } = await client.query<{ oid: number; name: string }>(
    `SELECT attrelid AS oid, attname AS name FROM pg_attribute
      WHERE attrelid = ANY($1::oid[]) AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
      ORDER BY attrelid, attnum`,
    [oids],
  );
  const { rows: keys } = await client.query<{ oid: number; name: string }>(
    `SELECT i.indrelid AS oid, a.attname AS name
       FROM pg_index i
       CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
      WHERE i.indisprimary AND i.indrelid = ANY($1::oid[])
      ORDER BY i.indrelid, k.ord`,
    [oids],
  );
  const { rows: references } = await client.query<{ oid: number; target: string }>(
    `SELECT k.conrelid AS oid, n.nspname || '.' || t.relname AS target
       FROM pg_constraint k JOIN pg_class t ON t.oid = k.confrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE k.contype = 'f' AND k.conrelid = ANY($1::oid[])`,
    [oids],
  );
  const planned: PlannedTable[] = [];
  for (const { oid, name } of kept) {
    const { rows: [count] } = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${quoteQualified(name)}`);
    planned.push({
      name,
      columns: columns.filter((c) => c.oid === oid).map((c) => c.name),
      primaryKey: keys.filter((k) => k.oid === oid).map((k) => k.name),
      references: references.filter((r) => r.oid === oid).map((r) => r.target),
      rows: Number(count!.n),
    });
  }
  return { tables: orderTables(planned), leftOut };
}

/** Every sequence of `schemas` with its last value and whether it was used (for setval). */
async function readSequences(client: pg.Client, schemas: readonly string[]): Promise<BackupSequence[]> {
  const { rows: names } = await client.query<{ name: string }>(
    `SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1::text[]) AND c.relkind = 'S' ORDER BY 1`,
    [schemas],
  );
  const sequences: BackupSequence[] = [];
  for (const { name } of names) {
    const { rows: [state] } = await client.query<{ last: string; called: boolean }>(
      `SELECT last_value::text AS last, is_called AS called FROM ${quoteQualified(name)}`,
    );
    sequences.push({ name, lastValue: state!.last, isCalled: state!.called });
  }
  return sequences;
}

/** Flushes a written file's data to disk (fsync reaches every write to the file, whichever descriptor made it). */
async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a folder's entries (the rename) to disk, where the file system allows it. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => null);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a folder; the rename is then as durable as they make it.
  } finally {
    await handle.close();
  }
}
