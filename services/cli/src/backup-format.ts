/**
 * The backup file of `npm run backup` / `npm run restore`: its format, and the
 * pure pieces both commands share — the streaming reader that checks it, the choice and order of
 * tables, the migrations a restore builds first, the default file name and the command lines.
 * I/O lives in backup.ts (writing) and restore.ts (loading).
 *
 * The file is one gzip stream (RFC 1952; `zcat file | less` shows it) of:
 *
 * ```
 * {"format":"sinilill-backup","version":1,"createdAt":…,"headPosition":…,"migrations":{…},
 *  "tables":[{"name":"es.streams","columns":[…],"rows":…},…],"sequences":[…],…}  ← header, one line
 * {"table":"es.streams"}                                                           ← a section
 * <the table's rows in PostgreSQL's COPY text format, one line per row>
 * \.                                                                               ← end of section
 * … one section per table of the header, in its order …
 * {"end":"sinilill-backup","sha256":"…","rows":{"es.streams":…,…}}                 ← trailer
 * ```
 *
 * `\.` alone on a line cannot be a row of COPY's text format (a backslash in a value is written
 * `\\`), so it ends a section unambiguously — PostgreSQL's own end-of-data marker. The trailer's
 * sha256 covers every byte before the trailer line (header included), so a truncated or altered
 * file is refused whatever gzip's own CRC says; a missing trailer is a truncated file. Row counts
 * are checked three times: the header's (counted in the backup's snapshot), the lines of each
 * section, and the trailer's.
 */
import { createHash, type Hash } from 'node:crypto';
import { join } from 'node:path';
import type { MigrationSet } from '@sinilill/event-store';

/** The first line's `format`: what makes a file a Sinilill backup. */
export const BACKUP_FORMAT = 'sinilill-backup';
/** The format version this code writes and reads. A newer file is refused (UnsupportedBackupError). */
export const BACKUP_FORMAT_VERSION = 1;

/** One table of the backup, as the header lists it. */
export interface BackupTable {
  /** `schema.table`, plain lower-case identifiers (checked on reading: they go into SQL). */
  name: string;
  /** The columns in the order of the section's rows (generated columns are left out). */
  columns: string[];
  /** Rows in the backup's snapshot. */
  rows: number;
}

/** A sequence's state, restored with setval(name, lastValue, isCalled). */
export interface BackupSequence {
  /** `schema.sequence`. */
  name: string;
  /** A bigint, as a decimal string (sequences go past 2^53 in principle). */
  lastValue: string;
  isCalled: boolean;
}

/** The first line of a backup. */
export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_FORMAT_VERSION;
  /** When the snapshot was taken, ISO 8601 UTC. */
  createdAt: string;
  /** The event log's last global position in the snapshot (0: an empty log). */
  headPosition: number;
  /** Per backed-up schema, the names of its applied migrations (its kysely_migration table), sorted. */
  migrations: Record<string, string[]>;
  /** The tables, in the order of their sections (a table before those that reference it). */
  tables: BackupTable[];
  /** Every sequence of the backed-up schemas (read after the snapshot began: never behind it). */
  sequences: BackupSequence[];
  /** Tables of those schemas deliberately left out, with why (for the operator). */
  leftOut: { name: string; why: string }[];
  /**
   * secretCheck(EMAIL_INDEX_SECRET) of the deployment that made the backup, or null when the
   * backup was made without knowing it: app.email_index holds HMACs under that secret, so a
   * restore under another one would lock every account out of login.
   */
  emailIndexSecretCheck: string | null;
  /** PostgreSQL's server_version where the backup was made (information only). */
  postgres: string;
}

/** The last line of a backup. */
export interface BackupTrailer {
  end: typeof BACKUP_FORMAT;
  /** SHA-256 (hex) of every byte of the content before this line. */
  sha256: string;
  /** Rows written per table (equal to the header's). */
  rows: Record<string, number>;
}

