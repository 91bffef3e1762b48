/**
 * `npm run restore -- <file>`: loads a backup (backup.ts, format in
 * backup-format.ts) into an empty database, then rebuilds the read models by replay.
 *
 * 1. The file must exist and begin with a Sinilill header of a known format version; the header's
 *    EMAIL_INDEX_SECRET check value must match the deployment's (else nobody could log in:
 *    app.email_index holds HMACs under it) unless told otherwise.
 * 2. The database must be empty: no row in any table the backup holds (the log's included). A
 *    restore never overwrites data.
 * 3. The backed-up schemas are migrated up to the migrations the backup's database had (the same
 *    migrations the app runs, cut at the backup's: migrationSetsAsOf), so the rows go into the
 *    tables they came from.
 * 4. One transaction: every table locked (ACCESS EXCLUSIVE) and found empty again, each loaded
 *    with COPY FROM as the file streams by (constant memory), the sequences set to the backed-up
 *    values, the checksum, the row counts and the log's head verified, and the keys of people
 *    whose deletion the log records destroyed (see below) — then COMMIT. A bad file rolls all
 *    of it back: the database is as empty as before.
 * 5. Every schema migrated to the latest (later migrations run over the loaded rows, as they would
 *    have on the live database), the loaded tables analysed, and the read models rebuilt with
 *    replay.ts's `replay`, the code path of `npm run replay` (it records ReadModelsReplayed).
 *
 * Deleted people: a deletion appends its events and then destroys the person's key (deletion.ts),
 * so a backup taken between the two — or of a database where the second step never ran — holds
 * a key the log says is gone. Step 4 destroys such keys (subjects `participant-{id}` of
 * ParticipantDeleted, `user-{id}` of UserDeleted) so the restored site agrees with its own log.
 * Erasures made after the backup was taken are not in it at all: docs/backup.md says what the
 * operator does about those.
 */
import { once } from 'node:events';
import { existsSync, statSync, createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type pg from 'pg';
import { from as copyFrom, type CopyStreamQuery } from 'pg-copy-streams';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import {
  createResilientPool,
  destroyKeysOfDeletedSubjects,
  PersonalDataVault,
  postgresLogPositions,
  PostgresEventStore,
  runMigrations,
  withPersonalDataProtection,
  type MigrationSetReport,
} from '@sinilill/event-store';
import { createReadModelDb } from '@sinilill/read-models';
import {
  BackupReader,
  CorruptBackupError,
  countLines,
  migrationSetsAsOf,
  quoteIdentifier,
  quoteQualified,
  secretCheck,
  type BackupHeader,
} from './backup-format';
import { BackupFileError } from './backup';
import { MIGRATION_SETS, migrateToLatest } from './migrate';
import { replay } from './replay';

/** What to restore, and where. */
export interface RestoreOptions {
  /** The database to restore into: empty (no rows in the backed-up tables), migrated or not. */
  databaseUrl: string;
  /** The backup file. */
  file: string;
  /**
   * The deployment's EMAIL_INDEX_SECRET, compared with the backup's check value. Omitted: not
   * compared.
   */
  emailIndexSecret?: string;
  /** Restore even when the secret differs from the backup's (a test restore elsewhere). */
  allowOtherEmailIndexSecret?: boolean;
  /** Called as rows are loaded: the table, and all tables' rows done and in all. */
  onProgress?: (progress: { table: string; done: number; total: number }) => void;
  /** Lines for the operator (what is being done, warnings). */
  log?: (line: string) => void;
}

/** What a restore did. */
export interface RestoreSummary {
  header: BackupHeader;
  /** Rows loaded per table, in load order. */
  tables: { name: string; rows: number }[];
  /** Subjects whose deletion the log records but whose key the backup held: destroyed now. */
  keysDestroyed: string[];
  /** Subjects whose personal data is erased in the restored database (their key destroyed). */
  erasedSubjects: number;
  /** Schemas the target had already migrated past the backup before the restore (loaded as they are). */
  aheadSchemas: string[];
  /** The migrations run after loading (the ones newer than the backup). */
  migrations: MigrationSetReport[];
  /** The read models' rebuild (replay.ts). */
  replay: Awaited<ReturnType<typeof replay>>;
  milliseconds: number;
}

/** The target database already holds data: a restore never overwrites it. */
export class DatabaseNotEmptyError extends Error {
  override readonly name = 'DatabaseNotEmptyError';
}

/** The backup was made under another EMAIL_INDEX_SECRET than the deployment's. */
export class BackupSecretMismatchError extends Error {
  override readonly name = 'BackupSecretMismatchError';
}

/**
 * The decompressed content of `file` as a stream; zlib's errors (not gzip, cut short, altered)
 * come out as CorruptBackupError. Destroying it closes the file.
 */
function contentOf(file: string): Readable {
  const source = createReadStream(file);
  const gunzip = createGunzip();
  source.on('error', (error) => gunzip.destroy(error));
  gunzip.on('close', () => source.destroy());
  const unzipped = source.pipe(gunzip);
  return unzipped;
}

/** A zlib error as what it means for a backup; anything else unchanged. */
function asBackupError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('Z_')) {
    return new CorruptBackupError(`the backup cannot be decompressed (${(error as Error).message}): ` +
      'the file is truncated, corrupted or not a Sinilill backup', { cause: error });
  }
  return error;
}

