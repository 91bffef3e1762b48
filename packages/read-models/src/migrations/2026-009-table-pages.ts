/**
 * Read-model migration 2026-009: the indexes of the tables paged, sorted and searched on the
 * server (services/query-api admin-pages.ts, public-pages.ts). Schema-scoped like
 * every read-model migration (see 2025-001-initial.ts). Indexes only: no projection starts over.
 *
 * Measured on a synthetic edition of a million events (893 702 entries, 35 746 participants and
 * accounts, 4 468 teams): the users (admin_users) and teams (team_stats) tables sort whole in
 * 15 ms or less, so they get no index per sort key; team_entries does, where a sort or a search
 * would otherwise read every entry:
 * - (created_at, entry_id): the entries tab's default sort (newest first) walks it backwards;
 * - (participant_id): a search finds the members whose name matches first, then their entries;
 *   the existing team_entries_team serves the teams whose name matches;
 * - team_members (full_name COLLATE "et-x-icu", participant_id) and team_stats (team_name COLLATE
 *   "et-x-icu", team_id): entries sorted by member or team name walk the names in Estonian order
 *   and each one's entries by those two indexes (2 ms instead of 0.4–1 s).
 * The other entry sorts (distance, type, done-at) read the table once (about 0.1–0.3 s).
 *
 * Names sort by ICU's Estonian collation ("et-x-icu"); a PostgreSQL built without ICU lacks it,
 * and this migration then stops with that message rather than sorting names in another order.
 */
import { sql, type Kysely } from 'kysely';

/** PostgreSQL's ICU collation for Estonian (the query API's ESTONIAN_COLLATION). */
const ESTONIAN = 'et-x-icu';

export async function up(db: Kysely<unknown>): Promise<void> {
  const collation = await sql<{ collname: string }>`SELECT collname FROM pg_collation WHERE collname = ${ESTONIAN}`.execute(db);
  if (collation.rows.length === 0) {
    throw new Error(`read-model migration 2026-009: PostgreSQL has no collation "${ESTONIAN}" (built without ICU); names cannot sort in Estonian order`);
  }
  await db.schema.createIndex('team_entries_created').on('team_entries').columns(['created_at', 'entry_id']).execute();
  await db.schema.createIndex('team_entries_participant').on('team_entries').column('participant_id').execute();
  await db.schema.createIndex('team_members_name').on('team_members')
    .expression(sql`full_name COLLATE ${sql.id(ESTONIAN)}, participant_id`).execute();
  await db.schema.createIndex('team_stats_name').on('team_stats')
    .expression(sql`team_name COLLATE ${sql.id(ESTONIAN)}, team_id`).execute();
}

/** Drops the indexes (the tables and their rows stay). */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['team_stats_name', 'team_members_name', 'team_entries_participant', 'team_entries_created']) {
    await db.schema.dropIndex(index).execute();
  }
}