/** The file is not a Sinilill backup, or is truncated or altered (checksum, counts, structure). */
export class CorruptBackupError extends Error {
  override readonly name = 'CorruptBackupError';
}

/** The file is a Sinilill backup of a format version (or schema migrations) this code does not know. */
export class UnsupportedBackupError extends Error {
  override readonly name = 'UnsupportedBackupError';
}

/** `\.` and a newline: the end of a section. */
export const SECTION_END = Buffer.from('\\.\n');
const NEWLINE_SECTION_END = Buffer.from('\n\\.\n');
const NEWLINE = 0x0a;
/** Longest header, section or trailer line accepted (a header lists every table's columns). */
const MAX_LINE_BYTES = 4 * 1024 * 1024;
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const QUALIFIED = /^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/;

/** A JSON line (header, section or trailer) as the file holds it. */
export function jsonLine(value: BackupHeader | BackupTrailer | { table: string }): Buffer {
  return Buffer.from(`${JSON.stringify(value)}\n`, 'utf8');
}

/** Newlines in `chunk`: COPY's text format writes one per row. */
export function countLines(chunk: Buffer): number {
  let count = 0;
  for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) count++;
  return count;
}

/** `"name"`: a PostgreSQL identifier, quoted. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `"schema"."table"` from `schema.table`. */
export function quoteQualified(name: string): string {
  const dot = name.indexOf('.');
  return `${quoteIdentifier(name.slice(0, dot))}.${quoteIdentifier(name.slice(dot + 1))}`;
}

/**
 * A short, one-way check value of EMAIL_INDEX_SECRET (16 hex digits of a SHA-256 under a fixed
 * label): equal secrets give equal values, and the value says nothing usable about the secret.
 */
export function secretCheck(secret: string): string {
  return createHash('sha256').update(`sinilill-backup:EMAIL_INDEX_SECRET:${secret}`).digest('hex').slice(0, 16);
}

/**
 * The default backup file: `<dataDir>/backups/sinilill-<UTC stamp>.dump`, e.g.
 * `.data/backups/sinilill-20260415T120000Z.dump` (names sort by time).
 */
export function defaultBackupFile(dataDir: string, at: Date): string {
  const stamp = at.toISOString().replace(/\.\d{3}Z$/, 'Z').replaceAll('-', '').replaceAll(':', '');
  return join(dataDir, 'backups', `sinilill-${stamp}.dump`);
}

// ---- which tables ----------------------------------------------------------------------------

/**
 * Tables of the backed-up schemas that a backup leaves out, with the reason. Every other table
 * of those schemas is backed up, so a table a later migration adds comes along by itself.
 */
export const LEFT_OUT_TABLES: Readonly<Record<string, string>> = {
  kysely_migration: 'migration records: the restore runs the migrations itself',
  kysely_migration_lock: 'migration records: the restore runs the migrations itself',
  'es.schema_migrations': 'the earlier hand-rolled runner (history only)',
  'app.account_migrations': 'the earlier hand-rolled runner (history only)',
  'media.schema_migrations': 'the earlier hand-rolled runner (history only)',
  'app.session_families': 'logins: a restored site asks everyone to log in again',
  'app.refresh_tokens': 'logins: a restored site asks everyone to log in again',
};

/** Why `schema.table` is left out of a backup, or null when it is backed up. */
export function leftOutReason(name: string): string | null {
  const table = name.slice(name.indexOf('.') + 1);
  return LEFT_OUT_TABLES[name] ?? LEFT_OUT_TABLES[table] ?? null;
}

/**
 * The schemas a backup holds: every migrated schema except the read models (`rm…`: rebuilt by
 * the restore's replay). Today es, app and media.
 */
export function backedUpSchemas(sets: readonly MigrationSet[]): string[] {
  return sets.map((set) => set.schema).filter((schema) => !schema.startsWith('rm'));
}

