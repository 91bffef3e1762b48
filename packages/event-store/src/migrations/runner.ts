/**
 * The one migration mechanism of every schema: Kysely's Migrator, each package's
 * migrations as a `MigrationSet`, run in order by `runMigrations` under one advisory lock.
 *
 * - Each set keeps its migrations in its own schema's `kysely_migration` table (es, app, media,
 *   rm), so a schema carries its own history: a replay's fresh read-model schema `rm_next` is
 *   renamed to `rm` together with the record of what built it.
 * - Names sort in the order they run (`0001-…`, `2026-005-…`); Kysely refuses a database whose
 *   applied migrations are not the first ones of the list (allowUnorderedMigrations stays false),
 *   so a migration added below an applied one fails loudly instead of running out of order.
 * - Providers are static objects (each package's migrations/index.ts imports its files): the
 *   services are bundled into single files, where a folder-reading FileMigrationProvider finds
 *   nothing.
 *
 * Concurrency: Kysely's Migrator creates its tables before taking its lock and takes one
 * PostgreSQL advisory lock (the same key for every migration table). `runMigrations` runs
 * everything on one connection that first takes MIGRATION_LOCK (session level), so two processes
 * migrating at once run one after the other, the adoption step included; the second finds
 * nothing to do. Each set's pending migrations run in one transaction (a failing one leaves its
 * set as it was; the sets before it stay migrated).
 *
 * Adoption: before this runner the event store, the account tables and the images had a hand-rolled
 * runner recording versions in `es.schema_migrations`, `app.account_migrations` and
 * `media.schema_migrations` (the id sequences were created IF NOT EXISTS on every start). A set's
 * `legacy` says which of its migrations such a database already has; while the set's
 * `kysely_migration` table is missing or empty, those are recorded there as done (not run), once.
 * The old tables stay, untouched, as history.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import { DEFAULT_MIGRATION_TABLE, Migrator, type Migration } from 'kysely/migration';
import type pg from 'pg';

/** Advisory lock key ('migrates' in ASCII) held by `runMigrations` for its whole run. */
export const MIGRATION_LOCK = '7883946363647714675';

// Kysely's own Migration and Migrator type migrations over Kysely<any>: a migration touches
// tables the application's table types do not describe (or not yet).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyKysely = Kysely<any>;

/** The migrations of one schema, as a package exposes them. */
export interface MigrationSet {
  /** What `npm run migrate` calls it, e.g. 'event store'. */
  readonly name: string;
  /** The PostgreSQL schema its migrations build; its `kysely_migration` table lives there too. */
  readonly schema: string;
  /** Every migration by name; they run in name order, and an applied name never changes. */
  readonly migrations: Readonly<Record<string, Migration>>;
  /**
   * The names of `migrations` that a database built by the hand-rolled runner already has
   * (found in that runner's version tables); absent for a set that always used Kysely. Runs in
   * the adoption transaction.
   */
  readonly legacy?: (db: AnyKysely) => Promise<string[]>;
}

/** What `runMigrations` did to one set. */
export interface MigrationSetReport {
  name: string;
  schema: string;
  /** Migrations recorded as done because the old runner had made them (not run). */
  adopted: string[];
  /** Migrations run by this call, in order. */
  applied: string[];
  /** The last migration in place now (null for a set without migrations). */
  latest: string | null;
}

/** A migration (or the adoption step) of a set failed; `cause` is PostgreSQL's error. */
export class MigrationError extends Error {
  constructor(
    readonly set: string,
    readonly migration: string | null,
    cause: unknown,
  ) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(migration ? `${set}: migration ${migration} failed: ${detail}` : `${set}: ${detail}`, { cause });
    this.name = 'MigrationError';
  }
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * Brings every set, in the given order, to its latest migration: adopts what the old runner made,
 * then runs the pending migrations with Kysely's Migrator (`migrationTableSchema` = the set's
 * schema). Idempotent; safe when several processes call it at once (module docs).
 * @param target a pg pool (not ended here) or a Kysely instance (not a transaction) on the database.
 * @returns one report per set, in the order given.
 * @throws MigrationError naming the set and migration that failed (the sets before it stay
 *   migrated, that set is left as it was); Error when a schema name is not a plain identifier.
 */
export async function runMigrations<DB>(
  target: pg.Pool | Kysely<DB>,
  sets: readonly MigrationSet[],
): Promise<MigrationSetReport[]> {
  for (const set of sets) {
    if (!IDENTIFIER.test(set.schema)) throw new Error(`runMigrations: schema ${JSON.stringify(set.schema)} is not a plain identifier`);
  }
  // Over a pool: a Kysely that is never destroyed, since destroying it would end the caller's pool.
  const db: AnyKysely = target instanceof Kysely ? target : new Kysely<unknown>({ dialect: new PostgresDialect({ pool: target }) });
  return db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK}::bigint)`.execute(connection);
    try {
      const reports: MigrationSetReport[] = [];
      for (const set of sets) reports.push(await migrateSet(connection, set));
      return reports;
    } finally {
      // A broken connection has lost the lock with its session: keep the error that broke it.
      await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK}::bigint)`.execute(connection).catch(() => undefined);
    }
  });
}

