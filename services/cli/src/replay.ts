/**
 * `npm run replay`: rebuilds every read model from the event log into fresh tables and swaps them
 * in atomically, printing the figures before and after and the throughput. The rebuild and its
 * ReadModelsReplayed record in stream `operations` (jobId null) are @sinilill/read-models'
 * replayAndRecord, the same code the projector's replay job runs (D17).
 */
import type { Kysely } from 'kysely';
import type { EventStore } from '@sinilill/event-store';
import { projections, readReplayTotals, replayAndRecord, type ReadModelDatabase } from '@sinilill/read-models';
import { progressBar } from './progress';

export interface Figures { teams: number; participants: number; distance: number; blueFlowers: number }

/** The totals row of the live read models. */
export async function readFigures(db: Kysely<ReadModelDatabase>): Promise<Figures> {
  return readReplayTotals(db);
}

/**
 * Rebuilds with a progress bar and records the replay; returns the figures before and after and
 * the events per second. `store` must be the protected store (the record is an append).
 */
export async function replay(db: Kysely<ReadModelDatabase>, store: EventStore) {
  const bar = progressBar();
  const started = performance.now();
  const record = await replayAndRecord(db, store, projections, {
    jobId: null,
    onProgress: ({ projection, position, head }) => bar.update(Math.min(position, head), head, `replay ${projection}`),
  });
  bar.stop();
  const milliseconds = performance.now() - started;
  const result = { events: record.events, position: record.position, milliseconds };
  const eventsPerSecond = Math.round(result.events / (milliseconds / 1000));
  return { before: record.before, after: record.after, result, eventsPerSecond, record };
}
