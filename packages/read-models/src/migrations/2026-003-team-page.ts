/**
 * Read-model migration 2026-003: team-directory's current join codes (GET
 * /team/{id}/joincode). Schema-scoped like every read-model migration (see 2025-001-initial.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('team_join_codes')
    .addColumn('team_id', 'integer', (c) => c.primaryKey())
    .addColumn('join_code', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // team-directory now also reads TeamRegistered, which a schema projected before this
  // migration has passed already: start that projection over (its tables emptied, its
  // checkpoint gone) so the projector refills them from the log, join codes included. Its
  // evolve adds km, so it must not re-read events over rows that already count them.
  // A fresh schema (a replay's rm_next) has nothing to clear.
  await db.deleteFrom('team_members' as never).execute();
  await db.deleteFrom('team_entries' as never).execute();
  await db.deleteFrom('checkpoints' as never).where('projection' as never, '=', 'team-directory' as never).execute();
}

/** Drops the join codes; team-directory's rows stay (its later evolve still fills them). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('team_join_codes').execute();
}
