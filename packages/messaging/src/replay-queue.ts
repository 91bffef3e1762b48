/**
 * The replay queue (docs/decisions/0017) and the handles on the projection queues that the operators'
 * board watches.
 */
import { Queue } from 'bullmq';
import { PROJECTION_NAMES, projectionQueueName, redisConnection } from './wake-up';

/** Queue of replay jobs (one at a time: the projector's replay worker runs with concurrency 1). */
export const REPLAY_QUEUE = 'replay';
export const REPLAY_JOB = 'replay';

/** What a replay job carries: who asked for it (recorded in ReadModelsReplayed's metadata). */
export interface ReplayJob {
  requestedBy: { userId: string | null; role: 'USER' | 'ADMIN' | 'SYSTEM' };
}

/** A replay job's progress (job.updateProgress): see @sinilill/read-models' ReplayProgress. */
export interface ReplayJobProgress {
  projection: string;
  position: number;
  head: number;
  read: number;
  percent: number;
}

/**
 * The replay queue, with the configured prefix like the projection queues. Finished jobs are
 * kept for a day (at most 100), so an operator can still read a job's result after it ends.
 */
export function createReplayQueue(options: { redisUrl: string; prefix?: string }): Queue<ReplayJob> {
  return new Queue<ReplayJob>(REPLAY_QUEUE, {
    connection: redisConnection(options.redisUrl),
    prefix: options.prefix ?? 'sinilill',
    defaultJobOptions: {
      attempts: 1,
      removeOnComplete: { age: 24 * 3600, count: 100 },
      removeOnFail: { age: 7 * 24 * 3600, count: 100 },
    },
  });
}

/**
 * Handles on the projection queues for watching them (the operators' board); the replay queue
 * comes from createReplayQueue. The caller closes them.
 */
export function createProjectionQueues(options: { redisUrl: string; prefix?: string; projections?: readonly string[] }): Queue[] {
  const prefix = options.prefix ?? 'sinilill';
  return (options.projections ?? PROJECTION_NAMES).map((projection) =>
    new Queue(projectionQueueName(projection), { connection: redisConnection(options.redisUrl), prefix }));
}
