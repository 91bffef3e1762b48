/**
 * `npm run replay`: rebuilds every read model from the event log into fresh tables and swaps them
 * in atomically, printing the figures before and after, the throughput, and each
 * read-model table's checksum, rebuilt and live, compared just before the swap. The rebuild and its
 * ReadModelsReplayed record in stream `operations` (jobId null) are @sinilill/read-models'
 * replayAndRecord, the same code the projector's replay job runs (docs/decisions/0017).
 */
import type { Kysely } from 'kysely';
import type { EventStore } from '@sinilill/event-store';
import { projections, readReplayTotals, replayAndRecord, type ReadModelDatabase, type ReplayRecord } from '@sinilill/read-models';
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

/**
 * The comparison a replay made before its swap, one line per table: name, rows and checksum of
 * the rebuilt and of the live table, and "match" or "DIFFERS" (or "no live table"); then a
 * summary line. For the CLI's output.
 */
export function checksumLines(checksums: NonNullable<ReplayRecord['checksums']>): string[] {
  const width = Math.max(5, ...checksums.map((c) => c.table.length));
  const lines = checksums.map((c) => {
    const live = c.live === null ? 'no live table to compare' : `live ${String(c.liveRows).padStart(8)} rows ${c.live}`;
    const verdict = c.live === null ? '' : c.match ? '  match' : '  DIFFERS';
    return `  ${c.table.padEnd(width)}  rebuilt ${String(c.rows).padStart(8)} rows ${c.rebuilt}   ${live}${verdict}`;
  });
  const differing = checksums.filter((c) => c.live !== null && !c.match).map((c) => c.table);
  const compared = checksums.filter((c) => c.live !== null).length;
  lines.push(differing.length === 0
    ? `checksums: ${compared} of ${checksums.length} tables compared, all match`
    : `checksums: ${differing.length} of ${compared} compared tables differ from the live ones: ${differing.join(', ')}`);
  return lines;
}