/**
 * Orders tables so that every table comes after the tables it references (foreign keys), by
 * name otherwise: COPY into a referencing table then finds its targets loaded.
 * @param tables each with the names of the tables (of this list) it references.
 * @throws Error on a reference cycle (no such schema here; it would need deferred constraints).
 */
export function orderTables<T extends { name: string; references: readonly string[] }>(tables: readonly T[]): T[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const ordered: T[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: T, path: string[]) => {
    const seen = state.get(table.name);
    if (seen === 'done') return;
    if (seen === 'visiting') throw new Error(`tables reference each other in a cycle: ${[...path, table.name].join(' → ')}`);
    state.set(table.name, 'visiting');
    for (const name of [...table.references].sort()) {
      const target = byName.get(name);
      if (target && target !== table) visit(target, [...path, table.name]);
    }
    state.set(table.name, 'done');
    ordered.push(table);
  };
  for (const table of [...tables].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) visit(table, []);
  return ordered;
}

// ---- which migrations a restore builds first -------------------------------------------------

/**
 * The migration sets a restore runs before loading: each backed-up schema's set cut down to the
 * migrations the backup's database had, so the rows go into the tables they came from; the
 * migrations after those run over the loaded rows afterwards, as they would have on the live
 * database. A set whose schema the backup does not list is left out here (it is made complete
 * afterwards). A set whose schema `alreadyApplied` shows past the backup (a target migrated by a
 * newer version before the restore) is left out too and named in `ahead`.
 * @param recorded the header's `migrations`.
 * @param alreadyApplied per schema, the migrations the target database has applied (absent: none).
 * @throws UnsupportedBackupError when the backup names a migration this code does not have, or
 *   its migrations are not the first ones of the set (made by another line of development).
 */
export function migrationSetsAsOf(
  sets: readonly MigrationSet[],
  recorded: Readonly<Record<string, readonly string[]>>,
  alreadyApplied: Readonly<Record<string, readonly string[]>> = {},
): { sets: MigrationSet[]; ahead: string[] } {
  const result: MigrationSet[] = [];
  const ahead: string[] = [];
  for (const set of sets) {
    const wanted = recorded[set.schema];
    if (!wanted) continue;
    const known = Object.keys(set.migrations).sort();
    const unknown = wanted.filter((name) => !(name in set.migrations));
    if (unknown.length > 0) {
      throw new UnsupportedBackupError(`the backup's schema ${set.schema} has migrations this version does not know ` +
        `(${unknown.join(', ')}): it was made by a newer Sinilill; restore it with that version or a later one`);
    }
    const sorted = [...wanted].sort();
    if (sorted.some((name, i) => known[i] !== name)) {
      throw new UnsupportedBackupError(`the backup's schema ${set.schema} has migrations ${sorted.join(', ')}, which are ` +
        `not the first ones of this version's ${known.join(', ')}`);
    }
    const applied = alreadyApplied[set.schema] ?? [];
    if (applied.some((name) => !wanted.includes(name))) {
      ahead.push(set.schema);
      continue;
    }
    result.push({ ...set, migrations: Object.fromEntries(sorted.map((name) => [name, set.migrations[name]!])) });
  }
  return { sets: result, ahead };
}

// ---- reading ---------------------------------------------------------------------------------

/** What the reader found, in file order. */
export type BackupPart =
  | { kind: 'header'; header: BackupHeader }
  /** A section begins: the rows that follow are this table's. */
  | { kind: 'table'; table: BackupTable }
  /** Rows of the current table in COPY text format (whole or partial lines; a view of the input). */
  | { kind: 'rows'; table: BackupTable; data: Buffer }
  /** The section ended with the header's row count. */
  | { kind: 'table-end'; table: BackupTable; rows: number }
  /** The trailer, after its checksum and row counts were verified: the file is complete. */
  | { kind: 'end'; trailer: BackupTrailer; sha256: string };

