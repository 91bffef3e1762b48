/**
 * Read-model migration 2026-004: the admin-directory projection's tables. Schema-scoped
 * like every read-model migration (see 2025-001-initial.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // admin-directory. A new projection has no checkpoint, so it reads the log from
  // position 0. team-stats and team-directory now also read TeamRenamed, TeamDeleted,
  // ParticipantRenamed and ParticipantDeleted; unlike 2026-003 they are not started over:
  // those events are new with this release, so no schema has passed one of them yet.
  await db.schema.createTable('admin_users')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('participant_id', 'integer')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('full_name', 'text')
    .addColumn('approved', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_paid', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('team_id', 'integer')
    .addColumn('team_name', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('participant_created_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('admin_users_participant').on('admin_users').column('participant_id').execute();
  await db.schema.createIndex('admin_users_team').on('admin_users').column('team_id').execute();
  await db.schema.createTable('admin_participants')
    .addColumn('participant_id', 'integer', (c) => c.primaryKey())
    .addColumn('team_id', 'integer', (c) => c.notNull())
    .addColumn('full_name', 'text')
    .addColumn('is_paid', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('admin_participants_team').on('admin_participants').column('team_id').execute();
  await db.schema.createTable('admin_teams')
    .addColumn('team_id', 'integer', (c) => c.primaryKey())
    .addColumn('team_name', 'text', (c) => c.notNull())
    .execute();
}

/** Drops the tables and admin-directory's checkpoint, so a later up reads the log again. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['admin_teams', 'admin_participants', 'admin_users']) await db.schema.dropTable(table).execute();
  await db.deleteFrom('checkpoints' as never).where('projection' as never, '=', 'admin-directory' as never).execute();
}
