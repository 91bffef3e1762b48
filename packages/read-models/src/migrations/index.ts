/**
 * The read models' migrations, one file each, listed here by name (a static provider, so the
 * bundled services carry them). Each is written for a schema-scoped Kysely: the same files build
 * the live schema `rm` and a replay's fresh `rm_next` (runner.rebuildReadModels), each schema
 * recording its own in its `kysely_migration` table, so the history moves with the swap.
 *
 * The read models always used Kysely's Migrator, so no database needs adoption; their names
 * followed `YYYY-NNN-title` until they took the `NNNN-title` of every other set (decision 0075):
 * RENAMED_READ_MODEL_MIGRATIONS maps each former name to its current one for databases that
 * recorded the former.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { MigrationSet } from '@sinilill/event-store';
import { READ_MODEL_SCHEMA } from '../schema';
import * as initial from './0001-initial';
import * as settings from './0002-settings';
import * as teamPage from './0003-team-page';
import * as admin from './0004-admin';
import * as payments from './0005-payments';
import * as parkedEvents from './0006-parked-events';
import * as paymentOrders from './0007-payment-orders';
import * as companyFees from './0008-company-fees';
import * as tablePages from './0009-table-pages';
import * as entryReview from './0010-entry-review';
import * as searchFolding from './0011-search-folding';
import * as raisedUnknown from './0012-raised-unknown';
import * as editions from './0013-editions';
import * as oneEntryLedger from './0014-one-entry-ledger';

interface SchemaScopedMigration {
  up(db: Kysely<unknown>): Promise<void>;
  down?(db: Kysely<unknown>): Promise<void>;
}

const MIGRATIONS: Readonly<Record<string, SchemaScopedMigration>> = {
  '0001-initial': initial,
  '0002-settings': settings,
  '0003-team-page': teamPage,
  '0004-admin': admin,
  '0005-payments': payments,
  '0006-parked-events': parkedEvents,
  '0007-payment-orders': paymentOrders,
  '0008-company-fees': companyFees,
  '0009-table-pages': tablePages,
  '0010-entry-review': entryReview,
  '0011-search-folding': searchFolding,
  '0012-raised-unknown': raisedUnknown,
  '0013-editions': editions,
  '0014-one-entry-ledger': oneEntryLedger,
};

/** Former name → current name of each read-model migration (decision 0075). Never shrinks. */
export const RENAMED_READ_MODEL_MIGRATIONS: Readonly<Record<string, string>> = {
  '2025-001-initial': '0001-initial',
  '2025-002-settings': '0002-settings',
  '2026-003-team-page': '0003-team-page',
  '2026-004-admin': '0004-admin',
  '2026-005-payments': '0005-payments',
  '2026-006-parked-events': '0006-parked-events',
  '2026-007-payment-orders': '0007-payment-orders',
  '2026-008-company-fees': '0008-company-fees',
  '2026-009-table-pages': '0009-table-pages',
  '2026-010-entry-review': '0010-entry-review',
  '2026-011-search-folding': '0011-search-folding',
  '2026-012-raised-unknown': '0012-raised-unknown',
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
    renamed: RENAMED_READ_MODEL_MIGRATIONS,
  };
}
