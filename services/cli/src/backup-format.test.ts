import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { POSTGRES_LOG_TABLE as LOG, type MigrationSet } from '@sinilill/event-store';
import {
  BACKUP_FORMAT,
  BackupReader,
  CorruptBackupError,
  UnsupportedBackupError,
  backedUpSchemas,
  countLines,
  defaultBackupFile,
  jsonLine,
  leftOutReason,
  migrationSetsAsOf,
  orderTables,
  parseBackupArgs,
  parseHeader,
  parseRestoreArgs,
  quoteQualified,
  secretCheck,
  type BackupHeader,
  type BackupPart,
} from './backup-format';

/** Rows as COPY's text format writes them: a backslash is `\\`, NULL is `\N`, a newline `\n`. */
const EVENTS_ROWS = '1\tTeamRegistered\t{"name": "a\\\\.b"}\n2\t\\N\tline\\none\n3\t\\.x\t\\\\.\n';
const KEYS_ROWS = '';
const IMAGES_ROWS = '\\\\x00\n';

function header(overrides: Partial<BackupHeader> = {}): BackupHeader {
  return {
    format: BACKUP_FORMAT,
    version: 1,
    createdAt: '2026-04-15T12:00:00.000Z',
    headPosition: 3,
    migrations: { es: ['0001-event-log'] },
    tables: [
      { name: LOG, columns: ['global_position', 'type', 'data'], rows: 3 },
      { name: 'es.subject_keys', columns: ['subject', 'key'], rows: 0 },
      { name: 'media.images', columns: ['bytes'], rows: 1 },
    ],
    sequences: [{ name: 'es.global_position', lastValue: '3', isCalled: true }],
    leftOut: [],
    emailIndexSecretCheck: null,
    postgres: '17.5',
    ...overrides,
  };
}

/** A whole backup's content as backup.ts writes it (before gzip). */
function content(h: BackupHeader = header(), sections: string[] = [EVENTS_ROWS, KEYS_ROWS, IMAGES_ROWS]): Buffer {
  const body = Buffer.concat([
    jsonLine(h),
    ...h.tables.flatMap((t, i) => [jsonLine({ table: t.name }), Buffer.from(sections[i]!), Buffer.from('\\.\n')]),
  ]);
  const sha256 = createHash('sha256').update(body).digest('hex');
  return Buffer.concat([body, jsonLine({ end: BACKUP_FORMAT, sha256, rows: Object.fromEntries(h.tables.map((t) => [t.name, t.rows])) })]);
}

/** Reads `bytes` in chunks of the given sizes (cycled); returns the parts with rows joined per table. */
function read(bytes: Buffer, sizes: number[] = [bytes.length]) {
  const reader = new BackupReader();
  const parts: BackupPart[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length]!);
    parts.push(...reader.push(bytes.subarray(at, at + size)));
    at += size;
  }
  reader.end();
  const rows = new Map<string, string>();
  for (const part of parts) if (part.kind === 'rows') rows.set(part.table.name, (rows.get(part.table.name) ?? '') + part.data.toString());
  return { parts, rows };
}

