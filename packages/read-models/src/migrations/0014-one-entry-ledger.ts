/**
 * Read-model migration 0014: one row per entry, not two. team-stats kept its own copy of every
 * counting entry (stats_entry_ledger: team, participant, km, day) beside team-directory's
 * team_entries, only to undo an entry's km on an edit, deletion or rejection; it now reads what
 * an entry counted for from the entry's stream in the log when a batch names an entry added
 * before it (docs/decisions/0103), so the table goes. Nothing starts over: team_stats and
 * team_daily_distance keep their figures.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('stats_entry_ledger').ifExists().execute();
}

/**
 * Creates the table again, empty: code from before 0014 needs its rows, which only a rebuild
 * from the log writes (`npm run replay` after going back).
 */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('stats_entry_ledger')
    .addColumn('entry_id', 'integer', (c) => c.primaryKey())
    .addColumn('team_id', 'integer', (c) => c.notNull())
    .addColumn('participant_id', 'integer', (c) => c.notNull())
    .addColumn('distance_hundredths', 'bigint', (c) => c.notNull())
    .addColumn('performed_at', 'date', (c) => c.notNull())
    .execute();
}