/** Adoption, then Kysely's Migrator, for one set, on the locked connection. */
async function migrateSet(db: AnyKysely, set: MigrationSet): Promise<MigrationSetReport> {
  let adopted: string[];
  try {
    adopted = set.legacy ? await adopt(db, set, set.legacy) : [];
  } catch (error) {
    throw new MigrationError(set.name, null, error);
  }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...set.migrations }) },
    migrationTableSchema: set.schema,
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    throw new MigrationError(set.name, results.find((r) => r.status === 'Error')?.migrationName ?? null, error);
  }
  return {
    name: set.name,
    schema: set.schema,
    adopted,
    applied: results.filter((r) => r.status === 'Success').map((r) => r.migrationName),
    latest: Object.keys(set.migrations).sort().at(-1) ?? null,
  };
}

/**
 * Records the migrations the old runner made as done in the set's `kysely_migration` table, in
 * one transaction, unless that table already has rows (adopted before, or built by Kysely).
 * @returns the names recorded (empty when there was nothing to adopt).
 * @throws Error when the old runner's migrations are not the first ones of the set.
 */
async function adopt(db: AnyKysely, set: MigrationSet, legacy: (db: AnyKysely) => Promise<string[]>): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const table = `${set.schema}.${DEFAULT_MIGRATION_TABLE}`;
    if (await relationsExist(trx, [table])) {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(trx);
      if ((rows[0]?.n ?? 0) > 0) return [];
    }
    const done = (await legacy(trx)).toSorted();
    if (done.length === 0) return [];
    const names = Object.keys(set.migrations).sort();
    if (done.some((name, i) => names[i] !== name)) {
      throw new Error(`the old runner's tables say ${done.join(', ')} are applied, which is not the beginning of ` +
        `${names.join(', ')}: this database needs a look by hand`);
    }
    // The table exactly as Kysely's Migrator creates it (migrator.js, #ensureMigrationTableExists):
    // the Migrator then finds it and reads the adopted rows as applied migrations.
    await trx.schema.withSchema(set.schema).createTable(DEFAULT_MIGRATION_TABLE).ifNotExists()
      .addColumn('name', 'varchar(255)', (col) => col.notNull().primaryKey())
      .addColumn('timestamp', 'varchar(255)', (col) => col.notNull())
      .execute();
    // Kysely orders applied migrations by timestamp: one millisecond apart, in name order.
    const start = Date.now();
    await trx.withSchema(set.schema).insertInto(DEFAULT_MIGRATION_TABLE)
      .values(done.map((name, i) => ({ name, timestamp: new Date(start + i).toISOString() })))
      .execute();
    return done;
  });
}

/**
 * True when every named relation (table, sequence…, `schema.name`) exists. For a set's `legacy`.
 */
export async function relationsExist(db: AnyKysely, names: readonly string[]): Promise<boolean> {
  const { rows } = await sql<{ missing: number }>`
    SELECT count(*)::int AS missing FROM unnest(${sql.val([...names])}::text[]) AS r(name)
    WHERE to_regclass(r.name) IS NULL`.execute(db);
  return rows[0]?.missing === 0;
}

/**
 * The versions recorded by the hand-rolled runner in `table` (`schema.table`, a plain name;
 * columns version, name, applied_at), or [] when the table does not exist. For a set's `legacy`.
 */
export async function legacyVersions(db: AnyKysely, table: string): Promise<number[]> {
  if (!(await relationsExist(db, [table]))) return [];
  const { rows } = await sql<{ version: number }>`SELECT version FROM ${sql.table(table)} ORDER BY version`.execute(db);
  return rows.map((row) => row.version);
}

/**
 * The migrations of `sets` that the database has not recorded as applied, as `schema/name`, in
 * the sets' order (empty when the schema is current). A set whose `kysely_migration` table does
 * not exist yet counts as wholly pending. Reads only; takes no lock. For services that start
 * before `npm run migrate` has finished (waitForPostgres's `schemas`).
 * @param target a pg pool (not ended here) or a Kysely instance on the database.
 */
export async function pendingMigrations<DB>(
  target: pg.Pool | Kysely<DB>,
  sets: readonly MigrationSet[],
): Promise<string[]> {
  const db: AnyKysely = target instanceof Kysely ? target : new Kysely<unknown>({ dialect: new PostgresDialect({ pool: target }) });
  const pending: string[] = [];
  for (const set of sets) {
    if (!IDENTIFIER.test(set.schema)) throw new Error(`pendingMigrations: schema ${JSON.stringify(set.schema)} is not a plain identifier`);
    const table = `${set.schema}.${DEFAULT_MIGRATION_TABLE}`;
    const applied = new Set<string>();
    if (await relationsExist(db, [table])) {
      const { rows } = await sql<{ name: string }>`SELECT name FROM ${sql.table(table)}`.execute(db);
      for (const row of rows) applied.add(row.name);
    }
    for (const name of Object.keys(set.migrations).sort()) {
      if (!applied.has(name)) pending.push(`${set.schema}/${name}`);
    }
  }
  return pending;
}
