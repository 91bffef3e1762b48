/**
 * The replay worker (docs/decisions/0017): takes jobs from the `replay` queue one at a time and runs
 * replayAndRecord (rebuild aside, swap, ReadModelsReplayed in stream `operations`), reporting
 * progress through job.updateProgress so an operator can follow it (GET /api/admin/replay/{jobId}
 * and the queue board). The job's return value is the recorded ReadModelsReplayed data.
 *
 * Concurrency 1 and one worker per projector process; two projector processes could each take a
 * job, which is why the command API refuses a second replay while one is waiting or active.
 */
import { Worker, type Job } from 'bullmq';
import type { Kysely } from 'kysely';
import type { EventStore } from '@sinilill/event-store';
import { REPLAY_QUEUE, redisConnection, type ReplayJob, type ReplayJobProgress } from '@sinilill/messaging';
import { reportPark } from './projector';
import { replayAndRecord, type Projection, type ReadModelDatabase, type ReplayRecord } from '@sinilill/read-models';

export interface ReplayWorkerOptions {
  db: Kysely<ReadModelDatabase>;
  /** The protected event store (the record is an append). */
  store: EventStore;
  projections: readonly Projection[];
  redisUrl: string;
  /** BullMQ key prefix (default 'sinilill'). */
  prefix?: string;
  batchSize?: number;
  now?: () => Date;
  log?: (message: string, details?: Record<string, unknown>) => void;
}

/** Starts the replay worker; close it with `worker.close()`. */
export function startReplayWorker(options: ReplayWorkerOptions): Worker<ReplayJob, ReplayRecord> {
  const log = options.log ?? (() => undefined);
  const worker = new Worker<ReplayJob, ReplayRecord>(
    REPLAY_QUEUE,
    async (job: Job<ReplayJob, ReplayRecord>) => {
      log('replay started', { jobId: job.id });
      let pending = Promise.resolve();
      const record = await replayAndRecord(options.db, options.store, options.projections, {
        jobId: job.id ?? null,
        ...(job.data.requestedBy ? { actor: job.data.requestedBy } : {}),
        ...(options.now ? { now: options.now } : {}),
        ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
        onPark: (park) => reportPark(park, log, (message, details) => log(message, { ...details, jobId: job.id, level: 'warn' })),
        onProgress: ({ projection, position, head, read, percent }) => {
          const progress: ReplayJobProgress = { projection, position, head, read, percent };
          // Progress goes to Redis in order, without holding the rebuild up; a lost update only
          // makes the bar coarser, so failures are logged, not thrown.
          pending = pending.then(() => job.updateProgress(progress)).catch((error: unknown) => {
            log('replay progress not saved', { jobId: job.id, error: String(error) });
          });
        },
      });
      await pending;
      await job.updateProgress({ projection: '*', position: record.position, head: record.position, read: record.events, percent: 100 } satisfies ReplayJobProgress);
      log('replay finished', { jobId: job.id, events: record.events, position: record.position });
      return record;
    },
    // A replay rebuilds everything for minutes on a large log: a long lock, renewed meanwhile,
    // so BullMQ does not take the job for stalled and start it a second time.
    { connection: redisConnection(options.redisUrl), prefix: options.prefix ?? 'sinilill', concurrency: 1, lockDuration: 5 * 60_000 },
  );
  worker.on('failed', (job, error) => log('replay failed', { jobId: job?.id, error: String(error) }));
  worker.on('error', (error) => log('replay worker error', { error: String(error) }));
  return worker;
}
