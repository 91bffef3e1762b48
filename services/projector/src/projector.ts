/**
 * The projector: one BullMQ worker per projection, each catching its read model up from its
 * checkpoint when woken (runner.catchUp: apply + checkpoint in one transaction, exactly once).
 *
 * A periodic sweep catches every projection up directly in this process, whatever became of the
 * wake-ups (Redis restarted or flushed, a publisher that failed after its append, a wake-up held
 * back behind the job of a killed projector): an update can be late by one sweep interval, never
 * lost or stalled (issue 13). Runs of one projection never overlap: each batch takes the
 * projection's advisory lock (runner.catchUp). At start the projector forgets the pending
 * wake-ups a killed predecessor may have left (WakeUpPublisher.forgetPendingWakeUps), and its
 * workers' job locks are short (10 s), so a dead worker's job is reclaimed within seconds.
 *
 * An event a projection cannot apply because of its data is parked by the runner and the
 * projection goes on (issue 13); each park is logged at warn (reportPark).
 *
 * Stopping (close(), or the `signal` option aborted): a run stops after the batch in progress,
 * whose apply and checkpoint commit together (or roll back together), so a stop never leaves a
 * half-applied batch; the events after it wait for the next start, which catches up first.
 */
import { Worker, type Job } from 'bullmq';
import type { Kysely } from 'kysely';
import type { EventStore } from '@sinilill/event-store';
import {
  WakeUpPublisher,
  projectionQueueName,
  redisConnection,
  type WakeUpJob,
} from '@sinilill/messaging';
import { catchUp, type ParkReport, type Projection, type ReadModelDatabase } from '@sinilill/read-models';

export interface ProjectorOptions {
  db: Kysely<ReadModelDatabase>;
  store: EventStore;
  projections: readonly Projection[];
  redisUrl: string;
  /** BullMQ key prefix (default 'sinilill'). */
  prefix?: string;
  sweepIntervalMs: number;
  /** Events per transaction. */
  batchSize?: number;
  log?: (message: string, details?: Record<string, unknown>) => void;
  /**
   * Warnings: an event parked (issue 13), with projection, position, event type and error —
   * never the event's data, which may be personal. Default: `log` with `level: 'warn'` among the
   * details (the projector's JSON log lets the details name the level).
   */
  warn?: (message: string, details: Record<string, unknown>) => void;
  /**
   * Aborted when the process shuts down: from then on every run stops after its current batch,
   * the start-up catch-up included (so a signal during start does not wait for a whole backlog).
   */
  signal?: AbortSignal;
}

export interface RunningProjector {
  /** Catches every projection up now, in this process (used at start and by the sweep fallback). */
  catchUpAll(): Promise<void>;
  /**
   * Stops: no new wake-up is taken, the runs in progress end after their current batch (BullMQ's
   * worker.close() waits for the active job), a sweep catching up in process is waited for, and
   * the Redis connections close. The caller closes the database afterwards.
   */
  close(): Promise<void>;
}

/**
 * Logs what happened to a park (issue 13): a newly parked event, or one a retry could not apply,
 * at warn; a retry that applied it or a skip at info. Projection, position, event id and type,
 * the error's code and message (values cut out, parking.ts) — never the event's data.
 */
export function reportPark(
  park: ParkReport,
  info: (message: string, details?: Record<string, unknown>) => void,
  warn: (message: string, details: Record<string, unknown>) => void,
): void {
  const details = {
    projection: park.projection, position: park.position, eventId: park.eventId, eventType: park.eventType,
    errorCode: park.errorCode, error: park.error,
  };
  if (park.outcome === 'parked') warn('event parked', details);
  else if (park.outcome === 'still-parked') warn('parked event failed again on retry', details);
  else if (park.outcome === 'retried') info('parked event applied on retry', details);
  else info('parked event skipped', details);
}

/** Starts the workers and the sweep, after one catch-up of every projection. */
export async function startProjector(options: ProjectorOptions): Promise<RunningProjector> {
  const log = options.log ?? (() => undefined);
  const prefix = options.prefix ?? 'sinilill';
  const batchSize = options.batchSize ?? 2000;
  let stopping = false;
  const stopped = () => stopping || (options.signal?.aborted ?? false);
  // Batch by batch, so that a stop is seen between batches: `stopAfter: 0` makes catchUp return
  // after its first committed batch (every position is past 0), or at once when nothing is new.
  const warn = options.warn ?? ((message: string, details: Record<string, unknown>) => log(message, { ...details, level: 'warn' }));
  const onPark = (park: ParkReport) => reportPark(park, log, warn);
  const run = async (projection: Projection) => {
    const total = { applied: 0, read: 0, position: 0 };
    for (;;) {
      const batch = await catchUp(options.db, options.store, projection, { batchSize, stopAfter: 0, onPark });
      total.position = batch.position;
      total.applied += batch.applied;
      total.read += batch.read;
      if (batch.read === 0 || stopped()) break;
    }
    if (total.applied > 0) log('projected', { projection: projection.name, applied: total.applied, position: total.position });
    return total;
  };
  const workers = options.projections.map((projection) => {
    const worker = new Worker<WakeUpJob>(
      projectionQueueName(projection.name),
      async (_job: Job<WakeUpJob>) => {
        const result = await run(projection);
        return { position: result.position, applied: result.applied };
      },
      // A dead worker's job is reclaimed after its lock lapses (renewed every 5 s while alive).
      { connection: redisConnection(options.redisUrl), prefix, concurrency: 1, autorun: true, lockDuration: 10_000, stalledInterval: 5_000 },
    );
    worker.on('failed', (_job, error) => log('projection run failed', { projection: projection.name, error: String(error) }));
    worker.on('error', (error) => log('worker error', { projection: projection.name, error: String(error) }));
    return worker;
  });
  const publisher = new WakeUpPublisher({
    redisUrl: options.redisUrl, prefix, projections: options.projections.map((p) => p.name),
  });
  const catchUpAll = async () => {
    for (const projection of options.projections) {
      if (stopped()) return;
      await run(projection);
    }
  };
  await publisher.forgetPendingWakeUps().catch((error: unknown) => log('pending wake-ups not cleared', { error: String(error) }));
  await catchUpAll();
  let sweeping: Promise<void> | null = null;
  const sweep = setInterval(() => {
    if (sweeping || stopped()) return;
    sweeping = catchUpAll()
      .catch((error: unknown) => log('sweep failed', { error: String(error) }))
      .finally(() => { sweeping = null; });
  }, options.sweepIntervalMs);
  sweep.unref();
  return {
    catchUpAll,
    async close() {
      stopping = true;
      clearInterval(sweep);
      await Promise.all([...workers.map((w) => w.close()), sweeping]);
      await publisher.close();
    },
  };
}
