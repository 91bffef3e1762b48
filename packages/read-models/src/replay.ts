/**
 * A replay as an operator's act (docs/decisions/0017): rebuild every read model (runner.rebuildReadModels), read
 * the public totals before and after, and record `ReadModelsReplayed` in stream `operations`, so
 * the log says when the figures were recomputed and by how much they moved. The CLI
 * (`npm run replay`, jobId null) and the projector's replay worker (the BullMQ job id) both call
 * `replayAndRecord`; neither records a replay differently from the other.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { SCHEMA_VERSIONS, streams, type ReadModelsReplayed, type ReplayTotals } from '@sinilill/domain';
import type { Actor, EventStore } from '@sinilill/event-store';
import type { ParkReport } from './parking';
import type { Projection } from './projection';
import { EVERY_PROJECTION } from './changes';
import type { TableComparison } from './checksums';
import { rebuildReadModels, type RebuildProgress } from './rebuild';
import { READ_MODEL_SCHEMA, type ReadModelDatabase } from './schema';

/** What a replay has done so far; `percent` grows from 0 to 100 over all projections. */
export interface ReplayProgress extends RebuildProgress {
  percent: number;
}

/** The payload of the recorded ReadModelsReplayed (also the replay job's return value). */
export type ReplayRecord = ReadModelsReplayed['data'];

export interface ReplayOptions {
  /** The BullMQ job id, or null when an operator runs the CLI. */
  jobId: string | null;
  /** Who asked for it (the admin behind POST /api/admin/replay); default the system. */
  actor?: Actor;
  /** The clock (startedAt, finishedAt); default the wall clock. */
  now?: () => Date;
  batchSize?: number;
  onProgress?: (progress: ReplayProgress) => void;
  /** Told of every event the rebuild parked or whose park a decision in the log resolved again. */
  onPark?: (report: ParkReport) => void;
}

/** The public totals row (rm.stats_totals) of the live read models; zeros before the first projection. */
export async function readReplayTotals(db: Kysely<ReadModelDatabase>): Promise<ReplayTotals> {
  const row = await db.withSchema(READ_MODEL_SCHEMA).selectFrom('stats_totals').selectAll()
    .where('id', '=', 1).executeTakeFirst();
  return {
    teams: row?.teams ?? 0,
    participants: row?.participants ?? 0,
    distance: row?.distance ?? 0,
    blueFlowers: row?.blue_flowers ?? 0,
  };
}

/** Share of a replay's percent given to the pass over the log; the indexes, checksums and swap take the rest. */
const PASS_SHARE = 95;

/**
 * Overall share done, in percent (one pass over the log builds every projection at
 * once): `position` of `head` is that share of PASS_SHARE; the final step (indexes, checksums,
 * swap: `projection` EVERY_PROJECTION) is PASS_SHARE. Never decreases.
 */
export function replayPercent(projection: string, position: number, head: number): number {
  if (projection === EVERY_PROJECTION) return PASS_SHARE;
  const within = head > 0 ? Math.min(position, head) / head : 1;
  return Math.round(within * PASS_SHARE * 10) / 10;
}

/** The checksums as ReadModelsReplayed records them. */
export function recordedChecksums(comparisons: readonly TableComparison[]): NonNullable<ReplayRecord['checksums']> {
  return comparisons.map((c) => ({
    table: c.table, rows: c.rebuilt.rows, rebuilt: c.rebuilt.checksum,
    liveRows: c.live?.rows ?? null, live: c.live?.checksum ?? null, match: c.match,
  }));
}

/**
 * Rebuilds every read model from the log and appends ReadModelsReplayed to stream `operations`
 * (expected revision any: replays are serialised by the queue, and two CLI runs may both be
 * recorded). Returns the recorded data. `store` should be the protected store, as for any append.
 */
export async function replayAndRecord(
  db: Kysely<ReadModelDatabase>,
  store: EventStore,
  projections: readonly Projection[],
  options: ReplayOptions,
): Promise<ReplayRecord> {
  const now = options.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const before = await readReplayTotals(db);
  const result = await rebuildReadModels(db, store, projections, {
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    ...(options.onPark ? { onPark: options.onPark } : {}),
    onProgress: (progress) => options.onProgress?.({
      ...progress, percent: replayPercent(progress.projection, progress.position, progress.head),
    }),
  });
  const after = await readReplayTotals(db);
  const record: ReplayRecord = {
    jobId: options.jobId, events: result.events, position: result.position, before, after,
    startedAt, finishedAt: now().toISOString(), checksums: recordedChecksums(result.checksums),
  };
  const correlationId = randomUUID();
  await store.appendToStream(streams.operations(), [{
    id: randomUUID(),
    type: 'ReadModelsReplayed',
    schemaVersion: SCHEMA_VERSIONS.ReadModelsReplayed,
    data: record,
    metadata: { actor: options.actor ?? { userId: null, role: 'SYSTEM' }, correlationId, causationId: null },
  }], { expectedRevision: 'any' });
  return record;
}
