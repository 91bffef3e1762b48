/**
 * A replay as an operator's act (D17): rebuild every read model (runner.rebuildReadModels), read
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
import { rebuildReadModels, type RebuildProgress } from './runner';
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
  /** Told of every event the rebuild parked (issue 13) or whose park a decision in the log resolved again. */
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

/**
 * Overall share done, in percent: each projection reads the whole log in turn, so projection i
 * at `position` of `head` is (i + position/head) / n of the work. Never decreases.
 */
export function replayPercent(index: number, count: number, position: number, head: number): number {
  if (count === 0) return 100;
  const within = head > 0 ? Math.min(position, head) / head : 1;
  return Math.round(((index + within) / count) * 1000) / 10;
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
  const indexOf = new Map(projections.map((p, i) => [p.name, i]));
  const result = await rebuildReadModels(db, store, projections, {
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    ...(options.onPark ? { onPark: options.onPark } : {}),
    onProgress: (progress) => options.onProgress?.({
      ...progress,
      percent: replayPercent(indexOf.get(progress.projection) ?? 0, projections.length, progress.position, progress.head),
    }),
  });
  const after = await readReplayTotals(db);
  const record: ReplayRecord = {
    jobId: options.jobId, events: result.events, position: result.position, before, after,
    startedAt, finishedAt: now().toISOString(),
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
