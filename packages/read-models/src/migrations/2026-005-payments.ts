/**
 * Read-model migration 2026-005: the payments projection's tables. Schema-scoped like
 * every read-model migration (see 2025-001-initial.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // payments: a new projection, so no checkpoint: the projector reads the log from
  // position 0 and fills payment_info from every ParticipantRegistered there is.
  await db.schema.createTable('payment_info')
    .addColumn('participant_id', 'integer', (c) => c.primaryKey())
    .addColumn('team_id', 'integer', (c) => c.notNull())
    .addColumn('is_paid', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_child', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('fee_cents', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createTable('fundraising_teams')
    .addColumn('team_id', 'integer', (c) => c.primaryKey())
    .addColumn('fees_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('donations_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.createTable('fundraising_totals')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('fees_cents', 'bigint', (c) => c.notNull())
    .addColumn('donations_cents', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('fundraising_totals' as never)
    .values({ id: 1, fees_cents: 0, donations_cents: 0 } as never)
    .execute();
}

/** Drops the tables and the payments checkpoint, so a later up reads the log again. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['fundraising_totals', 'fundraising_teams', 'payment_info']) await db.schema.dropTable(table).execute();
  await db.deleteFrom('checkpoints' as never).where('projection' as never, '=', 'payments' as never).execute();
}
