/**
 * The `strava` queue's worker in the command API process (docs/decisions/0095, 0096), the
 * throttle that reads Strava's rate-limit answers, and the webhook subscription made at start.
 *
 * Rate limits: BullMQ's limiter (createStravaWorker) caps the queue's jobs across every process
 * at the configured read limit. On top, each API answer's `X-RateLimit-*` / `X-ReadRateLimit-*`
 * is seen by the StravaThrottle: once a window is (nearly) spent, or on a 429, the worker calls
 * `worker.rateLimit(ms until the window ends)` and hands the job back with
 * `Worker.RateLimitError()`: BullMQ keeps it waiting, in order, without spending an attempt, and the
 * limit is held in Redis, so every process's worker waits too. Nothing is refused or lost.
 *
 * Metrics (the process's registry, /metrics): `sinilill_strava_jobs_total{kind,outcome}` (done:
 * the StravaOutcome; failed: `failed`), `sinilill_strava_rate_limited_total{reason}` (waits,
 * `429` or `headers`).
 */
import type pg from 'pg';
import {
  StravaRateLimitedError,
  waitForLimits,
  type StravaClient,
  type StravaOutcome,
  type StravaRateLimits,
  type StravaSync,
} from '@sinilill/commands';
import { Counter, registeredMetric, type Registry } from '@sinilill/http';
import { createStravaWorker, stravaRateLimitError, type Job, type StravaJob, type Worker } from '@sinilill/messaging';

/** Remembers the last rate-limit answer; says how long to pause after it. */
export class StravaThrottle {
  private last: { limits: StravaRateLimits; at: number } | null = null;

  constructor(private readonly shortWindowMs: number, private readonly now: () => number = Date.now) {}

  /** Called with every API answer's limits (StravaClientOptions.onLimits). */
  seen(limits: StravaRateLimits): void {
    this.last = { limits, at: this.now() };
  }

  /** How long to pause before the next request, ms (0: go on); forgets what it read once told. */
  pause(): number {
    if (!this.last) return 0;
    const wait = waitForLimits(this.last.limits, this.now(), this.shortWindowMs);
    this.last = null;
    return wait;
  }
}

function stravaMetrics(registry: Registry) {
  return {
    jobs: registeredMetric(registry, 'sinilill_strava_jobs_total', () => new Counter({
      name: 'sinilill_strava_jobs_total', help: 'Strava jobs by kind and outcome (added, edited, …, failed)',
      labelNames: ['kind', 'outcome'] as const, registers: [registry],
    })) as Counter<'kind' | 'outcome'>,
    waits: registeredMetric(registry, 'sinilill_strava_rate_limited_total', () => new Counter({
      name: 'sinilill_strava_rate_limited_total', help: "Pauses of the Strava queue for Strava's rate limits, by reason (429, headers)",
      labelNames: ['reason'] as const, registers: [registry],
    })) as Counter<'reason'>,
  };
}

export interface StravaWorkerOptions {
  redisUrl: string;
  prefix?: string;
  sync: StravaSync;
  throttle: StravaThrottle;
  /** The queue's cap across processes (default 100 jobs per 15 minutes). */
  limit?: { max: number; durationMs: number };
  /** Jobs at once in this process (default 1: see createStravaWorker). */
  concurrency?: number;
  metrics?: Registry;
  log: { warn: (details: object, message: string) => void };
}

/** Runs one Strava job. */
async function run(sync: StravaSync, job: StravaJob): Promise<StravaOutcome> {
  switch (job.kind) {
    case 'activity': return sync.activity(job);
    case 'backfill': return sync.backfill(job);
    case 'deauthorize': return sync.deauthorized(job.athleteId);
  }
}

/** Starts the worker (the caller closes it). */
export function startStravaWorker(options: StravaWorkerOptions): Worker<StravaJob> {
  const metrics = options.metrics ? stravaMetrics(options.metrics) : null;
  const worker = createStravaWorker({ redisUrl: options.redisUrl, ...(options.prefix ? { prefix: options.prefix } : {}), ...(options.limit ? { limit: options.limit } : {}), ...(options.concurrency ? { concurrency: options.concurrency } : {}) },
    async (job: Job<StravaJob>, self) => {
      let outcome: StravaOutcome;
      try {
        outcome = await run(options.sync, job.data);
      } catch (error) {
        if (error instanceof StravaRateLimitedError) {
          metrics?.waits.inc({ reason: '429' });
          await self.rateLimit(error.retryAfterMs);
          throw stravaRateLimitError();
        }
        throw error;
      } finally {
        // Near the limit (the last answer's headers): the queue pauses before its next job.
        const pause = options.throttle.pause();
        if (pause > 0) {
          metrics?.waits.inc({ reason: 'headers' });
          await self.rateLimit(pause);
        }
      }
      metrics?.jobs.inc({ kind: job.data.kind, outcome });
      return outcome;
    });
  worker.on('failed', (job, error) => {
    if (!job || error.name === 'RateLimitError') return;
    metrics?.jobs.inc({ kind: job.data.kind, outcome: 'failed' });
    options.log.warn({ err: error, jobId: job.id, attempts: job.attemptsMade }, 'Strava job failed');
  });
  // A lost Redis connection is BullMQ's to retry; logged, not thrown.
  worker.on('error', (error) => options.log.warn({ err: error }, 'Strava worker error'));
  return worker;
}

/**
 * Makes sure Strava sends our app's events to `callbackUrl` (Strava allows one subscription per
 * application): lists the subscriptions and creates ours when there is none; one that points
 * elsewhere is replaced. One process does it at a time (a PostgreSQL advisory lock: several
 * command APIs start together). Run it after the server listens: Strava calls the callback's
 * handshake before it answers. Never throws: Strava unreachable is logged and the site goes on
 * without events (a restart tries again).
 */
export async function ensureStravaSubscription(options: {
  pool: pg.Pool; client: StravaClient; callbackUrl: string; verifyToken: string;
  log: { info: (details: object, message: string) => void; warn: (details: object, message: string) => void };
}): Promise<'exists' | 'created' | 'busy' | 'failed'> {
  const { pool, client, callbackUrl, verifyToken, log } = options;
  let db: pg.PoolClient | null = null;
  try {
    db = await pool.connect();
    const { rows } = await db.query<{ locked: boolean }>("SELECT pg_try_advisory_lock(hashtext('sinilill:strava-subscription')) AS locked");
    if (!rows[0]?.locked) return 'busy';
    try {
      const existing = await client.subscriptions();
      if (existing.some((subscription) => subscription.callback_url === callbackUrl)) return 'exists';
      for (const other of existing) await client.unsubscribe(other.id);
      const created = await client.subscribe(callbackUrl, verifyToken);
      log.info({ subscriptionId: created.id, callbackUrl }, 'Strava webhook subscription created');
      return 'created';
    } finally {
      await db.query("SELECT pg_advisory_unlock(hashtext('sinilill:strava-subscription'))");
    }
  } catch (error) {
    log.warn({ err: error, callbackUrl }, 'Strava webhook subscription not checked; Strava events will not arrive until it is');
    return 'failed';
  } finally {
    db?.release();
  }
}
