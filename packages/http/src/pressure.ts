/**
 * Load shedding for the APIs: @fastify/under-pressure measures the event
 * loop's delay, and while it has been over the bound for `sustainedSamples` samples in a row (3 s
 * by default) every /api request is answered at once with 503
 * `{ message: 'SERVICE_UNAVAILABLE' }` and `Retry-After`, instead of queueing behind work the
 * process cannot finish in time (the web client shows the catalogue's text and the request can be
 * retried; the gateway and nginx pass the answer on).
 *
 * Only the event loop's delay is watched (mean over a sample interval, beyond the 10 ms
 * resolution): heap and RSS bounds would depend on the machine, and the event loop's utilisation
 * is near 1 on a busy but healthy API (measured by `npm run bench`), so neither is a sign of
 * overload here. The paths outside /api — /health/live, /health/ready and /metrics — always
 * answer: a liveness probe must not restart a process for being busy, and the metrics must show
 * the overload. under-pressure's own status route is not exposed (the health routes are there).
 */
import underPressure from '@fastify/under-pressure';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorBody } from './index';

// under-pressure's decorations, declared here too so that they reach whoever imports this
// package (its own declaration is not carried into this package's emitted types).
declare module 'fastify' {
  interface FastifyInstance {
    /** True while the event loop's delay is over the bound (pressurePlugin). */
    isUnderPressure(): boolean;
    /** True while /api requests are refused: the delay was over the bound in the last `sustainedSamples` samples. */
    isShedding(): boolean;
  }
}

export interface PressureOptions {
  /** Refuse while the event loop's mean delay over a sample is above this, ms (default 1000). */
  maxEventLoopDelayMs?: number;
  /** How often the delay is sampled, ms (default 1000; at least 10). */
  sampleIntervalMs?: number;
  /** The Retry-After of a refusal, seconds (default 2). */
  retryAfterSeconds?: number;
  /**
   * How many samples in a row must be over the bound before /api is refused (default 3): one slow
   * second (a process compiling its routes at start, a major GC, a neighbour's burst on a
   * 2-core machine) is no overload, and refusing then turned healthy requests into 503s in the
   * integration suite.
   */
  sustainedSamples?: number;
}

/** Defaults of PressureOptions. */
export const PRESSURE_DEFAULTS = { maxEventLoopDelayMs: 1000, sampleIntervalMs: 1000, retryAfterSeconds: 2, sustainedSamples: 3 } as const;

/** At most one log line per this many ms while refusing (an overloaded process logs little). */
const LOG_EVERY_MS = 10_000;

/**
 * Registers @fastify/under-pressure on the app with the bounds above (see the module's comment);
 * decorates `app.isUnderPressure()` (the last sample), `app.isShedding()` (sustained: refusing)
 * and `app.memoryUsage()`.
 */
export const pressurePlugin = fp<PressureOptions>(async (app, options) => {
  const retryAfter = options.retryAfterSeconds ?? PRESSURE_DEFAULTS.retryAfterSeconds;
  const sampleInterval = options.sampleIntervalMs ?? PRESSURE_DEFAULTS.sampleIntervalMs;
  const sustained = Math.max(1, options.sustainedSamples ?? PRESSURE_DEFAULTS.sustainedSamples);
  // Samples in a row over the bound, read at under-pressure's own pace (unref: keeps no process alive).
  let streak = 0;
  const watch = setInterval(() => { streak = app.isUnderPressure() ? streak + 1 : 0; }, sampleInterval);
  watch.unref();
  app.addHook('onClose', async () => clearInterval(watch));
  app.decorate('isShedding', () => streak >= sustained && app.isUnderPressure());
  let loggedAt = -Infinity;
  // under-pressure sends what the handler returns (its README: "any other return value than a
  // promise or nullish will be sent"), and then runs no further hook; returning nothing lets the
  // request through. Its types only know the void form, hence the cast.
  const pressureHandler = (request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) => {
    if (!request.url.startsWith('/api/') || !app.isShedding()) return undefined;
    const now = performance.now();
    if (now - loggedAt >= LOG_EVERY_MS) {
      loggedAt = now;
      request.log.warn({ type, value }, 'under pressure: refusing /api requests with 503 SERVICE_UNAVAILABLE');
    }
    reply.status(503).header('retry-after', String(retryAfter));
    return errorBody('SERVICE_UNAVAILABLE');
  };
  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs ?? PRESSURE_DEFAULTS.maxEventLoopDelayMs,
    sampleInterval,
    maxHeapUsedBytes: 0,
    maxRssBytes: 0,
    maxEventLoopUtilization: 0,
    retryAfter,
    exposeStatusRoute: false,
    pressureHandler: pressureHandler as unknown as (request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) => void,
  });
}, { name: 'pressure' });
