/**
 * The pieces the operators' tools share: one pool, every migration (event store, id sequences,
 * account tables, stored images, read models), the event store with personal-data protection, and the CommandService.
 */
import pg from 'pg';
import type { Kysely } from 'kysely';
import { AccountDirectory, CommandService, PostgresIdAllocator, migrateAccounts, migrateIdSequences, readSettings } from '@sinilill/commands';
import { createClock, type Config } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import {
  PersonalDataVault,
  PostgresEventStore,
  migrateEventStore,
  withPersonalDataProtection,
  type EventStore,
} from '@sinilill/event-store';
import { migrateMedia } from '@sinilill/media';
import { createReadModelDb, migrateLiveReadModels, type ReadModelDatabase } from '@sinilill/read-models';

export interface Application {
  pool: pg.Pool;
  db: Kysely<ReadModelDatabase>;
  store: EventStore;
  ids: PostgresIdAllocator;
  commands: CommandService;
  close(): Promise<void>;
}

/** Brings every schema up to date (idempotent; run before the services start). */
export async function migrateAll(pool: pg.Pool, db: Kysely<ReadModelDatabase>): Promise<void> {
  await migrateEventStore(pool);
  await migrateIdSequences(pool);
  await migrateAccounts(pool);
  await migrateMedia(pool);
  await migrateLiveReadModels(db);
}

/** Opens the database, migrates it, and builds the command side. */
export async function openApplication(config: Config, databaseUrl: string): Promise<Application> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 12 });
  const db = createReadModelDb(pool);
  await migrateAll(pool, db);
  const store = withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
  const ids = new PostgresIdAllocator(pool);
  const clock = createClock(config);
  // The account tables get their own pool (see AccountDirectory: a registration holds one of its
  // connections across the event store's append).
  const accountPool = new pg.Pool({ connectionString: databaseUrl, max: 6 });
  const directory = new AccountDirectory({ pool: accountPool, indexSecret: config.emailIndexSecret });
  const commands = new CommandService({
    store, ids, now: () => clock.now(), directory,
    entryInsertionEnabled: async () => (await readSettings(store)).entryInsertionEnabled,
  });
  return {
    pool, db, store, ids, commands,
    close: async () => {
      await accountPool.end();
      await db.destroy();
    },
  };
}
