/**
 * Read-model migration 0012: money raised that cannot be known. fundraising_teams and
 * fundraising_totals count the paid marks whose amount is unknown (an imported participant
 * marked paid in the old system, whose fee the export cannot tell: no birth year), so that a
 * total they feed is shown as incomplete ("at least …") instead of as if it were complete.
 *
 * No projection starts over: marks before this carry no `assumedCents` and no source 'import',
 * so 0 is every stored row's true count.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['fundraising_teams', 'fundraising_totals']) {
    await db.schema.alterTable(table).addColumn('unknown_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  }
}

/** Drops the counts. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['fundraising_teams', 'fundraising_totals']) await db.schema.alterTable(table).dropColumn('unknown_count').execute();
}