/**
 * Checks a parsed first line and returns it as a header.
 * @throws CorruptBackupError when it is not a Sinilill backup header (or is malformed);
 *   UnsupportedBackupError when its format version is not BACKUP_FORMAT_VERSION.
 */
export function parseHeader(line: string): BackupHeader {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new CorruptBackupError('not a Sinilill backup: the first line is not a JSON header');
  }
  const header = value as Partial<BackupHeader> | null;
  if (typeof header !== 'object' || header === null || header.format !== BACKUP_FORMAT) {
    throw new CorruptBackupError(`not a Sinilill backup: the first line has no "format": "${BACKUP_FORMAT}"`);
  }
  if (header.version !== BACKUP_FORMAT_VERSION) {
    throw new UnsupportedBackupError(`backup format version ${JSON.stringify(header.version)} is not known to this version ` +
      `of Sinilill (it reads version ${BACKUP_FORMAT_VERSION}): restore it with the version that made it, or a later one`);
  }
  const bad = (what: string) => new CorruptBackupError(`malformed backup header: ${what}`);
  if (typeof header.createdAt !== 'string' || Number.isNaN(Date.parse(header.createdAt))) throw bad('createdAt');
  if (!Number.isSafeInteger(header.headPosition) || header.headPosition! < 0) throw bad('headPosition');
  if (typeof header.migrations !== 'object' || header.migrations === null) throw bad('migrations');
  for (const [schema, names] of Object.entries(header.migrations)) {
    if (!IDENTIFIER.test(schema) || !Array.isArray(names) || names.some((n) => typeof n !== 'string')) throw bad(`migrations of ${schema}`);
  }
  if (!Array.isArray(header.tables)) throw bad('tables');
  const names = new Set<string>();
  for (const table of header.tables) {
    if (typeof table?.name !== 'string' || !QUALIFIED.test(table.name) || names.has(table.name)) throw bad(`table ${JSON.stringify(table?.name)}`);
    names.add(table.name);
    if (!Array.isArray(table.columns) || table.columns.length === 0 || table.columns.some((c) => typeof c !== 'string' || !IDENTIFIER.test(c))) {
      throw bad(`columns of ${table.name}`);
    }
    if (!Number.isSafeInteger(table.rows) || table.rows < 0) throw bad(`rows of ${table.name}`);
  }
  if (!Array.isArray(header.sequences)) throw bad('sequences');
  for (const sequence of header.sequences) {
    if (typeof sequence?.name !== 'string' || !QUALIFIED.test(sequence.name) || typeof sequence.lastValue !== 'string' ||
      !/^-?\d{1,19}$/.test(sequence.lastValue) || typeof sequence.isCalled !== 'boolean') {
      throw bad(`sequence ${JSON.stringify(sequence?.name)}`);
    }
  }
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_FORMAT_VERSION,
    createdAt: header.createdAt,
    headPosition: header.headPosition!,
    migrations: header.migrations,
    tables: header.tables,
    sequences: header.sequences,
    leftOut: Array.isArray(header.leftOut) ? header.leftOut : [],
    emailIndexSecretCheck: typeof header.emailIndexSecretCheck === 'string' ? header.emailIndexSecretCheck : null,
    postgres: typeof header.postgres === 'string' ? header.postgres : 'unknown',
  };
}

/**
 * Reads a backup's content (already decompressed) chunk by chunk, in constant memory: it hands
 * back the header, each table's rows as views of the input and the verified trailer, checking
 * structure, row counts and the SHA-256 as it goes. Push every chunk, then call `end()`.
 *
 * Errors (all thrown by push or end, after which the reader is unusable):
 * CorruptBackupError for anything not a complete, unaltered backup (a wrong first line, a
 * section out of order, a count that differs, a checksum that differs, bytes after the trailer,
 * a file that ends early); UnsupportedBackupError for an unknown format version.
 */
