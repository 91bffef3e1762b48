/**
 * `npm run migrate`: migrateToLatest on scratch databases — from empty, again, twice at
 * once, over a database the old runner built (adopted, nothing re-run, the same schema as a fresh
 * one), a failing migration, and the read models' way down and up again.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator, NO_MIGRATIONS } from 'kysely/migration';
import pg from 'pg';
import { MIGRATION_SETS, describeMigrations, migrateToLatest } from '@sinilill/cli';
import { MigrationError, PostgresEventStore, pendingMigrations, runMigrations, type EventData, type MigrationSet } from '@sinilill/event-store';
import { createScratchDatabase } from '@sinilill/local-infra';
import { RENAMED_READ_MODEL_MIGRATIONS, readModelMigrationSet, readModelMigrations } from '@sinilill/read-models';
import { buildPreKyselyDatabase, readModelMigrationsUnderFormerNames } from './fixtures/pre-kysely-schema';

const EXPECTED = {
  event: ['0001-event-log', '0002-append-batch', '0003-payload-indexes', '0004-lean-append'],
  accounts: ['0001-id-sequences', '0002-account-tables', '0003-session-tables', '0004-stream-index', '0005-indexes-per-edition', '0006-strava-connections', '0007-session-change-notify'],
  media: ['0001-images'],
  readModels: ['0001-initial', '0002-settings', '0003-team-page', '0004-admin', '0005-payments', '0006-parked-events', '0007-payment-orders', '0008-company-fees', '0009-table-pages', '0010-entry-review', '0011-search-folding', '0012-raised-unknown', '0013-editions', '0014-one-entry-ledger'],
};

/** Every table and sequence the application uses (relation names for to_regclass). */
const RELATIONS = [
  'es.streams', 'es.events', 'es.subject_keys', 'es.global_position',
  'app.team_ids', 'app.participant_ids', 'app.entry_ids',
  'app.credentials', 'app.account_tokens', 'app.email_index', 'app.team_name_index', 'app.join_codes',
  'app.account_sessions', 'app.session_families', 'app.refresh_tokens',
  'media.images',
  'rm.checkpoints', 'rm.team_stats', 'rm.team_daily_distance', 'rm.stats_totals',
  'rm.team_members', 'rm.team_entries', 'rm.settings', 'rm.team_join_codes',
  'rm.admin_users', 'rm.admin_participants', 'rm.admin_teams',
  'rm.payment_info', 'rm.fundraising_teams', 'rm.fundraising_totals', 'rm.payment_orders', 'rm.company_teams',
  'rm.editions', 'rm.projection_editions',
];
const FUNCTIONS = ['es.append(text[], text[], integer[], jsonb)', 'es.read_all_of_types(bigint, integer, text[])'];

const pools: pg.Pool[] = [];

async function scratchPool(max = 4): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: await createScratchDatabase(inject('databaseServerUrl'), 'migrate'), max });
  pools.push(pool);
  return pool;
}

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

/** An event to append, payload `data`. */
const happened = (data: unknown): EventData => ({
  id: randomUUID(), type: 'Happened', schemaVersion: 1, data,
  metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: randomUUID(), causationId: null },
});

/** The objects missing among RELATIONS and FUNCTIONS. */
async function missing(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(`
    SELECT name FROM unnest($1::text[]) AS r(name) WHERE to_regclass(name) IS NULL
    UNION ALL
    SELECT name FROM unnest($2::text[]) AS f(name) WHERE to_regprocedure(name) IS NULL`, [RELATIONS, FUNCTIONS]);
  return rows.map((row) => row.name);
}

/** The migrations' own bookkeeping (Kysely's tables, the old runner's), left out of comparisons. */
const BOOKKEEPING = '^(kysely_migration|kysely_migration_lock|schema_migrations|account_migrations)(_pkey)?$';

/**
 * The schema of es, app, media and rm as PostgreSQL describes it: relations, columns with types
 * and defaults, constraints, indexes, function definitions, sequences (not their positions) and
 * privileges.
 */
