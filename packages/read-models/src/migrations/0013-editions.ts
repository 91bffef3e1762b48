/**
 * Read-model migration 0013: the read side knows editions (spec §1 "the yearly event").
 * - `editions`: one row per edition of the log (the `editions` projection), with its status, its
 *   data as JSON and the instants it was planned, opened and closed;
 * - `projection_editions`: the editions each projection that computes with one (team-stats: the
 *   route; payments: the fees) keeps for itself, so that it never depends on how far another
 *   projection has come (decision 0079);
 * - `edition` on team_stats, team_members, payment_info and fundraising_teams: the edition of the
 *   team (TeamRegistered.edition) or participant (ParticipantRegistered.edition).
 *
 * Every row stored before this migration belongs to 2025, the only edition there was (the
 * upcasters give schema-1 events the same year), so the columns are filled with it and then lose
 * their default: every later write names its edition. No projection starts over.
 */
import type { Kysely } from 'kysely';

/** The year of every row stored before editions were data (domain before-editions.ts). */
const YEAR_BEFORE_EDITIONS = 2025;
const TABLES = ['team_stats', 'team_members', 'payment_info', 'fundraising_teams'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('editions')
    .addColumn('year', 'integer', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('planned_at', 'timestamptz', (c) => c.notNull())
    .addColumn('opened_at', 'timestamptz')
    .addColumn('closed_at', 'timestamptz')
    .execute();
  await db.schema.createTable('projection_editions')
    .addColumn('projection', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addPrimaryKeyConstraint('projection_editions_pkey', ['projection', 'year'])
    .execute();
  for (const table of TABLES) {
    await db.schema.alterTable(table).addColumn('edition', 'integer', (c) => c.notNull().defaultTo(YEAR_BEFORE_EDITIONS)).execute();
    await db.schema.alterTable(table).alterColumn('edition', (c) => c.dropDefault()).execute();
  }
  await db.schema.createIndex('team_stats_edition').on('team_stats').columns(['edition', 'team_id']).execute();
  await db.schema.createIndex('team_members_edition').on('team_members').columns(['edition', 'participant_id']).execute();
  await db.schema.createIndex('fundraising_teams_edition').on('fundraising_teams').columns(['edition', 'team_id']).execute();
}

/** Drops the editions' tables and columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['team_stats_edition', 'team_members_edition', 'fundraising_teams_edition']) await db.schema.dropIndex(index).execute();
  for (const table of TABLES) await db.schema.alterTable(table).dropColumn('edition').execute();
  await db.schema.dropTable('projection_editions').execute();
  await db.schema.dropTable('editions').execute();
}