/**
 * The header of the backup `file`, read from its beginning (the rest is not read or checked).
 * @throws BackupFileError when the file does not exist or is not a file; CorruptBackupError when
 *   it is not a Sinilill backup; UnsupportedBackupError when its format version is unknown.
 */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  if (!existsSync(file)) throw new BackupFileError(`no such backup file: ${file}`);
  if (!statSync(file).isFile()) throw new BackupFileError(`not a file: ${file}`);
  const reader = new BackupReader();
  const content = contentOf(file);
  try {
    for await (const chunk of content as AsyncIterable<Buffer>) {
      for (const part of reader.push(chunk)) if (part.kind === 'header') return part.header;
    }
    reader.end();
    throw new CorruptBackupError('the backup has no header');
  } catch (error) {
    throw asBackupError(error);
  } finally {
    content.destroy();
  }
}

/**
 * Restores the backup `file` into the database at `databaseUrl` and rebuilds its read models
 * (see the module docs for the steps).
 * @returns what was loaded, repaired, migrated and replayed.
 * @throws BackupFileError (no such file), CorruptBackupError (not a backup, truncated, checksum or
 *   counts differ), UnsupportedBackupError (unknown format version, or migrations of a newer
 *   version), BackupSecretMismatchError, DatabaseNotEmptyError — all before anything is changed,
 *   or with the load rolled back (a file found bad while loading leaves at most the empty
 *   migrated schemas of step 3). MigrationError, pg errors as they come.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const header = await readBackupHeader(options.file);
  if (options.emailIndexSecret !== undefined) {
    if (header.emailIndexSecretCheck === null) {
      log('warning: the backup does not record which EMAIL_INDEX_SECRET it was made under; logins work only under that one');
    } else if (header.emailIndexSecretCheck !== secretCheck(options.emailIndexSecret) && !options.allowOtherEmailIndexSecret) {
      throw new BackupSecretMismatchError('the backup was made under another EMAIL_INDEX_SECRET than this deployment\'s: ' +
        'restored, nobody could log in (the e-mail index is keyed by it). Set the EMAIL_INDEX_SECRET the backup was made ' +
        'with, or pass --allow-other-email-index-secret for a restore where logins do not matter');
    }
  }
  // Guarded (createResilientPool): a connection that breaks — or is told to terminate when the
  // embedded server stops right after — fails its queries instead of ending the process.
  const pool = createResilientPool({ connectionString: options.databaseUrl, max: 12 });
  const db = createReadModelDb(pool);
  try {
    const tableNames = header.tables.map((t) => t.name);
    const holding = await tablesWithRows(pool, tableNames);
    if (holding.length > 0) throw notEmpty(holding);
    const { sets, ahead } = migrationSetsAsOf(MIGRATION_SETS, header.migrations, await appliedMigrations(pool));
    if (ahead.length > 0) log(`note: schema ${ahead.join(', ')} is already migrated past the backup; its rows are loaded into the newer tables`);
    log(`migrating to the backup's schema (${Object.entries(header.migrations).map(([s, names]) => `${s} ${names.at(-1) ?? 'none'}`).join(', ')})`);
    await runMigrations(pool, sets);
    const { tables, keysDestroyed, erasedSubjects } = await load(pool, header, options);
    const migrations = await migrateToLatest(pool);
    await pool.query(`ANALYZE ${tableNames.map(quoteQualified).join(', ')}`);
    log('rebuilding the read models (replay)');
    const store = withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
    const replayed = await replay(db, store);
    return {
      header, tables, keysDestroyed, erasedSubjects, aheadSchemas: ahead, migrations, replay: replayed,
      milliseconds: performance.now() - started,
    };
  } finally {
    await db.destroy();
    if (!pool.ending) await pool.end();
  }
}

function notEmpty(tables: readonly string[]): DatabaseNotEmptyError {
  return new DatabaseNotEmptyError(`the database is not empty (rows in ${tables.join(', ')}): a restore never overwrites data. ` +
    'Restore into a new, empty database (or drop and recreate this one after making sure it holds nothing you need)');
}

/** The tables of `names` that exist and hold at least one row. */
async function tablesWithRows(db: pg.Pool | pg.Client, names: readonly string[]): Promise<string[]> {
  const holding: string[] = [];
  for (const name of names) {
    const { rows: [found] } = await db.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [name]);
    if (!found?.exists) continue;
    const { rows: [any] } = await db.query<{ some: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${quoteQualified(name)}) AS some`);
    if (any?.some) holding.push(name);
  }
  return holding;
}

/** Per migrated schema, the migrations the database has applied (absent: none). */
async function appliedMigrations(pool: pg.Pool): Promise<Record<string, string[]>> {
  const applied: Record<string, string[]> = {};
  for (const set of MIGRATION_SETS) {
    const table = `${set.schema}.kysely_migration`;
    const { rows: [found] } = await pool.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [table]);
    if (!found?.exists) continue;
    const { rows } = await pool.query<{ name: string }>(`SELECT name FROM ${quoteQualified(table)}`);
    applied[set.schema] = rows.map((row) => row.name);
  }
  return applied;
}

/** Step 4 of the module docs, on one connection, in one transaction. */
async function load(pool: pg.Pool, header: BackupHeader, options: RestoreOptions) {
  const client = await pool.connect();
  let copy: CopyStreamQuery | null = null;
  let copyError: Error | null = null;
  let broken = false;
  try {
    await client.query('BEGIN');
    await client.query(`LOCK TABLE ${header.tables.map((t) => quoteQualified(t.name)).join(', ')} IN ACCESS EXCLUSIVE MODE`);
    const holding = await tablesWithRows(client, header.tables.map((t) => t.name));
    if (holding.length > 0) throw notEmpty(holding);
    const total = header.tables.reduce((sum, t) => sum + t.rows, 0);
    let done = 0;
    const loaded: { name: string; rows: number }[] = [];
    const reader = new BackupReader();
    const content = contentOf(options.file);
    try {
      for await (const chunk of content as AsyncIterable<Buffer>) {
        for (const part of reader.push(chunk)) {
          if (part.kind === 'table') {
            const columns = part.table.columns.map(quoteIdentifier).join(', ');
            copy = client.query(copyFrom(`COPY ${quoteQualified(part.table.name)} (${columns}) FROM STDIN`));
            copyError = null;
            copy.on('error', (error: Error) => { copyError = error; });
          } else if (part.kind === 'rows') {
            const stream: CopyStreamQuery = copy!;
            if (copyError) throw copyError;
            if (!stream.write(part.data)) await once(stream, 'drain');
            done += countLines(part.data);
            options.onProgress?.({ table: part.table.name, done, total });
          } else if (part.kind === 'table-end') {
            const stream: CopyStreamQuery = copy!;
            stream.end();
            await finished(stream);
            copy = null;
            if (stream.rowCount !== part.rows) {
              throw new CorruptBackupError(`${part.table.name}: PostgreSQL loaded ${stream.rowCount} rows, the backup holds ${part.rows}`);
            }
            loaded.push({ name: part.table.name, rows: part.rows });
            options.onProgress?.({ table: part.table.name, done, total });
          }
        }
      }
      reader.end();
    } catch (error) {
      throw asBackupError(error);
    } finally {
      content.destroy();
    }
    for (const sequence of header.sequences) {
      await client.query('SELECT setval($1::regclass, $2::bigint, $3)', [quoteQualified(sequence.name), sequence.lastValue, sequence.isCalled]);
    }
    const log = await postgresLogPositions(client);
    if (Number(log.head) !== header.headPosition) {
      throw new CorruptBackupError(`the restored log ends at position ${log.head}, the backup's header says ${header.headPosition}`);
    }
    if (BigInt(log.next) <= BigInt(log.head)) {
      throw new CorruptBackupError(`es.global_position would hand out ${log.next} again (the log's head is ${log.head})`);
    }
    // The keys of people whose deletion the log records (module docs, "Deleted people").
    const destroyed = await destroyKeysOfDeletedSubjects(client);
    const { rows: [erased] } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM es.subject_keys WHERE key IS NULL');
    await client.query('COMMIT');
    return { tables: loaded, keysDestroyed: destroyed.sort(), erasedSubjects: erased!.n };
  } catch (error) {
    broken = true;
    const open = copy as CopyStreamQuery | null;
    if (open) open.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  } finally {
    // A failed load drops its connection: PostgreSQL rolls the transaction back, whatever state
    // an interrupted COPY left the protocol in.
    client.release(broken ? true : undefined);
  }
}