describe('BackupReader', () => {
  test('given a whole backup, hands back the header, every table\'s rows exactly and the verified trailer', () => {
    const { parts, rows } = read(content());
    expect(parts.map((p) => p.kind).filter((k) => k !== 'rows')).toEqual(['header', 'table', 'table-end', 'table', 'table-end', 'table', 'table-end', 'end']);
    expect(rows.get(LOG)).toBe(EVENTS_ROWS);
    expect(rows.get('es.subject_keys')).toBeUndefined();
    expect(rows.get('media.images')).toBe(IMAGES_ROWS);
    expect(parts.filter((p) => p.kind === 'table-end').map((p) => p.kind === 'table-end' && p.rows)).toEqual([3, 0, 1]);
  });

  test('whatever the chunk boundaries, the rows are the same (every split of one byte up to 7)', () => {
    const bytes = content();
    const whole = read(bytes).rows;
    for (const sizes of [[1], [2], [3], [4], [5], [7], [1, 2, 3], [3, 1, 1, 4]]) {
      expect(read(bytes, sizes).rows).toEqual(whole);
    }
  });

  test('a file cut anywhere is refused as truncated, never read as complete', () => {
    const bytes = content();
    for (let length = 0; length < bytes.length; length += 7) {
      expect(() => read(bytes.subarray(0, length), [5])).toThrow(CorruptBackupError);
    }
    expect(() => read(bytes.subarray(0, bytes.length - 1))).toThrow(/truncated/);
  });

  test('one byte changed in a row is caught by the checksum', () => {
    const bytes = content();
    const at = bytes.indexOf('TeamRegistered');
    const altered = Buffer.from(bytes);
    altered[at] = 'X'.charCodeAt(0);
    expect(() => read(altered)).toThrow(/checksum differs/);
  });

  test('a row more or fewer than the header says is refused', () => {
    expect(() => read(content(header(), [EVENTS_ROWS + '4\tx\t{}\n', KEYS_ROWS, IMAGES_ROWS]))).toThrow(`more rows of ${LOG}`);
    expect(() => read(content(header(), ['1\tx\t{}\n', KEYS_ROWS, IMAGES_ROWS]))).toThrow(`holds 1 rows of ${LOG}, its header says 3`);
  });

  test('sections out of order, bytes after the trailer and a foreign file are refused', () => {
    const h = header();
    const swapped = Buffer.from(content(h).toString().replace('{"table":"es.subject_keys"}', '{"table":"media.images"}'));
    expect(() => read(swapped)).toThrow(/section "media.images" where es.subject_keys was expected/);
    expect(() => read(Buffer.concat([content(), Buffer.from('x')]))).toThrow(/after the backup's trailer/);
    expect(() => read(Buffer.from('PGDMP\u0001\u000e\n'))).toThrow(/not a Sinilill backup/);
    expect(() => read(Buffer.from('{"hello":1}\n'))).toThrow(/not a Sinilill backup/);
  });
});

describe('parseHeader', () => {
  test('an unknown format version is unsupported, not corrupt', () => {
    expect(() => parseHeader(JSON.stringify({ ...header(), version: 2 }))).toThrow(UnsupportedBackupError);
    expect(() => parseHeader(JSON.stringify({ ...header(), version: 2 }))).toThrow(/format version 2 is not known/);
  });

  test('names that would not be plain identifiers in SQL are refused', () => {
    const evil = header({ tables: [{ name: `${LOG}; DROP TABLE x`, columns: ['a'], rows: 0 }] });
    expect(() => parseHeader(JSON.stringify(evil))).toThrow(CorruptBackupError);
    const evilColumn = header({ tables: [{ name: LOG, columns: ['a"b'], rows: 0 }] });
    expect(() => parseHeader(JSON.stringify(evilColumn))).toThrow(`columns of ${LOG}`);
    expect(() => parseHeader(JSON.stringify(header({ sequences: [{ name: 'es.x', lastValue: '1 OR 1', isCalled: true }] })))).toThrow(/sequence/);
  });

  test('a valid header comes back as written', () => {
    expect(parseHeader(jsonLine(header()).toString().trim())).toEqual(header());
  });
});

describe('which tables, in which order', () => {
  test('migration records, the old runner\'s tables and logins are left out; accounts, keys and the log are not', () => {
    expect(leftOutReason('es.kysely_migration')).toMatch(/migrations/);
    expect(leftOutReason('app.kysely_migration_lock')).toMatch(/migrations/);
    expect(leftOutReason('app.refresh_tokens')).toMatch(/log in again/);
    expect(leftOutReason('app.session_families')).toMatch(/log in again/);
    for (const kept of [LOG, 'es.streams', 'es.subject_keys', 'app.credentials', 'app.email_index', 'app.account_sessions', 'app.join_codes', 'media.images']) {
      expect(leftOutReason(kept)).toBeNull();
    }
  });

  test('every migrated schema but the read models is backed up', () => {
    const set = (schema: string): MigrationSet => ({ name: schema, schema, migrations: {} });
    expect(backedUpSchemas([set('es'), set('app'), set('media'), set('rm')])).toEqual(['es', 'app', 'media']);
  });

  test('a referenced table comes before the tables that reference it; otherwise by name', () => {
    const ordered = orderTables([
      { name: 'app.refresh_tokens', references: ['app.session_families'] },
      { name: 'app.credentials', references: [] },
      { name: 'app.session_families', references: [] },
      { name: 'app.self', references: ['app.self'] },
    ]);
    expect(ordered.map((t) => t.name)).toEqual(['app.credentials', 'app.session_families', 'app.refresh_tokens', 'app.self']);
    expect(() => orderTables([{ name: 'a.x', references: ['a.y'] }, { name: 'a.y', references: ['a.x'] }])).toThrow(/cycle/);
  });
});

describe('migrationSetsAsOf', () => {
  const noop = { up: async () => undefined };
  const es: MigrationSet = { name: 'event store', schema: 'es', migrations: { '0001-a': noop, '0002-b': noop } };
  const app: MigrationSet = { name: 'accounts', schema: 'app', migrations: { '0001-x': noop } };

  test('each set is cut to the backup\'s migrations; a schema the backup lacks is left to the full run', () => {
    const { sets, ahead } = migrationSetsAsOf([es, app], { es: ['0001-a'] });
    expect(sets.map((s) => [s.schema, Object.keys(s.migrations)])).toEqual([['es', ['0001-a']]]);
    expect(ahead).toEqual([]);
  });

  test('a backup from a newer version, or another line of migrations, is unsupported', () => {
    expect(() => migrationSetsAsOf([es], { es: ['0001-a', '0002-b', '0003-c'] })).toThrow(/newer Sinilill/);
    expect(() => migrationSetsAsOf([es], { es: ['0002-b'] })).toThrow(/not the first ones/);
  });

  test('a target already migrated past the backup is named, not migrated down', () => {
    expect(migrationSetsAsOf([es], { es: ['0001-a'] }, { es: ['0001-a', '0002-b'] })).toEqual({ sets: [], ahead: ['es'] });
  });
});

describe('small pieces', () => {
  test('countLines counts rows', () => {
    expect(countLines(Buffer.from(EVENTS_ROWS))).toBe(3);
    expect(countLines(Buffer.alloc(0))).toBe(0);
  });

  test('the default file sorts by UTC time under DATA_DIR/backups', () => {
    expect(defaultBackupFile('/srv/data', new Date('2026-04-05T07:08:09.123Z'))).toBe('/srv/data/backups/sinilill-20260405T070809Z.dump');
  });

  test('the secret check is stable, short and not the secret', () => {
    const secret = 'a'.repeat(40);
    expect(secretCheck(secret)).toBe(secretCheck(secret));
    expect(secretCheck(secret)).toMatch(/^[0-9a-f]{16}$/);
    expect(secretCheck(secret)).not.toBe(secretCheck(`${secret}b`));
  });

  test('qualified names are quoted', () => {
    expect(quoteQualified(LOG)).toBe('"es"."events"');
  });

  test('command lines', () => {
    expect(parseBackupArgs([])).toEqual({ file: null });
    expect(parseBackupArgs(['/tmp/x.dump'])).toEqual({ file: '/tmp/x.dump' });
    expect(() => parseBackupArgs(['a', 'b'])).toThrow(/usage/);
    expect(parseRestoreArgs(['x.dump'])).toEqual({ file: 'x.dump', allowOtherEmailIndexSecret: false });
    expect(parseRestoreArgs(['--allow-other-email-index-secret', 'x.dump'])).toEqual({ file: 'x.dump', allowOtherEmailIndexSecret: true });
    expect(() => parseRestoreArgs([])).toThrow(/usage/);
    expect(() => parseRestoreArgs(['x.dump', '--force'])).toThrow(/unknown: --force/);
  });
});
