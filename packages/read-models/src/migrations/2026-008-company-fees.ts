/**
 * Read-model migration 2026-008: fees as spec §9 writes them in the payments
 * projection — company teams (`company_teams`; payment_info's `company` and `is_captain`, so that
 * GET /payment/info answers a member's company fee and a captain's team total), refunds
 * (payment_orders' `refunded_cents`) and the members a team fee covers (payment_orders' `covers`).
 * Schema-scoped like every read-model migration (see 2025-001-initial.ts).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The company teams (TeamRegistered.company), remembered for the members who join later.
  await db.schema.createTable('company_teams').addColumn('team_id', 'integer', (c) => c.primaryKey()).execute();
  await db.schema.alterTable('payment_info')
    .addColumn('company', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_captain', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.alterTable('payment_orders')
    .addColumn('refunded_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('covers', sql`integer[]`)
    .execute();
  // The captain's team total counts the team's unpaid members.
  await db.schema.createIndex('payment_info_team').on('payment_info').column('team_id').execute();
  // payments now also reads TeamRegistered and PaymentRefunded, and counts administrators' manual
  // payments, which a schema projected before this migration has passed already: start it over
  // (docs/decisions/0003) so the projector refills every table from the log. Its evolve adds money, so it must not
  // re-read events over rows that count them. A fresh schema (a replay's rm_next) has nothing to clear.
  await resetPayments(db);
}

/** Starts payments over again and drops what up added (its rows are refilled without it). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await resetPayments(db);
  await db.schema.dropIndex('payment_info_team').execute();
  await db.schema.alterTable('payment_orders').dropColumn('covers').dropColumn('refunded_cents').execute();
  await db.schema.alterTable('payment_info').dropColumn('is_captain').dropColumn('company').execute();
  await db.schema.dropTable('company_teams').execute();
}

async function resetPayments(db: Kysely<unknown>): Promise<void> {
  for (const table of ['payment_info', 'fundraising_teams', 'payment_orders', 'company_teams']) await db.deleteFrom(table as never).execute();
  await db.updateTable('fundraising_totals' as never).set({ fees_cents: 0, donations_cents: 0 } as never).execute();
  await db.deleteFrom('checkpoints' as never).where('projection' as never, '=', 'payments' as never).execute();
}

