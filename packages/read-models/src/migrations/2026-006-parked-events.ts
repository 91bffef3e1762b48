/**
 * Read-model migration 2026-006: `parked_events`, the events a projection could not apply
 *. Schema-scoped like every read-model migration (see 2025-001-initial.ts), so a
 * replay's `rm_next` has its own: a rebuild parks again what still fails, and the
 * administrators' decisions later in the log resolve those parks again.
 *
 * One row per projection and event (global position): written by the runner in the batch's
 * transaction, with the checkpoint that moves past it.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('parked_events')
    .addColumn('projection', 'text', (c) => c.notNull())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('error_code', 'text', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull())
    .addColumn('parked_at', 'timestamptz', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('parked'))
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('reason', 'text')
    .addPrimaryKeyConstraint('parked_events_pkey', ['projection', 'position'])
    .addCheckConstraint('parked_events_status', sql`status in ('parked', 'retried', 'skipped')`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('parked_events').execute();
}
