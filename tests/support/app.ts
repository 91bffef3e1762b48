/**
 * Test helpers for the whole command + read side on a real, freshly created PostgreSQL database.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import pg from 'pg';
import type { Kysely } from 'kysely';
import { CommandService, PostgresIdAllocator, type CommandServiceDependencies } from '@sinilill/commands';
import { repoRoot } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { migrateToLatest } from '@sinilill/cli';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection, type EventStore } from '@sinilill/event-store';
import { kurrentDbStandInStore } from '@sinilill/event-store/testing';
import { createScratchDatabase } from '@sinilill/local-infra';
import { catchUp, createReadModelDb, projections, type ReadModelDatabase } from '@sinilill/read-models';

/** The 2025 export kept in the repository (a copy of shared/fixtures/edition-2025). */
export const FIXTURE_DIR = join(repoRoot, 'infra/seed/edition-2025');

/** A participant of the 2025 export as its participants.csv has it (a comma-free export). */
export interface FixturePerson {
  id: number;
  fullName: string;
  email: string;
  teamId: number;
  isPaid: boolean;
}

/** The participants of the 2025 export (FIXTURE_DIR/participants.csv), in file order. */
export function fixturePeople(): FixturePerson[] {
  return readFileSync(join(FIXTURE_DIR, 'participants.csv'), 'utf8').trim().split('\n').slice(1)
    .map((line) => line.split(','))
    .map((cells) => ({ id: Number(cells[0]), fullName: cells[1]!, email: cells[2]!, teamId: Number(cells[5]), isPaid: cells[6] === 'true' }));
}

/** The 2025 figures of spec §1 (and the fixture README). */
export const FIGURES_2025 = { participants: 1005, teams: 121, distance: 196445, blueFlowers: 2491 } as const;

export interface TestApplication {
  url: string;
  pool: pg.Pool;
  db: Kysely<ReadModelDatabase>;
  /** The log's engine (`EVENT_STORE`): PostgreSQL in `pool`, or KurrentDB on its in-memory client stand-in. */
  engine: EventStoreEngine;
  /** The engine's store with personal-data protection (keys in `pool` whatever the engine). */
  store: EventStore;
  ids: PostgresIdAllocator;
  commands: CommandService;
  /** Runs every projection until it has nothing more to read. */
  project(): Promise<void>;
  totals(): Promise<{ teams: number; participants: number; distance: number; blueFlowers: number }>;
  close(): Promise<void>;
}

/**
 * The stream index on the PostgreSQL log in `pool` (CommandServiceDependencies.streamIndex): the
 * command API passes its event store (services/command-api/src/server.ts); deletions find members
 * and entries through its readEvents.
 */
export function streamIndexOn(pool: pg.Pool): NonNullable<CommandServiceDependencies['streamIndex']> {
  return new PostgresEventStore({ pool });
}

/** The engines a test application can put the log in (the services' EVENT_STORE). */
export type EventStoreEngine = 'postgres' | 'kurrentdb';

/**
 * A migrated scratch database with the command side and the projections wired to it. With
 * `engine: 'kurrentdb'` the log is a KurrentDbEventStore on the in-memory stand-in of its client
 * (@sinilill/event-store/testing), injected in-process as the services' createEventStore would
 * build it on a server; everything else (read models, ids, keys, accounts) stays in PostgreSQL.
 */
export async function testApplication(options: { now?: () => Date; engine?: EventStoreEngine } = {}): Promise<TestApplication> {
  const url = await createScratchDatabase(inject('databaseServerUrl'));
  const pool = new pg.Pool({ connectionString: url, max: 12 });
  const db = createReadModelDb(pool);
  await migrateToLatest(pool);
  const engine = options.engine ?? 'postgres';
  const engineStore = engine === 'postgres' ? new PostgresEventStore({ pool }) : kurrentDbStandInStore().store;
  const store = withPersonalDataProtection(engineStore, new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
  const ids = new PostgresIdAllocator(pool);
  const now = options.now ?? (() => new Date('2025-04-15T09:00:00Z'));
  const commands = new CommandService({ store, ids, now, streamIndex: engineStore });
  return {
    url, pool, db, engine, store, ids, commands,
    async project() {
      for (const projection of projections) await catchUp(db, store, projection);
    },
    async totals() {
      const row = await db.withSchema('rm').selectFrom('stats_totals').selectAll().executeTakeFirstOrThrow();
      return { teams: row.teams, participants: row.participants, distance: row.distance, blueFlowers: row.blue_flowers };
    },
    async close() {
      await db.destroy();
      // db.destroy() ends the pool only when Kysely has used it (migrateToLatest runs on its own).
      if (!pool.ending) await pool.end();
    },
  };
}
