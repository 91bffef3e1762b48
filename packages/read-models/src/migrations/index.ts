/**
 * The read models' migrations, one file each, listed here by name (a static provider, so the
 * bundled services carry them). Each is written for a schema-scoped Kysely: the same files build
 * the live schema `rm` and a replay's fresh `rm_next` (runner.rebuildReadModels), each schema
 * recording its own in its `kysely_migration` table, so the history moves with the swap.
 *
 * The read models used Kysely's Migrator with these names in `rm.kysely_migration` under
 * the hand-rolled runners' era, so existing databases need no adoption.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { MigrationSet } from '@sinilill/event-store';
import { READ_MODEL_SCHEMA } from '../schema';
import * as initial from './2025-001-initial';
import * as settings from './2025-002-settings';
import * as teamPage from './2026-003-team-page';
import * as admin from './2026-004-admin';
import * as payments from './2026-005-payments';
import * as parkedEvents from './2026-006-parked-events';
import * as paymentOrders from './2026-007-payment-orders';
import * as companyFees from './2026-008-company-fees';
import * as tablePages from './2026-009-table-pages';
import * as entryReview from './2026-010-entry-review';
import * as searchFolding from './2026-011-search-folding';
import * as raisedUnknown from './2026-012-raised-unknown';

interface SchemaScopedMigration {
  up(db: Kysely<unknown>): Promise<void>;
  down?(db: Kysely<unknown>): Promise<void>;
}

const MIGRATIONS: Readonly<Record<string, SchemaScopedMigration>> = {
  '2025-001-initial': initial,
  '2025-002-settings': settings,
  '2026-003-team-page': teamPage,
  '2026-004-admin': admin,
  '2026-005-payments': payments,
  '2026-006-parked-events': parkedEvents,
  '2026-007-payment-orders': paymentOrders,
  '2026-008-company-fees': companyFees,
  '2026-009-table-pages': tablePages,
  '2026-010-entry-review': entryReview,
  '2026-011-search-folding': searchFolding,
  '2026-012-raised-unknown': raisedUnknown,
};

/**
 * Every read-model migration by name, building its tables in `schema` (each runs on
 * `db.withSchema(schema)`).
 */
export function readModelMigrations(schema: string): Record<string, Migration> {
  return Object.fromEntries(Object.entries(MIGRATIONS).map(([name, migration]): [string, Migration] => {
    const { down } = migration;
    return [name, {
      up: (db) => migration.up(db.withSchema(schema)),
      ...(down ? { down: (db: Kysely<unknown>) => down(db.withSchema(schema)) } : {}),
    }];
  }));
}

/**
 * The read models as a MigrationSet for `schema` (default the live `rm`); run with
 * `runMigrations` (@sinilill/event-store), or every schema at once by the CLI's migrateToLatest.
 */
export function readModelMigrationSet(schema: string = READ_MODEL_SCHEMA): MigrationSet {
  return {
    name: schema === READ_MODEL_SCHEMA ? 'read models' : `read models (${schema})`,
    schema,
    migrations: readModelMigrations(schema),
  };
}
