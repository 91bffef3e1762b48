/**
 * The pieces the operators' tools share: one pool, every migration (event store, id sequences,
 * account tables, stored images, read models: migrate.ts), the event store with personal-data
 * protection, and the CommandService.
 */
import type pg from 'pg';
import type { Kysely } from 'kysely';
import { AccountDirectory, CommandService, PostgresIdAllocator, readSettings } from '@sinilill/commands';
import { createClock, type Config } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import {
  createResilientPool,
  PersonalDataVault,
  SubjectErasureListener,
  createEventStore,
  withPersonalDataProtection,
  type EventStore,
  type MigrationSetReport,
} from '@sinilill/event-store';
import { createReadModelDb, type ReadModelDatabase } from '@sinilill/read-models';
import { migrateToLatest } from './migrate';

const poolLog = { warn: (fields: Record<string, unknown>, message: string) => console.error(`[start] ${message}: ${fields.err instanceof Error ? fields.err.message : String(fields.err)}`) };
/** The erasure listener's log: a lost connection is said like the pool's; heard erasures are not. */
const erasureLog = { info: () => undefined, warn: (fields: object, message: string) => poolLog.warn(fields as Record<string, unknown>, message) };

export interface Application {
  pool: pg.Pool;
  db: Kysely<ReadModelDatabase>;
  store: EventStore;
  ids: PostgresIdAllocator;
  commands: CommandService;
  /** The account tables (the CommandService's), for the bulk import. */
  directory: AccountDirectory;
  close(): Promise<void>;
}

/**
 * Brings every schema up to date: migrateToLatest (migrate.ts), the same as `npm run migrate`.
 * Idempotent and safe to run from several processes at once; run before the services start.
 * @returns per schema, what was adopted and what ran.
 * @throws MigrationError naming the schema and migration that failed.
 */
export async function migrateAll(pool: pg.Pool): Promise<MigrationSetReport[]> {
  return migrateToLatest(pool);
}

/** Opens the database, migrates it, and builds the command side. */
export async function openApplication(config: Config, databaseUrl: string): Promise<Application> {
  // Broken idle connections (a database restart) are logged and replaced, never fatal.
  const pool = createResilientPool({ connectionString: databaseUrl, max: 12, log: poolLog });
  const db = createReadModelDb(pool);
  await migrateAll(pool);
  const vault = new PersonalDataVault({ pool });
  // A long import or replay must not go on using a key that an administrator erased meanwhile
  // through the command API: erasures are heard and drop the cached key.
  const erasures = new SubjectErasureListener({ connectionString: databaseUrl, vaults: [vault], log: erasureLog });
  await erasures.start();
  // The log's engine is configuration (EVENT_STORE, KURRENTDB_URL).
  const store = withPersonalDataProtection(createEventStore({ ...config.eventStore, pool }), vault, PERSONAL_DATA_FIELDS);
  const ids = new PostgresIdAllocator(pool);
  const clock = createClock(config);
  // The account tables get their own pool (see AccountDirectory: a registration holds one of its
  // connections across the event store's append).
  const accountPool = createResilientPool({ connectionString: databaseUrl, max: 6, log: poolLog });
  const directory = new AccountDirectory({ pool: accountPool, indexSecret: config.emailIndexSecret });
  const commands = new CommandService({
    store, ids, now: () => clock.now(), directory,
    entryInsertionEnabled: async () => (await readSettings(store)).entryInsertionEnabled,
  });
  return {
    pool, db, store, ids, commands, directory,
    close: async () => {
      await erasures.close();
      // Disposes the KurrentDB client; a no-op for PostgreSQL.
      await store.close();
      await accountPool.end();
      await db.destroy();
      // db.destroy() ends the pool only when Kysely has used it, and the migrations run on their
      // own Kysely: a command that never read the read models (import) ends it here.
      if (!pool.ending) await pool.end();
    },
  };
}
