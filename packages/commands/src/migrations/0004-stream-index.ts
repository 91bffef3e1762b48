/**
 * Accounts migration 0004: nothing left to do. The indexes a deletion's look-up reads
 * (`events_by_team`, `events_by_participant`) belong to the event store's own schema and are made
 * by the event store's migration 0003-payload-indexes, which runs before this set (the CLI's
 * migrateToLatest); databases that ran this migration's earlier body already have them.
 *
 * Kept under its name so that every database's list of applied migrations stays valid.
 */
import type { Kysely } from 'kysely';

/** No change (see the module's comment). */
export async function up(_db: Kysely<unknown>): Promise<void> {
  // Nothing: the event store's migrations own the indexes on its log.
}
