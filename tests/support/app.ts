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
  store: EventStore;
  ids: PostgresIdAllocator;
  commands: CommandService;
  /** Runs every projection until it has nothing more to read. */
  project(): Promise<void>;
  totals(): Promise<{ teams: number; participants: number; distance: number; blueFlowers: number }>;
  close(): Promise<void>;
}

/**
 * The stream index's query on `pool` (CommandServiceDependencies.streamIndex), as the command API
 * wires it (services/command-api/src/server.ts): deletions find members and entries there
 *.
 */
export function streamIndexOn(pool: pg.Pool): NonNullable<CommandServiceDependencies['streamIndex']> {
  return async (text, values) => (await pool.query<Record<string, unknown>>(text, [...values])).rows;
}

/** A migrated scratch database with the command side and the projections wired to it. */
export async function testApplication(options: { now?: () => Date } = {}): Promise<TestApplication> {
  const url = await createScratchDatabase(inject('databaseServerUrl'));
  const pool = new pg.Pool({ connectionString: url, max: 12 });
  const db = createReadModelDb(pool);
  await migrateToLatest(pool);
  const store = withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
  const ids = new PostgresIdAllocator(pool);
  const now = options.now ?? (() => new Date('2025-04-15T09:00:00Z'));
  const commands = new CommandService({ store, ids, now, streamIndex: streamIndexOn(pool) });
  return {
    url, pool, db, store, ids, commands,
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
