/**
 * Read-model migration 0001: the checkpoints and the team-stats and team-directory tables.
 *
 * Like every read-model migration it is written for a schema-scoped Kysely (index.ts passes
 * `db.withSchema(schema)`), so the same file builds the live schema `rm` and a replay's `rm_next`.
 * Never edit it once released: change the tables in a new file.
 */
import { sql, type Kysely } from 'kysely';

const TABLES = ['team_entries', 'team_members', 'stats_entry_ledger', 'stats_totals', 'team_daily_distance', 'team_stats', 'checkpoints'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('checkpoints')
    .addColumn('projection', 'text', (c) => c.primaryKey())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createTable('team_stats')
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
  await db.schema.createTable('team_daily_distance')
    .addColumn('team_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('distance_hundredths', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_daily_distance_pk', ['team_id', 'day'])
    .execute();
  await db.schema.createTable('stats_totals')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('teams', 'integer', (c) => c.notNull())
    .addColumn('participants', 'integer', (c) => c.notNull())
    .addColumn('distance', 'bigint', (c) => c.notNull())
    .addColumn('blue_flowers', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('stats_totals' as never)
    .values({ id: 1, teams: 0, participants: 0, distance: 0, blue_flowers: 0 } as never)
    .execute();
  await db.schema.createTable('stats_entry_ledger')
    .addColumn('entry_id', 'integer', (c) => c.primaryKey())
    .addColumn('team_id', 'integer', (c) => c.notNull())
    .addColumn('participant_id', 'integer', (c) => c.notNull())
    .addColumn('distance_hundredths', 'bigint', (c) => c.notNull())
    .addColumn('performed_at', 'date', (c) => c.notNull())
    .execute();
  await db.schema.createTable('team_members')
    .addColumn('participant_id', 'integer', (c) => c.primaryKey())
    .addColumn('team_id', 'integer', (c) => c.notNull())
    .addColumn('full_name', 'text')
    .addColumn('is_paid', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_captain', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('distance_hundredths', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('team_members_team').on('team_members').column('team_id').execute();
  await db.schema.createTable('team_entries')
    .addColumn('entry_id', 'integer', (c) => c.primaryKey())
    .addColumn('team_id', 'integer', (c) => c.notNull())
    .addColumn('participant_id', 'integer', (c) => c.notNull())
    .addColumn('distance_hundredths', 'bigint', (c) => c.notNull())
    .addColumn('entry_type', 'text', (c) => c.notNull())
    .addColumn('performed_at', 'date', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('team_entries_team').on('team_entries').column('team_id').execute();
}

/** Drops the tables (read models are rebuilt from the log: nothing is lost). */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await db.schema.dropTable(table).execute();
}
