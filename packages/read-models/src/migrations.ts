/**
 * Read-model migrations, run with Kysely's Migrator. They are written for a target schema so
 * that the same migrations build the live schema (`rm`) and a replay's fresh one (`rm_next`).
 */
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';

/** The migrations, in order, creating every table in `schema`. */
export function readModelMigrations(schema: string): Record<string, Migration> {
  return {
    '2025-001-initial': {
      async up(db: Kysely<unknown>) {
        const s = db.schema.withSchema(schema);
        await s.createTable('checkpoints')
          .addColumn('projection', 'text', (c) => c.primaryKey())
          .addColumn('position', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
          .execute();
        await s.createTable('team_stats')
          .addColumn('team_id', 'integer', (c) => c.primaryKey())
          .addColumn('team_name', 'text', (c) => c.notNull())
          .addColumn('icon', 'text')
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', 'timestamptz', (c) => c.notNull())
          .addColumn('distance_hundredths', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('distance', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('participants', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('prestige', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('in_lap_distance', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('blue_flowers', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await s.createTable('team_daily_distance')
          .addColumn('team_id', 'integer', (c) => c.notNull())
          .addColumn('day', 'date', (c) => c.notNull())
          .addColumn('distance_hundredths', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('team_daily_distance_pk', ['team_id', 'day'])
          .execute();
        await s.createTable('stats_totals')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('teams', 'integer', (c) => c.notNull())
          .addColumn('participants', 'integer', (c) => c.notNull())
          .addColumn('distance', 'bigint', (c) => c.notNull())
          .addColumn('blue_flowers', 'bigint', (c) => c.notNull())
          .execute();
        await db.withSchema(schema).insertInto('stats_totals' as never)
          .values({ id: 1, teams: 0, participants: 0, distance: 0, blue_flowers: 0 } as never)
          .execute();
        await s.createTable('stats_entry_ledger')
          .addColumn('entry_id', 'integer', (c) => c.primaryKey())
          .addColumn('team_id', 'integer', (c) => c.notNull())
          .addColumn('participant_id', 'integer', (c) => c.notNull())
          .addColumn('distance_hundredths', 'bigint', (c) => c.notNull())
          .addColumn('performed_at', 'date', (c) => c.notNull())
          .execute();
        await s.createTable('team_members')
          .addColumn('participant_id', 'integer', (c) => c.primaryKey())
          .addColumn('team_id', 'integer', (c) => c.notNull())
          .addColumn('full_name', 'text')
          .addColumn('is_paid', 'boolean', (c) => c.notNull().defaultTo(false))
          .addColumn('is_captain', 'boolean', (c) => c.notNull().defaultTo(false))
          .addColumn('distance_hundredths', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', 'timestamptz', (c) => c.notNull())
          .execute();
        await s.createIndex('team_members_team').on('team_members').column('team_id').execute();
        await s.createTable('team_entries')
          .addColumn('entry_id', 'integer', (c) => c.primaryKey())
          .addColumn('team_id', 'integer', (c) => c.notNull())
          .addColumn('participant_id', 'integer', (c) => c.notNull())
          .addColumn('distance_hundredths', 'bigint', (c) => c.notNull())
          .addColumn('entry_type', 'text', (c) => c.notNull())
          .addColumn('performed_at', 'date', (c) => c.notNull())
          .addColumn('created_at', 'timestamptz', (c) => c.notNull())
          .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
          .execute();
        await s.createIndex('team_entries_team').on('team_entries').column('team_id').execute();
      },
    },
    '2025-002-settings': {
      async up(db: Kysely<unknown>) {
        await db.schema.withSchema(schema).createTable('settings')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('registration_enabled', 'boolean', (c) => c.notNull())
          .addColumn('entry_insertion_enabled', 'boolean', (c) => c.notNull())
          .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
          .execute();
        await db.withSchema(schema).insertInto('settings' as never)
          .values({ id: 1, registration_enabled: true, entry_insertion_enabled: true } as never)
          .execute();
      },
    },
    '2026-003-team-page': {
      async up(db: Kysely<unknown>) {
        const s = db.schema.withSchema(schema);
        // team-directory: each team's current join code (issue 4, GET /team/{id}/joincode).
        await s.createTable('team_join_codes')
          .addColumn('team_id', 'integer', (c) => c.primaryKey())
          .addColumn('join_code', 'text', (c) => c.notNull())
          .addColumn('created_at', 'timestamptz', (c) => c.notNull())
          .execute();
        // team-directory now also reads TeamRegistered, which a schema projected before this
        // migration has passed already: start that projection over (its tables emptied, its
        // checkpoint gone) so the projector refills them from the log, join codes included. Its
        // evolve adds km, so it must not re-read events over rows that already count them.
        // A fresh schema (a replay's rm_next) has nothing to clear.
        await sql`DELETE FROM ${sql.table(`${schema}.team_members`)}`.execute(db);
        await sql`DELETE FROM ${sql.table(`${schema}.team_entries`)}`.execute(db);
        await sql`DELETE FROM ${sql.table(`${schema}.checkpoints`)} WHERE projection = 'team-directory'`.execute(db);
      },
    },
    '2026-004-admin': {
      async up(db: Kysely<unknown>) {
        const s = db.schema.withSchema(schema);
        // admin-directory (issue 6). A new projection has no checkpoint, so it reads the log from
        // position 0. team-stats and team-directory now also read TeamRenamed, TeamDeleted,
        // ParticipantRenamed and ParticipantDeleted; unlike 2026-003 they are not started over:
        // those events are new with this release, so no schema has passed one of them yet.
        await s.createTable('admin_users')
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
        await s.createIndex('admin_users_participant').on('admin_users').column('participant_id').execute();
        await s.createIndex('admin_users_team').on('admin_users').column('team_id').execute();
        await s.createTable('admin_participants')
          .addColumn('participant_id', 'integer', (c) => c.primaryKey())
          .addColumn('team_id', 'integer', (c) => c.notNull())
          .addColumn('full_name', 'text')
          .addColumn('is_paid', 'boolean', (c) => c.notNull().defaultTo(false))
          .addColumn('created_at', 'timestamptz', (c) => c.notNull())
          .execute();
        await s.createIndex('admin_participants_team').on('admin_participants').column('team_id').execute();
        await s.createTable('admin_teams')
          .addColumn('team_id', 'integer', (c) => c.primaryKey())
          .addColumn('team_name', 'text', (c) => c.notNull())
          .execute();
      },
    },
    '2026-005-payments': {
      async up(db: Kysely<unknown>) {
        const s = db.schema.withSchema(schema);
        // payments (issue 7): a new projection, so no checkpoint: the projector reads the log from
        // position 0 and fills payment_info from every ParticipantRegistered there is.
        await s.createTable('payment_info')
          .addColumn('participant_id', 'integer', (c) => c.primaryKey())
          .addColumn('team_id', 'integer', (c) => c.notNull())
          .addColumn('is_paid', 'boolean', (c) => c.notNull().defaultTo(false))
          .addColumn('is_child', 'boolean', (c) => c.notNull().defaultTo(false))
          .addColumn('fee_cents', 'integer', (c) => c.notNull())
          .execute();
        await s.createTable('fundraising_teams')
          .addColumn('team_id', 'integer', (c) => c.primaryKey())
          .addColumn('fees_cents', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('donations_cents', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
          .execute();
        await s.createTable('fundraising_totals')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('fees_cents', 'bigint', (c) => c.notNull())
          .addColumn('donations_cents', 'bigint', (c) => c.notNull())
          .execute();
        await db.withSchema(schema).insertInto('fundraising_totals' as never)
          .values({ id: 1, fees_cents: 0, donations_cents: 0 } as never)
          .execute();
      },
    },
  };
}

class StaticProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations() {
    return this.migrations;
  }
}

/**
 * Brings `schema` (created when missing) up to the latest read-model migration.
 * @throws Error carrying the failed migration's name and cause.
 */
export async function migrateReadModels(db: Kysely<unknown>, schema: string): Promise<void> {
  await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(db);
  const migrator = new Migrator({
    db,
    provider: new StaticProvider(readModelMigrations(schema)),
    migrationTableSchema: schema,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`read-model migration ${failed} failed in schema ${schema}`, { cause: error });
  }
}
