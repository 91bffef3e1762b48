/**
 * Backup and restore on real PostgreSQL: the 2025 export is imported with its
 * accounts, projected and read through GET /api/stats; it is backed up (backupDatabase, what
 * `npm run backup` runs), the database is dropped, and the backup is restored into a new one
 * (restoreBackup, what `npm run restore` runs: load, migrate, replay). /api/stats then answers
 * exactly as before; personal data decrypts (the subject keys came along), a person erased before
 * the backup stays erased, and a person whose deletion was appended but whose key was never
 * destroyed (a crash between the two) is erased by the restore. A restore refuses a database that
 * holds data and changes nothing there; a truncated file, a missing file, an unknown format
 * version and another EMAIL_INDEX_SECRET are refused.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import {
  BackupFileError,
  BackupSecretMismatchError,
  CorruptBackupError,
  DatabaseNotEmptyError,
  UnsupportedBackupError,
  backupDatabase,
  importEdition,
  restoreBackup,
  type BackupSummary,
  type RestoreSummary,
} from '@sinilill/cli';
import { AccountDirectory, CommandService, type CommandRequest } from '@sinilill/commands';
import { PERSONAL_DATA_FIELDS, streams, type ActingUser } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection, type EventStore } from '@sinilill/event-store';
import { createScratchDatabase } from '@sinilill/local-infra';
import { buildQueryApi, type TeamChangeFeed } from '@sinilill/query-api';
import { createReadModelDb } from '@sinilill/read-models';
import { FIXTURE_DIR, fixturePeople, streamIndexOn, testApplication, type TestApplication } from '../support/app';

const NOW = new Date('2025-04-20T10:00:00Z');
const SECRET = 'backup-test-jwt-secret-that-is-long-enough-0123456789';
const INDEX_SECRET = 'backup-test-email-index-secret-0123456789';
const ADMIN: ActingUser = { userId: '0b6f4c1e-6a0e-4c36-9a53-3f1f0b6a9c02', role: 'ADMIN', participantId: null, teamId: null };
const silentFeed: TeamChangeFeed = { subscribe: () => () => undefined };
const admin = (id: string): CommandRequest => ({ actor: ADMIN, metadata: { commandId: id, correlationId: id, causationId: null } });

/** A database's tables as the checks read them: row counts of the backed-up tables, the sequences. */
async function facts(pool: pg.Pool) {
  const count = async (table: string) => Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
  const sequence = async (name: string) => (await pool.query<{ v: string }>(`SELECT last_value::text AS v FROM ${name}`)).rows[0]!.v;
  return {
    events: await count('es.events'),
    streams: await count('es.streams'),
    keys: await count('es.subject_keys'),
    erased: await count('es.subject_keys WHERE key IS NULL'),
    emailIndex: await count('app.email_index'),
    teamNames: await count('app.team_name_index'),
    joinCodes: await count('app.join_codes'),
    accountSessions: await count('app.account_sessions'),
    images: await count('media.images'),
    sequences: {
      position: await sequence('es.global_position'),
      team: await sequence('app.team_ids'),
      participant: await sequence('app.participant_ids'),
      entry: await sequence('app.entry_ids'),
    },
  };
}

/** GET /api/stats over `pool`'s read models: status and body. */
async function stats(pool: pg.Pool): Promise<{ status: number; body: unknown }> {
  const api: FastifyInstance = buildQueryApi({ db: createReadModelDb(pool), now: () => NOW, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes: silentFeed });
  try {
    const response = await api.inject({ url: '/api/stats' });
    return { status: response.statusCode, body: response.json() };
  } finally {
    await api.close();
  }
}

/** The full name in a participant's ParticipantRegistered, as a store with personal-data protection reads it. */
async function nameOf(store: EventStore, participantId: number): Promise<unknown> {
  const events = await store.readStream(streams.participant(participantId));
  return (events.find((e) => e.type === 'ParticipantRegistered')?.data as { fullName?: unknown } | undefined)?.fullName;
}

const protectedStore = (pool: pg.Pool) => withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool, cacheTtlMs: 0 }), PERSONAL_DATA_FIELDS);

/**
 * Drops a database once its connections are gone. A pool's end() resolves before its clients'
 * sockets have closed; terminating those (WITH (FORCE)) made them emit an error nobody listens
 * to any more, an uncaught exception that failed the run. So wait for them to leave (up to 5 s),
 * and force only what is still there then.
 */