async function catalog(pool: pg.Pool): Promise<Record<string, string[]>> {
  const schemas = ['es', 'app', 'media', 'rm'];
  const rows = async (text: string) =>
    (await pool.query(text, [schemas, BOOKKEEPING])).rows.map((row) => JSON.stringify(row)).sort();
  return {
    schemas: await rows(`SELECT nspname, nspacl::text FROM pg_namespace WHERE nspname = ANY($1) AND $2 <> ''`),
    relations: await rows(`SELECT n.nspname, c.relname, c.relkind, c.relacl::text FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ANY($1) AND c.relname !~ $2`),
    columns: await rows(`SELECT n.nspname, c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod) AS type,
        a.attnotnull, pg_get_expr(d.adbin, d.adrelid) AS def
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE n.nspname = ANY($1) AND c.relname !~ $2 AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'v', 'm')`),
    constraints: await rows(`SELECT n.nspname, c.relname, k.conname, pg_get_constraintdef(k.oid) AS def
      FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1) AND c.relname !~ $2`),
    indexes: await rows(`SELECT schemaname, tablename, indexname, indexdef FROM pg_indexes
      WHERE schemaname = ANY($1) AND tablename !~ $2`),
    functions: await rows(`SELECT n.nspname, p.proname, pg_get_functiondef(p.oid) AS def, p.proacl::text AS acl
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = ANY($1) AND $2 <> ''`),
    sequences: await rows(`SELECT schemaname, sequencename, data_type::text, start_value, min_value, max_value,
        increment_by, cycle, cache_size
      FROM pg_sequences WHERE schemaname = ANY($1) AND sequencename !~ $2`),
  };
}

/** The rows of `schema.kysely_migration`, in order. */
async function recorded(pool: pg.Pool, schema: string): Promise<{ name: string; timestamp: string }[]> {
  return (await pool.query(`SELECT name, timestamp FROM ${schema}.kysely_migration ORDER BY timestamp, name`)).rows;
}

