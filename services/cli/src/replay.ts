/**
 * `npm run replay`: rebuilds every read model from the event log into fresh tables and swaps them
 * in atomically (read-models runner), printing the figures before and after and the throughput.
 */
import type { Kysely } from 'kysely';
import type { EventStore } from '@sinilill/event-store';
import { projections, rebuildReadModels, type ReadModelDatabase } from '@sinilill/read-models';
import { progressBar } from './progress';

export interface Figures { teams: number; participants: number; distance: number; blueFlowers: number }

/** The totals row of the live read models. */
export async function readFigures(db: Kysely<ReadModelDatabase>): Promise<Figures> {
  const row = await db.withSchema('rm').selectFrom('stats_totals').selectAll().where('id', '=', 1).executeTakeFirst();
  return { teams: row?.teams ?? 0, participants: row?.participants ?? 0, distance: row?.distance ?? 0, blueFlowers: row?.blue_flowers ?? 0 };
}

/** Rebuilds with a progress bar; returns the figures before and after and the events per second. */
export async function replay(db: Kysely<ReadModelDatabase>, store: EventStore) {
  const before = await readFigures(db);
  const bar = progressBar();
  const result = await rebuildReadModels(db, store, projections, {
    onProgress: ({ projection, position, head }) => bar.update(Math.min(position, head), head, `replay ${projection}`),
  });
  bar.stop();
  const after = await readFigures(db);
  const eventsPerSecond = Math.round(result.events / (result.milliseconds / 1000));
  return { before, after, result, eventsPerSecond };
}
