/**
 * `npm run migrate`: brings every schema to its latest migration — the event store
 * (`es`), the command side's id sequences and account tables (`app`), the stored images
 * (`media`) and the live read models (`rm`). `npm start`, `import` and `replay` run the same
 * function when they open the database (application.ts), the tests through their helpers.
 *
 * The mechanism is @sinilill/event-store's runMigrations (Kysely's Migrator, static providers,
 * one advisory lock, one-time adoption of databases made by the earlier hand-rolled runners); each
 * package exposes its own MigrationSet, and this file fixes their order.
 */
import type pg from 'pg';
import { accountMigrations } from '@sinilill/commands';
import { eventStoreMigrations, runMigrations, type MigrationSet, type MigrationSetReport } from '@sinilill/event-store';
import { mediaMigrations } from '@sinilill/media';
import { readModelMigrationSet } from '@sinilill/read-models';

/**
 * Every schema's migrations, in the order they run: the event store first (the others' data
 * derives from or sits beside the log), the read models last.
 */
export const MIGRATION_SETS: readonly MigrationSet[] = [
  eventStoreMigrations,
  accountMigrations,
  mediaMigrations,
  readModelMigrationSet(),
];

/**
 * Runs every pending migration of every schema (MIGRATION_SETS, in order), after adopting what
 * the old runner made. Idempotent: a second call runs nothing. Safe when several processes call
 * it at once: they take turns on one advisory lock, and the later ones find nothing to do.
 * @param pool a pg pool on the application's database; not ended here. Uses one of its
 *   connections for the whole run.
 * @returns per schema, what was adopted and what ran (see MigrationSetReport).
 * @throws MigrationError (@sinilill/event-store) naming the schema and the migration that
 *   failed; earlier schemas stay migrated, the failing one is left as it was.
 */
export async function migrateToLatest(pool: pg.Pool): Promise<MigrationSetReport[]> {
  return runMigrations(pool, MIGRATION_SETS);
}

/**
 * One line per schema for operators, e.g. `event store (es): ran 0001-event-log` or
 * `read models (rm): up to date (2026-005-payments)`.
 */
export function describeMigrations(reports: readonly MigrationSetReport[]): string[] {
  return reports.map((report) => {
    const parts: string[] = [];
    if (report.adopted.length > 0) parts.push(`adopted ${report.adopted.join(', ')} (made by the earlier hand-rolled runners)`);
    if (report.applied.length > 0) parts.push(`ran ${report.applied.join(', ')}`);
    if (parts.length === 0) parts.push(`up to date (${report.latest ?? 'no migrations'})`);
    return `${report.name} (${report.schema}): ${parts.join('; ')}`;
  });
}
