/**
 * The projector: one BullMQ worker per projection, each catching its read model up from its
 * checkpoint when woken (runner.catchUp: apply + checkpoint in one transaction, exactly once).
 *
 * A periodic sweep wakes every projection even when no wake-up arrived (Redis restarted or
 * flushed, a publisher that failed after its append): an update can be late, never lost. When
 * Redis cannot take the sweep's wake-up either, the sweep catches up directly in this process.
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
import { catchUp, type Projection, type ReadModelDatabase } from '@sinilill/read-models';

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
}

export interface RunningProjector {
  /** Catches every projection up now, in this process (used at start and by the sweep fallback). */
  catchUpAll(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the workers and the sweep. */
export async function startProjector(options: ProjectorOptions): Promise<RunningProjector> {
  const log = options.log ?? (() => undefined);
  const prefix = options.prefix ?? 'sinilill';
  const run = async (projection: Projection) => {
    const result = await catchUp(options.db, options.store, projection, { batchSize: options.batchSize ?? 2000 });
    if (result.applied > 0) log('projected', { projection: projection.name, applied: result.applied, position: result.position });
    return result;
  };
  const workers = options.projections.map((projection) => {
    const worker = new Worker<WakeUpJob>(
      projectionQueueName(projection.name),
      async (_job: Job<WakeUpJob>) => {
        const result = await run(projection);
        return { position: result.position, applied: result.applied };
      },
      { connection: redisConnection(options.redisUrl), prefix, concurrency: 1, autorun: true },
    );
    worker.on('failed', (_job, error) => log('projection run failed', { projection: projection.name, error: String(error) }));
    worker.on('error', (error) => log('worker error', { projection: projection.name, error: String(error) }));
    return worker;
  });
  const publisher = new WakeUpPublisher({
    redisUrl: options.redisUrl, prefix, projections: options.projections.map((p) => p.name),
  });
  const catchUpAll = async () => {
    for (const projection of options.projections) await run(projection);
  };
  await catchUpAll();
  let sweeping = false;
  const sweep = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    let failed = false;
    void publisher
      .wake(0, () => { failed = true; })
      .then(async () => {
        if (failed) {
          log('sweep could not reach Redis; catching up in process');
          await catchUpAll();
        }
      })
      .catch((error: unknown) => log('sweep failed', { error: String(error) }))
      .finally(() => { sweeping = false; });
  }, options.sweepIntervalMs);
  sweep.unref();
  return {
    catchUpAll,
    async close() {
      clearInterval(sweep);
      await Promise.all(workers.map((w) => w.close()));
      await publisher.close();
    },
  };
}
