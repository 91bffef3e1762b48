/**
 * The read side's EditionCatalog, from rm.editions (projection `editions`). A log without edition
 * events (one written before editions were data) has no row there; the catalogue then holds the
 * 2025 edition as opened, as EditionCatalog.fromEvents does for the command side.
 */
import type { Kysely } from 'kysely';
import { EditionCatalog, type Edition, type EditionRecord } from '@sinilill/domain';
import { EDITION_OF_EVENTS_BEFORE_EDITIONS } from '@sinilill/domain/seed';
import type { ReadModelDatabase } from './schema';

/** The editions of the read models (`db` bound to the schema to read: rm, or a replay's rm_next). */
export async function readModelEditionCatalog(db: Kysely<ReadModelDatabase>): Promise<EditionCatalog> {
  const rows = await db.selectFrom('editions').select(['status', 'data']).orderBy('year').execute();
  const records: EditionRecord[] = rows.map((row) => ({ edition: row.data as Edition, status: row.status }));
  if (records.length === 0) records.push({ edition: EDITION_OF_EVENTS_BEFORE_EDITIONS, status: 'opened' });
  return new EditionCatalog(records);
}
