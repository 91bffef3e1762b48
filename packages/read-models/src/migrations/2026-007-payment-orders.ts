/**
 * Read-model migration 2026-007: the payments projection's orders (GET
 * /payment/order/{reference}: the result page shows an order as the server knows it).
 * Schema-scoped like every read-model migration (see 2025-001-initial.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('payment_orders')
    .addColumn('order_id', 'text', (c) => c.primaryKey())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('participant_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_orders_participant_reference')
    .on('payment_orders').columns(['participant_id', 'reference']).execute();
  // payments now also reads PaymentOrdered and PaymentFailed, which a schema projected before
  // this migration has passed already: start that projection over (its tables emptied, the
  // totals zeroed, its checkpoint gone) so the projector refills them from the log, orders
  // included. Its evolve adds money, so it must not re-read events over rows that count them.
  // A fresh schema (a replay's rm_next) has nothing to clear.
  await resetPayments(db);
}

/** Drops the orders and starts payments over again (its rows are refilled without them). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_orders').execute();
  await resetPayments(db);
}

async function resetPayments(db: Kysely<unknown>): Promise<void> {
  await db.deleteFrom('payment_info' as never).execute();
  await db.deleteFrom('fundraising_teams' as never).execute();
  await db.updateTable('fundraising_totals' as never).set({ fees_cents: 0, donations_cents: 0 } as never).execute();
  await db.deleteFrom('checkpoints' as never).where('projection' as never, '=', 'payments' as never).execute();
}
