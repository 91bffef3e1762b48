/**
 * The `strava` queue (docs/decisions/0095, 0096): each Strava webhook event and each backfill page
 * is a job, processed by the command API's Strava worker (services/command-api/src/strava-worker.ts).
 *
 * Rate limits are obeyed across processes in two layers. BullMQ's limiter is kept in Redis for
 * the queue, so `limiter` caps the jobs of ALL workers together (default: Strava's read limit, 100
 * requests per 15 minutes, one request per job). And the processor reads Strava's
 * `X-RateLimit-*` / `X-ReadRateLimit-*` answers: near the limit, or on a 429, it calls
 * `worker.rateLimit(ms)` and throws `Worker.RateLimitError()`, which puts the job back to wait
 * without counting an attempt (BullMQ ≥ 5), so no job is lost or refused. Other failures are
 * retried with exponential backoff (default 8 attempts from 5 s: about 21 minutes in all).
 */
import { Queue, Worker, type Job, type Processor } from 'bullmq';
import { redisConnection } from './wake-up';

/** Queue name of the Strava jobs. */
export const STRAVA_QUEUE = 'strava';

/** One Strava webhook event about an activity (Strava's push event: object_id, aspect_type, owner_id, event_time). */
export interface StravaActivityJob {
  kind: 'activity';
  athleteId: number;
  activityId: number;
  aspect: 'create' | 'update' | 'delete';
  /** Strava's event_time, epoch seconds (0 for the backfill's). */
  eventTime: number;
}
/** One page of the athlete's activities since the edition's first day (GET /athlete/activities). */
export interface StravaBackfillJob {
  kind: 'backfill';
  userId: string;
  /** 1-based. */
  page: number;
  /** Connection time, epoch ms: the job of an older connection does nothing. */
  connectedAt: number;
}
/** The athlete revoked our access on Strava (athlete event, updates.authorized = 'false'). */
export interface StravaDeauthorizeJob {
  kind: 'deauthorize';
  athleteId: number;
  eventTime: number;
}
export type StravaJob = StravaActivityJob | StravaBackfillJob | StravaDeauthorizeJob;

/**
 * The job id of a Strava job: the same webhook event (object, aspect, event time) delivered twice
 * gets the same id, and BullMQ adds a job whose id it holds (waiting, active, or among the kept
 * finished ones) no second time. BullMQ refuses ':' in custom ids.
 */
export function stravaJobId(job: StravaJob): string {
  switch (job.kind) {
    case 'activity': return `activity-${job.activityId}-${job.aspect}-${job.eventTime}`;
    case 'backfill': return `backfill-${job.userId}-${job.connectedAt}-${job.page}`;
    case 'deauthorize': return `deauthorize-${job.athleteId}-${job.eventTime}`;
  }
}

/** Options of the Strava queue and its worker. */
export interface StravaQueueOptions {
  redisUrl: string;
  /** Key prefix (QUEUE_PREFIX), default 'sinilill'. */
  prefix?: string;
  /** Attempts of a job before it fails for good (default 8). A rate-limit wait is no attempt. */
  attempts?: number;
  /** First backoff delay, ms, doubled at each retry (default 5000). */
  backoffMs?: number;
}

/** The Strava queue; finished jobs are kept (5000 completed, 1000 failed) for redelivery checks and the board. The caller closes it. */
export function createStravaQueue(options: StravaQueueOptions): Queue<StravaJob> {
  return new Queue<StravaJob>(STRAVA_QUEUE, {
    connection: redisConnection(options.redisUrl),
    prefix: options.prefix ?? 'sinilill',
    defaultJobOptions: {
      attempts: options.attempts ?? 8,
      backoff: { type: 'exponential', delay: options.backoffMs ?? 5000 },
      removeOnComplete: 5000,
      removeOnFail: 1000,
    },
  });
}

/** Adds a Strava job under its stravaJobId (a repeat of the same event adds nothing). */
export async function enqueueStravaJob(queue: Queue<StravaJob>, job: StravaJob, options: { delayMs?: number } = {}): Promise<void> {
  await queue.add(job.kind, job, { jobId: stravaJobId(job), ...(options.delayMs ? { delay: options.delayMs } : {}) });
}

/**
 * A worker of the Strava queue. The queue as a whole runs at most `limit.max` jobs per
 * `limit.durationMs` (default 100 per 15 minutes: Strava's default read limit), whatever the
 * number of processes. The caller closes it.
 */
export function createStravaWorker(
  options: { redisUrl: string; prefix?: string; limit?: { max: number; durationMs: number }; concurrency?: number },
  processor: (job: Job<StravaJob>, worker: Worker<StravaJob>) => Promise<unknown>,
): Worker<StravaJob> {
  const limit = options.limit ?? { max: 100, durationMs: 15 * 60_000 };
  // The processor needs its worker for worker.rateLimit(ms); the worker exists before any job runs.
  const worker: Worker<StravaJob> = new Worker<StravaJob>(STRAVA_QUEUE, ((job: Job<StravaJob>) => processor(job, worker)) as Processor<StravaJob>, {
    connection: redisConnection(options.redisUrl),
    prefix: options.prefix ?? 'sinilill',
    // One job at a time per process: Strava allows about one read in 9 s, so more would only
    // race past the rate-limit headers the previous answer gave (each process reads its own).
    concurrency: options.concurrency ?? 1,
    limiter: { max: limit.max, duration: limit.durationMs },
  });
  return worker;
}

/** BullMQ's signal that a job goes back to wait for the rate limit (not a failure, no attempt used). */
export function stravaRateLimitError(): Error {
  return Worker.RateLimitError();
}