describe('migrateToLatest', () => {
  let fresh: pg.Pool;

  test('on an empty database it runs every migration and makes every table, sequence and function', async () => {
    fresh = await scratchPool();
    const reports = await migrateToLatest(fresh);
    expect(reports).toEqual([
      { name: 'event store', schema: 'es', adopted: [], renamed: [], applied: EXPECTED.event, latest: '0004-lean-append' },
      { name: 'accounts', schema: 'app', adopted: [], renamed: [], applied: EXPECTED.accounts, latest: '0007-session-change-notify' },
      { name: 'media', schema: 'media', adopted: [], renamed: [], applied: EXPECTED.media, latest: '0001-images' },
      { name: 'read models', schema: 'rm', adopted: [], renamed: [], applied: EXPECTED.readModels, latest: '0014-one-entry-ledger' },
    ]);
    expect(await missing(fresh)).toEqual([]);
    expect(describeMigrations(reports)[0]).toBe('event store (es): ran 0001-event-log, 0002-append-batch, 0003-payload-indexes, 0004-lean-append');
    // Each schema keeps its own record (the read models' where they always had it).
    expect((await recorded(fresh, 'es')).map((r) => r.name)).toEqual(EXPECTED.event);
    expect((await recorded(fresh, 'app')).map((r) => r.name)).toEqual(EXPECTED.accounts);
    expect((await recorded(fresh, 'media')).map((r) => r.name)).toEqual(EXPECTED.media);
    expect((await recorded(fresh, 'rm')).map((r) => r.name)).toEqual(EXPECTED.readModels);
    // The seed rows of the read models and a working es.append.
    expect((await fresh.query('SELECT id, teams, participants, distance::int, blue_flowers::int FROM rm.stats_totals')).rows)
      .toEqual([{ id: 1, teams: 0, participants: 0, distance: 0, blue_flowers: 0 }]);
    const store = new PostgresEventStore({ pool: fresh });
    const appended = await store.appendToStream('thing-1', [happened({})], { expectedRevision: 'no_stream' });
    expect(appended).toMatchObject({ nextExpectedRevision: 0, position: 1 });
  });

  test('a second run changes nothing', async () => {
    const before = await Promise.all(['es', 'app', 'media', 'rm'].map((schema) => recorded(fresh, schema)));
    const reports = await migrateToLatest(fresh);
    expect(reports.map((r) => [r.adopted, r.applied])).toEqual([[[], []], [[], []], [[], []], [[], []]]);
    expect(describeMigrations(reports)).toEqual([
      'event store (es): up to date (0004-lean-append)',
      'accounts (app): up to date (0007-session-change-notify)',
      'media (media): up to date (0001-images)',
      'read models (rm): up to date (0014-one-entry-ledger)',
    ]);
    expect(await Promise.all(['es', 'app', 'media', 'rm'].map((schema) => recorded(fresh, schema)))).toEqual(before);
  });

  test('two processes migrating one empty database at once both succeed, and each migration runs once', async () => {
    const url = await createScratchDatabase(inject('databaseServerUrl'), 'migrate');
    // Two pools stand for two processes: separate connections, separate sessions.
    const a = new pg.Pool({ connectionString: url, max: 2 });
    const b = new pg.Pool({ connectionString: url, max: 2 });
    pools.push(a, b);
    const [first, second] = await Promise.all([migrateToLatest(a), migrateToLatest(b)]);
    const ran = [...first!, ...second!].flatMap((r) => r.applied).sort();
    expect(ran).toEqual([...EXPECTED.event, ...EXPECTED.accounts, ...EXPECTED.media, ...EXPECTED.readModels].sort());
    expect(await missing(a)).toEqual([]);
  });

  test('a database built by the old runner is adopted: nothing re-run, data kept, the same schema as a fresh one', async () => {
    const pool = await scratchPool();
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    await buildPreKyselyDatabase(pool, db);
    // Data of before: an event, an account's password hash, an image, a read-model checkpoint.
    // The event through the old schema's own es.append (es.append_batch comes with the migration).
    const old = happened({ n: 1 });
    await pool.query('SELECT * FROM es.append($1::text[], $2::text[], $3::int[], $4::jsonb)', [
      ['thing-1'], ['no_stream'], [1], JSON.stringify([{ s: 1, id: old.id, type: old.type, v: old.schemaVersion, data: old.data, metadata: old.metadata }]),
    ]);
    const store = new PostgresEventStore({ pool });
    await pool.query(`INSERT INTO app.credentials VALUES ('u1', 'hash', now())`);
    await pool.query(`INSERT INTO media.images (name, content_type, bytes, width, height) VALUES ('x.webp', 'image/webp', '\\x00', 1, 1)`);
    await pool.query(`INSERT INTO rm.checkpoints (projection, position) VALUES ('team-stats', 1)`);
    await pool.query(`SELECT nextval('app.team_ids')`);

    const reports = await migrateToLatest(pool);
    expect(reports.map(({ name, adopted, applied }) => ({ name, adopted, applied }))).toEqual([
      // The old runner made the event log; group commit and the payload indexes are new to it.
      { name: 'event store', adopted: ['0001-event-log'], applied: ['0002-append-batch', '0003-payload-indexes', '0004-lean-append'] },
      // The old runner made the first two; the session tables and the stream index are new to it.
      { name: 'accounts', adopted: ['0001-id-sequences', '0002-account-tables'], applied: ['0003-session-tables', '0004-stream-index', '0005-indexes-per-edition', '0006-strava-connections', '0007-session-change-notify'] },
      { name: 'media', adopted: EXPECTED.media, applied: [] },
      // Recorded under their former names: renamed, none run again; the ones named since run.
      { name: 'read models', adopted: [], applied: ['0013-editions', '0014-one-entry-ledger'] },
    ]);
    expect(reports[3]!.renamed).toHaveLength(Object.keys(RENAMED_READ_MODEL_MIGRATIONS).length);
    expect((await recorded(pool, 'rm')).map((r) => r.name)).toEqual(EXPECTED.readModels);
    expect(describeMigrations(reports)[1]).toMatch(/^accounts \(app\): adopted 0001-id-sequences, 0002-account-tables \(made by the earlier hand-rolled runners\)/);
    expect((await recorded(pool, 'app')).map((r) => r.name)).toEqual(EXPECTED.accounts);
    // The old version tables stay as history.
    expect((await pool.query('SELECT version FROM es.schema_migrations')).rows).toEqual([{ version: 1 }]);

    // Nothing was lost, and the log goes on where it was.
    expect((await store.readAll({ after: 0, maxCount: 10 })).map((e) => e.data)).toEqual([{ n: 1 }]);
    const next = await store.appendToStream('thing-1', [happened({ n: 2 })], { expectedRevision: 0 });
    expect(next.position).toBe(2);
    expect((await pool.query('SELECT user_id FROM app.credentials')).rows).toEqual([{ user_id: 'u1' }]);
    expect((await pool.query('SELECT name FROM media.images')).rows).toEqual([{ name: 'x.webp' }]);
    expect((await pool.query(`SELECT position::int FROM rm.checkpoints WHERE projection = 'team-stats'`)).rows).toEqual([{ position: 1 }]);
    expect((await pool.query(`SELECT nextval('app.team_ids')::int AS id`)).rows).toEqual([{ id: 2 }]);

    // The same tables, columns, constraints, indexes, functions and sequences as a database the
    // new migrations built from nothing.
    expect(await catalog(pool)).toEqual(await catalog(fresh));

    // Adopted once: the next run finds nothing to do.
    expect((await migrateToLatest(pool)).map((r) => [r.adopted, r.applied])).toEqual([[[], []], [[], []], [[], []], [[], []]]);
  });

  test('a database of the old start-up with the id sequences but no account tables adopts the sequences and runs the rest', async () => {
    const pool = await scratchPool();
    await buildPreKyselyDatabase(pool, new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) }), { accounts: false, media: false, readModels: false });
    const reports = await migrateToLatest(pool);
    expect(reports.map(({ name, adopted, applied }) => ({ name, adopted, applied }))).toEqual([
      { name: 'event store', adopted: ['0001-event-log'], applied: ['0002-append-batch', '0003-payload-indexes', '0004-lean-append'] },
      { name: 'accounts', adopted: ['0001-id-sequences'], applied: ['0002-account-tables', '0003-session-tables', '0004-stream-index', '0005-indexes-per-edition', '0006-strava-connections', '0007-session-change-notify'] },
      { name: 'media', adopted: [], applied: EXPECTED.media },
      { name: 'read models', adopted: [], applied: EXPECTED.readModels },
    ]);
    expect(await missing(pool)).toEqual([]);
  });
});