export class BackupReader {
  private state: 'header' | 'line' | 'rows' | 'done' = 'header';
  private header: BackupHeader | null = null;
  private next = 0;
  private line: Buffer[] = [];
  private lineBytes = 0;
  private pending: Buffer = Buffer.alloc(0);
  private lineStart = true;
  private rows = 0;
  private readonly written: Record<string, number> = {};
  private readonly hash: Hash = createHash('sha256');

  /** Takes the next chunk of the content. @returns what it completed, in order. */
  push(chunk: Buffer): BackupPart[] {
    const parts: BackupPart[] = [];
    let rest = chunk;
    while (rest.length > 0) {
      if (this.state === 'done') throw new CorruptBackupError('unexpected bytes after the backup\'s trailer');
      rest = this.state === 'rows' ? this.scanRows(rest, parts) : this.scanLine(rest, parts);
    }
    return parts;
  }

  /** The content ended. @throws CorruptBackupError unless the trailer was read (a truncated file). */
  end(): void {
    if (this.state === 'done') return;
    const where = this.header === null ? 'before its header'
      : this.state === 'rows' ? `inside the rows of ${this.header.tables[this.next]!.name}`
        : this.next < this.header.tables.length ? `before the rows of ${this.header.tables[this.next]!.name}` : 'before its trailer';
    throw new CorruptBackupError(`the backup ends ${where}: the file is truncated`);
  }

  /** Accumulates one JSON line; hands it to onLine when its newline comes. */
  private scanLine(chunk: Buffer, parts: BackupPart[]): Buffer {
    const newline = chunk.indexOf(NEWLINE);
    const piece = newline === -1 ? chunk : chunk.subarray(0, newline + 1);
    this.lineBytes += piece.length;
    if (this.lineBytes > MAX_LINE_BYTES) {
      throw new CorruptBackupError(this.state === 'header' ? 'not a Sinilill backup: no header line' : 'malformed backup: a line too long where a section or the trailer should begin');
    }
    this.line.push(piece);
    if (newline === -1) return Buffer.alloc(0);
    const bytes = Buffer.concat(this.line);
    this.line = [];
    this.lineBytes = 0;
    this.onLine(bytes, parts);
    return chunk.subarray(newline + 1);
  }

  private onLine(bytes: Buffer, parts: BackupPart[]): void {
    const text = bytes.subarray(0, bytes.length - 1).toString('utf8');
    if (this.state === 'header') {
      this.hash.update(bytes);
      this.header = parseHeader(text);
      this.state = 'line';
      parts.push({ kind: 'header', header: this.header });
      return;
    }
    const header = this.header!;
    let value: { table?: unknown; end?: unknown } | null;
    try {
      value = JSON.parse(text) as typeof value;
    } catch {
      throw new CorruptBackupError(`malformed backup: expected a section or the trailer, found ${JSON.stringify(text.slice(0, 60))}`);
    }
    const expected = header.tables[this.next];
    if (value !== null && typeof value === 'object' && 'table' in value) {
      if (!expected || value.table !== expected.name) {
        throw new CorruptBackupError(`malformed backup: section ${JSON.stringify(value.table)} where ${expected ? expected.name : 'the trailer'} was expected`);
      }
      this.hash.update(bytes);
      this.state = 'rows';
      this.rows = 0;
      this.lineStart = true;
      parts.push({ kind: 'table', table: expected });
      return;
    }
    if (value !== null && typeof value === 'object' && value.end === BACKUP_FORMAT) {
      if (expected) throw new CorruptBackupError(`malformed backup: the trailer comes before the rows of ${expected.name}`);
      const trailer = value as BackupTrailer;
      const sha256 = this.hash.digest('hex');
      if (trailer.sha256 !== sha256) {
        throw new CorruptBackupError(`the backup's checksum differs (sha256 ${sha256}, the file says ${String(trailer.sha256)}): the file is corrupted`);
      }
      for (const table of header.tables) {
        if (trailer.rows?.[table.name] !== table.rows) {
          throw new CorruptBackupError(`the backup's trailer counts ${String(trailer.rows?.[table.name])} rows of ${table.name}, its header ${table.rows}`);
        }
      }
      this.state = 'done';
      parts.push({ kind: 'end', trailer, sha256 });
      return;
    }
    throw new CorruptBackupError(`malformed backup: expected a section or the trailer, found ${JSON.stringify(text.slice(0, 60))}`);
  }

