/**
 * The projector's metrics, in the process's prom-client registry, and the
 * projection lag they and the readiness check (./http.ts) read.
 *
 * Read at scrape time (prom-client `collect()`), each bounded by `timeoutMs` (a series whose read
 * failed is left out of that scrape rather than failing it):
 * - `sinilill_projection_lag_events{projection}`: how many positions the projection's checkpoint
 *   is behind the log's head (head − checkpoint: positions, so a rolled-back append's gap counts
 *   until the projection passes it; 0 when caught up);
 * - `sinilill_projection_lag_seconds{projection}`: the age of the oldest event the projection has
 *   not applied (now − recorded_at of the first event after its checkpoint; 0 when caught up);
 * - `sinilill_projection_checkpoint_position{projection}`: its checkpoint (a global position), from
 *   the same read: a checkpoint that does not move while the lag is above 0 is a stopped projection
 *   (the ProjectionStopped alert, infra/prometheus/alerts.yml);
 * - `sinilill_queue_jobs{queue,state}`: BullMQ's job counts (waiting, active, failed, delayed) of
 *   every projection queue, the replay queue, and the command API's mail and Strava queues;
 * - `sinilill_replay_progress_ratio`: the active replay job's progress, 0–1 (0 when none runs).
 *
 * Both lag gauges come from one read (readProjectionLag) per scrape: the checkpoints, the log's
 * head and, per lagging projection, its next event (through the event store, either engine).
 *
 * Recorded as it happens: `sinilill_projection_batch_duration_seconds{projection}`, a histogram
 * of each committed batch's transaction (this process's batches: ProjectorOptions.onBatch).
 *
 * The lag, queue and replay series describe the shared database and Redis, not this process:
 * every projector process reports the same values (aggregate them with max, not sum); the batch
 * histogram is this process's own.
 */
import type pg from 'pg';
import type { EventStore } from '@sinilill/event-store';
import { Gauge, Histogram, withTimeout, type Registry } from '@sinilill/http';
import type { Queue, ReplayJobProgress } from '@sinilill/messaging';
import { READ_MODEL_SCHEMA } from '@sinilill/read-models';
import type { ProjectorBatch } from './projector';

/** One projection's distance from the log's head. */
export interface ProjectionLag {
  projection: string;
  /** Its checkpoint (a global position; 0 before its first batch). */
  position: number;
  /** The log's head (the last readable global position; 0 for an empty log). */
  head: number;
  /** head − position, at least 0. */
  events: number;
  /** Age of the first event after the checkpoint, seconds (0 when there is none). */
  seconds: number;
}

/**
 * The lag of each of `projections`, in their order: see ProjectionLag. The checkpoints and the
 * database's clock in one query of the read models' database, the head and each lagging
 * projection's next event through the event store (either engine; one read of one event each).
 * The age is measured by the database's clock against the event's recorded time.
 */
export async function readProjectionLag(pool: pg.Pool, log: LagLog, projections: readonly string[]): Promise<ProjectionLag[]> {
  const [{ rows }, head] = await Promise.all([
    pool.query<{ projection: string; position: string; now_ms: number }>({
      name: 'projector.lag',
      text: `
        SELECT p.name AS projection, coalesce(c.position, 0) AS position,
               (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms
          FROM unnest($1::text[]) WITH ORDINALITY AS p(name, ord)
          LEFT JOIN ${READ_MODEL_SCHEMA}.checkpoints c ON c.projection = p.name
         ORDER BY p.ord`,
      values: [[...projections]],
    }),
    log.headPosition(),
  ]);
  return Promise.all(rows.map(async (row) => {
    const position = Number(row.position);
    const [next] = position < head ? await log.readAll({ after: position, maxCount: 1, metadata: false }) : [];
    const seconds = next ? (row.now_ms - next.recordedAt.getTime()) / 1000 : 0;
    return { projection: row.projection, position, head, events: Math.max(0, head - position), seconds: Math.max(0, seconds) };
  }));
}

/** What the lag reads of the event store: its head and the next event after a checkpoint. */
export type LagLog = Pick<EventStore, 'headPosition' | 'readAll'>;

/** The BullMQ job states sinilill_queue_jobs counts. */
export const QUEUE_STATES = ['waiting', 'active', 'failed', 'delayed'] as const;

/** Buckets of sinilill_projection_batch_duration_seconds, seconds (a 2 000-event batch: 0.1–2 s). */
export const BATCH_DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Default bound of each scrape-time read, ms. */
export const SCRAPE_READ_TIMEOUT_MS = 1000;

export interface ProjectorMetricsOptions {
  /** The read models' pool (the checkpoints). */
  pool: pg.Pool;
  /** The event store (the head and the next event of a lagging projection). */
  log: LagLog;
  /** The projections' names, in the order they are reported. */
  projections: readonly string[];
  /** The queues whose job counts are reported (the projection queues, the replay queue, the mail and Strava queues). */
  queues: readonly Queue[];
  /** The replay queue (its active job's progress). */
  replayQueue: Queue;
  /** Bound of each scrape-time read, ms (default SCRAPE_READ_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Told when a scrape-time read fails (that series is left out of the scrape). */
  onError?: (what: 'lag' | 'queues' | 'replay', error: unknown) => void;
}