describe('runMigrations', () => {
  test('a failing migration names itself, leaves its set as it was and keeps the sets before it', async () => {
    const pool = await scratchPool();
    const broken: MigrationSet = {
      name: 'broken',
      schema: 'broken',
      migrations: {
        '0001-table': { up: async (db) => { await sql`CREATE TABLE broken.kept (id int)`.execute(db); } },
        '0002-fails': { up: async (db) => { await sql`SELECT 1 / 0`.execute(db); } },
      },
    };
    const error = await runMigrations(pool, [MIGRATION_SETS[0]!, broken]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect(error).toMatchObject({ set: 'broken', migration: '0002-fails', message: 'broken: migration 0002-fails failed: division by zero' });
    expect((await pool.query(`SELECT to_regclass('broken.kept') AS t`)).rows).toEqual([{ t: null }]);
    expect((await recorded(pool, 'es')).map((r) => r.name)).toEqual(EXPECTED.event);
    // The lock is released: the next run goes through.
    expect((await runMigrations(pool, [MIGRATION_SETS[0]!]))[0]!.applied).toEqual([]);
  });

  test('a schema that recorded the read models under their former names is renamed once and runs nothing again', async () => {
    const pool = await scratchPool();
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    const schema = 'rm_former';
    const former = new Migrator({ db, provider: { getMigrations: async () => readModelMigrationsUnderFormerNames(schema) }, migrationTableSchema: schema });
    expect((await former.migrateToLatest()).error).toBeUndefined();
    const before = await recorded(pool, schema);
    expect(before.map((r) => r.name)).toEqual(Object.keys(RENAMED_READ_MODEL_MIGRATIONS));
    await pool.query(`INSERT INTO ${schema}.checkpoints (projection, position) VALUES ('team-stats', 7)`);
    const set = readModelMigrationSet(schema);
    // The migrations named since the renaming (never recorded under a former name) are pending.
    const since = EXPECTED.readModels.filter((name) => !Object.values(RENAMED_READ_MODEL_MIGRATIONS).includes(name));
    expect(since).toEqual(['0013-editions', '0014-one-entry-ledger']);
    expect(await pendingMigrations(pool, [set])).toEqual(since.map((name) => `${schema}/${name}`));

    const [report] = await runMigrations(pool, [set]);
    expect(report).toMatchObject({ applied: since, latest: '0014-one-entry-ledger' });
    expect(report!.renamed).toEqual(Object.entries(RENAMED_READ_MODEL_MIGRATIONS).map(([old, now]) => `${old} → ${now}`));
    // Same records in the same order, under the current names; the data untouched.
    expect((await recorded(pool, schema)).slice(0, before.length)).toEqual(before.map((r) => ({ ...r, name: RENAMED_READ_MODEL_MIGRATIONS[r.name] })));
    expect((await pool.query(`SELECT position::int FROM ${schema}.checkpoints WHERE projection = 'team-stats'`)).rows).toEqual([{ position: 7 }]);

    // Once: the next run renames and runs nothing.
    expect((await runMigrations(pool, [set]))[0]).toMatchObject({ renamed: [], applied: [] });
  });

  test('the read models migrate down to nothing and up again in any schema (their downs are sound)', async () => {
    const pool = await scratchPool();
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    const schema = 'rm_roundtrip';
    const [up] = await runMigrations(pool, [readModelMigrationSet(schema)]);
    expect(up).toMatchObject({ name: 'read models (rm_roundtrip)', applied: EXPECTED.readModels });
    const migrations = readModelMigrations(schema);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema: schema });
    const down = await migrator.migrateTo(NO_MIGRATIONS);
    expect(down.error).toBeUndefined();
    const { rows } = await pool.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`, [schema]);
    expect(rows.map((r) => r.table_name)).toEqual(['kysely_migration', 'kysely_migration_lock']);
    expect((await runMigrations(pool, [readModelMigrationSet(schema)]))[0]!.applied).toEqual(EXPECTED.readModels);
    expect((await pool.query(`SELECT count(*)::int AS n FROM rm_roundtrip.fundraising_totals`)).rows).toEqual([{ n: 1 }]);
  });
});
