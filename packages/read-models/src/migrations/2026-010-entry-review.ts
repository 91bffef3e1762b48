/**
 * Read-model migration 2026-010: moderation of entries. team_entries (the
 * team-directory projection) gains each entry's review state: status ('flagged', 'approved',
 * 'rejected'; NULL when never flagged), the latest flag's reasons (JSON text: an array of
 * { rule, limit, value, duplicateOf? }, km), when it was flagged, who decided (the
 * administrator's account id) and when, and the decision's note. A rejected entry keeps its row
 * (the team page shows it as rejected) and its distance, but counts in no total.
 *
 * No projection starts over: older events carry no flags, so NULL is every stored
 * entry's true state. The partial index serves the admin review queue (newest flag first, filter
 * by status), which reads flagged entries only.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('team_entries')
    .addColumn('review_status', 'text')
    .addColumn('review_reasons', 'text')
    .addColumn('flagged_at', 'timestamptz')
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'timestamptz')
    .addColumn('review_note', 'text')
    .execute();
  await db.schema.createIndex('team_entries_review').on('team_entries')
    .columns(['review_status', 'flagged_at', 'entry_id']).where(sql.ref('review_status'), 'is not', null).execute();
}

/** Drops the review columns and their index. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('team_entries_review').ifExists().execute();
  await db.schema.alterTable('team_entries')
    .dropColumn('review_status').dropColumn('review_reasons').dropColumn('flagged_at')
    .dropColumn('decided_by').dropColumn('decided_at').dropColumn('review_note')
    .execute();
}