/** What the projector wires from its metrics. */
export interface ProjectorMetrics {
  /** ProjectorOptions.onBatch: observes the batch's duration. */
  onBatch(batch: ProjectorBatch): void;
  /** The lag of every projection now (readProjectionLag). */
  lag(): Promise<ProjectionLag[]>;
}

/** A replay job's progress (ReplayJobProgress, or a bare percentage) as a ratio in 0–1. */
export function progressRatio(progress: unknown): number {
  const percent = typeof progress === 'number' ? progress
    : typeof progress === 'object' && progress !== null ? Number((progress as Partial<ReplayJobProgress>).percent) : 0;
  return Number.isFinite(percent) ? Math.min(1, Math.max(0, percent / 100)) : 0;
}

/** Registers the projector's metrics (module docs) in `registry`; call once per registry. */
export function registerProjectorMetrics(registry: Registry, options: ProjectorMetricsOptions): ProjectorMetrics {
  const timeoutMs = options.timeoutMs ?? SCRAPE_READ_TIMEOUT_MS;
  const failed = (what: 'lag' | 'queues' | 'replay', error: unknown) => options.onError?.(what, error);
  const lag = () => readProjectionLag(options.pool, options.log, options.projections);

  // Both lag gauges are filled by one read per scrape: prom-client collects the metrics of a
  // scrape concurrently, so the second collect joins the read the first one started.
  let reading: Promise<void> | null = null;
  const refreshLag = (): Promise<void> => {
    reading ??= (async () => {
      try {
        const rows = await withTimeout(lag(), timeoutMs);
        lagEvents.reset();
        lagSeconds.reset();
        checkpoint.reset();
        for (const row of rows) {
          lagEvents.set({ projection: row.projection }, row.events);
          lagSeconds.set({ projection: row.projection }, row.seconds);
          checkpoint.set({ projection: row.projection }, row.position);
        }
      } catch (error) {
        lagEvents.reset();
        lagSeconds.reset();
        checkpoint.reset();
        failed('lag', error);
      }
    })().finally(() => { reading = null; });
    return reading;
  };
  const lagEvents = new Gauge({
    name: 'sinilill_projection_lag_events', help: 'Positions between the projection\'s checkpoint and the log\'s head (0: caught up)',
    labelNames: ['projection'] as const, registers: [registry], collect: refreshLag,
  });
  const lagSeconds = new Gauge({
    name: 'sinilill_projection_lag_seconds', help: 'Age of the oldest event the projection has not applied, seconds (0: caught up)',
    labelNames: ['projection'] as const, registers: [registry], collect: refreshLag,
  });
  const checkpoint = new Gauge({
    name: 'sinilill_projection_checkpoint_position', help: 'The projection\'s checkpoint: the global position of the last event it applied',
    labelNames: ['projection'] as const, registers: [registry], collect: refreshLag,
  });
  const batchDuration = new Histogram({
    name: 'sinilill_projection_batch_duration_seconds', help: 'Duration of a committed batch (apply and checkpoint, one transaction), seconds',
    labelNames: ['projection'] as const, buckets: [...BATCH_DURATION_BUCKETS], registers: [registry],
  });
  const queueJobs: Gauge<'queue' | 'state'> = new Gauge({
    name: 'sinilill_queue_jobs', help: 'BullMQ jobs by queue and state (waiting, active, failed, delayed)',
    labelNames: ['queue', 'state'] as const, registers: [registry],
    async collect() {
      try {
        const counts = await withTimeout(Promise.all(options.queues.map((queue) => queue.getJobCounts(...QUEUE_STATES))), timeoutMs);
        queueJobs.reset();
        options.queues.forEach((queue, index) => {
          for (const state of QUEUE_STATES) queueJobs.set({ queue: queue.name, state }, counts[index]?.[state] ?? 0);
        });
      } catch (error) {
        queueJobs.reset();
        failed('queues', error);
      }
    },
  });
  const replayProgress: Gauge = new Gauge({
    name: 'sinilill_replay_progress_ratio', help: 'Progress of the replay job that runs, 0–1 (0: none runs)', registers: [registry],
    async collect() {
      try {
        const [job] = await withTimeout(options.replayQueue.getActive(0, 0), timeoutMs);
        replayProgress.set(job ? progressRatio(job.progress) : 0);
      } catch (error) {
        replayProgress.reset();
        failed('replay', error);
      }
    },
  });
  return {
    onBatch(batch) {
      batchDuration.observe({ projection: batch.projection }, (batch.endedAt - batch.startedAt) / 1000);
    },
    lag,
  };
}