  /** Passes rows on until `\.` at the start of a line; keeps back a tail that may begin one. */
  private scanRows(chunk: Buffer, parts: BackupPart[]): Buffer {
    const table = this.header!.tables[this.next]!;
    const buffer = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    let end = -1;
    if (this.lineStart && buffer.length >= SECTION_END.length && buffer.subarray(0, SECTION_END.length).equals(SECTION_END)) end = 0;
    else {
      const at = buffer.indexOf(NEWLINE_SECTION_END);
      if (at !== -1) end = at + 1;
    }
    if (end !== -1) {
      this.emitRows(table, buffer.subarray(0, end), parts);
      this.hash.update(SECTION_END);
      if (this.rows !== table.rows) {
        throw new CorruptBackupError(`the backup holds ${this.rows} rows of ${table.name}, its header says ${table.rows}`);
      }
      this.written[table.name] = this.rows;
      parts.push({ kind: 'table-end', table, rows: this.rows });
      this.next++;
      this.state = 'line';
      return buffer.subarray(end + SECTION_END.length);
    }
    let keep = 0;
    if (this.lineStart && buffer.length < SECTION_END.length && SECTION_END.subarray(0, buffer.length).equals(buffer)) keep = buffer.length;
    else {
      for (let k = NEWLINE_SECTION_END.length - 1; k >= 1; k--) {
        if (buffer.length >= k && buffer.subarray(buffer.length - k).equals(NEWLINE_SECTION_END.subarray(0, k))) { keep = k; break; }
      }
    }
    this.emitRows(table, buffer.subarray(0, buffer.length - keep), parts);
    this.pending = Buffer.from(buffer.subarray(buffer.length - keep));
    return Buffer.alloc(0);
  }

  private emitRows(table: BackupTable, data: Buffer, parts: BackupPart[]): void {
    if (data.length === 0) return;
    this.hash.update(data);
    this.rows += countLines(data);
    if (this.rows > table.rows) {
      throw new CorruptBackupError(`the backup holds more rows of ${table.name} than its header's ${table.rows}`);
    }
    this.lineStart = data[data.length - 1] === NEWLINE;
    parts.push({ kind: 'rows', table, data });
  }
}

// ---- the command lines -----------------------------------------------------------------------

/** `backup [file]`: the file, or null for defaultBackupFile. @throws Error on other arguments. */
export function parseBackupArgs(args: readonly string[]): { file: string | null } {
  const flags = args.filter((a) => a.startsWith('-'));
  if (flags.length > 0 || args.length > 1) throw new Error(`usage: npm run backup [-- <file>] (unexpected: ${args.join(' ')})`);
  return { file: args[0] ?? null };
}

/**
 * `restore <file> [--allow-other-email-index-secret]`.
 * @throws Error without a file, or with other arguments.
 */
export function parseRestoreArgs(args: readonly string[]): { file: string; allowOtherEmailIndexSecret: boolean } {
  const allow = '--allow-other-email-index-secret';
  const files = args.filter((a) => !a.startsWith('-'));
  const unknown = args.filter((a) => a.startsWith('-') && a !== allow);
  if (files.length !== 1 || unknown.length > 0) {
    throw new Error(`usage: npm run restore -- <file> [${allow}]${unknown.length > 0 ? ` (unknown: ${unknown.join(' ')})` : ''}`);
  }
  return { file: files[0]!, allowOtherEmailIndexSecret: args.includes(allow) };
}