async function dropDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const adminClient = new pg.Client({ connectionString: inject('databaseServerUrl') });
  await adminClient.connect();
  try {
    const deadline = performance.now() + 5000;
    while (performance.now() < deadline) {
      const { rows } = await adminClient.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
      if (rows[0]!.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await adminClient.query(`DROP DATABASE "${name}" WITH (FORCE)`);
  } finally {
    await adminClient.end();
  }
}

describe('backup, wipe, restore', () => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let folder: string;
  let file: string;
  let backup: BackupSummary;
  let restored: RestoreSummary;
  let restoredUrl: string;
  let restoredPool: pg.Pool;
  let before: Awaited<ReturnType<typeof facts>>;
  let statsBefore: { status: number; body: unknown };
  const people = fixturePeople();
  const membersOf = (teamId: number) => people.filter((p) => p.teamId === teamId).map((p) => p.id);
  // Two small teams: one deleted properly (keys destroyed), one whose deletion "crashed" before it
  // destroyed the keys; and one person kept, whose name must decrypt after the restore.
  const teamSizes = new Map<number, number>();
  for (const p of people) teamSizes.set(p.teamId, (teamSizes.get(p.teamId) ?? 0) + 1);
  const [erasedTeam, crashedTeam] = [...teamSizes].filter(([, size]) => size >= 2 && size <= 4).map(([id]) => id) as [number, number];
  const kept = people.find((p) => p.teamId !== erasedTeam && p.teamId !== crashedTeam)!;

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    accountPool = new pg.Pool({ connectionString: app.url, max: 6 });
    const directory = new AccountDirectory({ pool: accountPool, indexSecret: INDEX_SECRET });
    await importEdition({ dir: FIXTURE_DIR, edition: 2025, store: app.store, pool: accountPool, directory, ids: app.ids });
    const vault = new PersonalDataVault({ pool: app.pool });
    const deps = { store: app.store, ids: app.ids, now: () => NOW, directory, streamIndex: streamIndexOn(app.pool) };
    await new CommandService({ ...deps, personalData: vault }).deleteTeams([erasedTeam], admin('backup-test:erase'));
    const crashing = { forget: async () => { throw new Error('simulated crash between the append and the key\'s destruction'); } };
    await expect(new CommandService({ ...deps, personalData: crashing }).deleteTeams([crashedTeam], admin('backup-test:crash'))).rejects.toThrow(/simulated crash/);
    // Bytes that COPY's text format must escape (NUL, backslash, newline, tab), an icon-sized row,
    // and a login that a restore must not bring back.
    const bytes = Buffer.concat([Buffer.from([0, 92, 10, 9, 13, 255]), Buffer.alloc(20_000, 7)]);
    await app.pool.query("INSERT INTO media.images (name, content_type, bytes, width, height) VALUES ($1, 'image/webp', $2, 256, 256)", [`${'a'.repeat(64)}.webp`, bytes]);
    await app.pool.query("INSERT INTO app.account_sessions (user_id, version, updated_at) VALUES ('u-1', 3, now())");
    await app.pool.query("INSERT INTO app.session_families (family_id, user_id, created_at) VALUES ('7d0c8a4e-2f55-4c59-9a0e-1f1f1f1f1f1f', 'u-1', now())");
    await app.project();
    statsBefore = await stats(app.pool);
    before = await facts(app.pool);

    folder = mkdtempSync(join(tmpdir(), 'sinilill-backup-'));
    file = join(folder, 'nested', 'sinilill.dump');
    backup = await backupDatabase({ databaseUrl: app.url, file, emailIndexSecret: INDEX_SECRET });

    // Wipe: the database is gone.
    await accountPool.end();
    await app.close();
    await dropDatabase(app.url);

    restoredUrl = await createScratchDatabase(inject('databaseServerUrl'), 'restored');
    restored = await restoreBackup({ databaseUrl: restoredUrl, file, emailIndexSecret: INDEX_SECRET });
    restoredPool = new pg.Pool({ connectionString: restoredUrl, max: 4 });
  }, 120_000);

  afterAll(async () => {
    await restoredPool?.end();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  test('the setup is what the test thinks it is', () => {
    expect(statsBefore.status).toBe(200);
    expect(membersOf(erasedTeam).length).toBeGreaterThanOrEqual(2);
    expect(membersOf(crashedTeam).length).toBeGreaterThanOrEqual(2);
    expect(before.erased).toBe(membersOf(erasedTeam).length);
  });

  test('the backup is one complete file with the tables, the head and the sequences it was made of', () => {
    expect(existsSync(file)).toBe(true);
    expect(readdirSync(join(folder, 'nested'))).toEqual(['sinilill.dump']); // no .partial left
    const { header } = backup;
    expect(header.headPosition).toBe(before.events);
    const rows = Object.fromEntries(header.tables.map((t) => [t.name, t.rows]));
    expect(rows).toMatchObject({
      'es.events': before.events, 'es.streams': before.streams, 'es.subject_keys': before.keys,
      'app.email_index': before.emailIndex, 'app.join_codes': before.joinCodes, 'app.account_sessions': before.accountSessions,
      'media.images': 1,
    });
    expect(Object.keys(rows).some((name) => name.startsWith('rm'))).toBe(false);
    expect(header.leftOut.map((t) => t.name)).toEqual(expect.arrayContaining(['app.session_families', 'app.refresh_tokens', 'es.kysely_migration']));
    expect(header.sequences.find((s) => s.name === 'es.global_position')?.lastValue).toBe(before.sequences.position);
  });

  test('after wipe and restore, GET /api/stats answers exactly as before', async () => {
    const after = await stats(restoredPool);
    expect(after).toEqual(statsBefore);
  });

  test('every backed-up table has its rows again, and the sequences go on where they were', async () => {
    const after = await facts(restoredPool);
    // The restore's replay records itself (ReadModelsReplayed): one event more, in a new stream;
    // and the keys of the team whose deletion "crashed" are destroyed (the last test but two).
    expect(after).toEqual({ ...before, events: before.events + 1, streams: before.streams + 1,
      erased: before.erased + membersOf(crashedTeam).length,
      sequences: { ...before.sequences, position: String(before.events + 1) } });
    expect(restored.tables.find((t) => t.name === 'es.events')?.rows).toBe(before.events);
    expect(restored.replay.result.position).toBe(before.events);
    const { rows: [image] } = await restoredPool.query<{ bytes: Buffer }>('SELECT bytes FROM media.images');
    expect(image!.bytes.subarray(0, 6)).toEqual(Buffer.from([0, 92, 10, 9, 13, 255]));
    expect(image!.bytes.length).toBe(20_006);
    const { rows: [next] } = await restoredPool.query<{ team: string }>('SELECT nextval(\'app.team_ids\')::text AS team');
    expect(BigInt(next!.team)).toBe(BigInt(before.sequences.team) + 1n);
  });

  test('logins are not restored: everyone logs in again', async () => {
    expect(Number((await restoredPool.query<{ n: string }>('SELECT count(*) AS n FROM app.session_families')).rows[0]!.n)).toBe(0);
  });

  test('personal data decrypts after the restore: the subject keys came along', async () => {
    expect(await nameOf(protectedStore(restoredPool), kept.id)).toBe(kept.fullName);
  });

  test('a person erased before the backup stays erased', async () => {
    const store = protectedStore(restoredPool);
    for (const id of membersOf(erasedTeam)) expect(await nameOf(store, id)).toBeNull();
  });

  test('a person whose deletion is in the log but whose key survived is erased by the restore', async () => {
    const store = protectedStore(restoredPool);
    for (const id of membersOf(crashedTeam)) expect(await nameOf(store, id)).toBeNull();
    expect(restored.keysDestroyed).toEqual(membersOf(crashedTeam).map((id) => `participant-${id}`).sort());
    expect(restored.erasedSubjects).toBe(before.erased + membersOf(crashedTeam).length);
  });

  test('a restore into a database that holds data refuses, and changes nothing', async () => {
    const factsBefore = await facts(restoredPool);
    await expect(restoreBackup({ databaseUrl: restoredUrl, file })).rejects.toThrow(DatabaseNotEmptyError);
    await expect(restoreBackup({ databaseUrl: restoredUrl, file })).rejects.toThrow(/not empty \(rows in .*es\.events/);
    expect(await facts(restoredPool)).toEqual(factsBefore);
  });

  test('a backup never replaces a file', async () => {
    await expect(backupDatabase({ databaseUrl: restoredUrl, file })).rejects.toThrow(BackupFileError);
  });

  test('a truncated file, a missing file, an unknown version and another secret are refused; the database stays empty', async () => {
    const empty = await createScratchDatabase(inject('databaseServerUrl'), 'refused');
    const pool = new pg.Pool({ connectionString: empty, max: 2 });
    const events = async () => {
      const { rows: [exists] } = await pool.query<{ found: boolean }>("SELECT to_regclass('es.events') IS NOT NULL AS found");
      return exists!.found ? Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM es.events')).rows[0]!.n) : 0;
    };
    try {
      const bytes = readFileSync(file);
      const truncated = join(folder, 'truncated.dump');
      writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      await expect(restoreBackup({ databaseUrl: empty, file: truncated })).rejects.toThrow(CorruptBackupError);
      expect(await events()).toBe(0);

      await expect(restoreBackup({ databaseUrl: empty, file: join(folder, 'no-such.dump') })).rejects.toThrow(BackupFileError);

      const future = join(folder, 'future.dump');
      writeFileSync(future, gzipSync(`${JSON.stringify({ format: 'sinilill-backup', version: 99 })}\n`));
      await expect(restoreBackup({ databaseUrl: empty, file: future })).rejects.toThrow(UnsupportedBackupError);

      const notGzip = join(folder, 'plain.dump');
      writeFileSync(notGzip, 'COPY es.events FROM stdin;\n');
      await expect(restoreBackup({ databaseUrl: empty, file: notGzip })).rejects.toThrow(CorruptBackupError);

      await expect(restoreBackup({ databaseUrl: empty, file, emailIndexSecret: 'another-email-index-secret-0123456789' }))
        .rejects.toThrow(BackupSecretMismatchError);
      expect(await events()).toBe(0);
    } finally {
      await pool.end();
    }
  }, 60_000);
});
