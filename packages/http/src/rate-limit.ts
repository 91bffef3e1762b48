/**
 * Rate limits shared by both APIs (docs/decisions/0024, 0108): fixed-window counters per client
 * address in Redis (RateLimitCounters), the @fastify/rate-limit registration every limited route
 * counts through (rateLimitPlugin), and the answer every limit gives.
 *
 * Counters live in Redis under one key prefix per copy of the app (BULLMQ_PREFIX), so every
 * process of an API shares them. When Redis does not answer (down, or slower than its command
 * timeout) the counters fall back to this process's memory until it answers again: the limits
 * still hold, per process, and no request fails because of Redis (never 500). Neither open (no
 * limits while Redis is down would let an attacker who can stop Redis guess freely) nor closed
 * (refusing every request while Redis is down would lock everyone out).
 *
 * Headers (docs/decisions/0108): the IETF draft's fields as @fastify/rate-limit writes them with
 * `enableDraftSpec` (draft-ietf-httpapi-ratelimit-headers up to -06: `RateLimit-Limit`,
 * `RateLimit-Remaining`, `RateLimit-Reset` in seconds) and that draft's `RateLimit-Policy`
 * (`<max>;w=<window seconds>`) on every answer of a limited route; a refused request answers 429
 * `{ message: 'TOO_MANY_REQUESTS' }` with `Retry-After` (seconds) as well.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit, { normalizeIP, type FastifyRateLimitOptions, type FastifyRateLimitStore, type RateLimitOptions } from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { DomainError } from '@sinilill/domain';

/** At most `max` in `timeWindowMs` milliseconds (a fixed window from the first one). */
export interface Limit {
  max: number;
  timeWindowMs: number;
}

/**
 * The Redis commands the counters use (an ioredis client fits). Give the client a short
 * `commandTimeout` and `enableOfflineQueue: false`, so that a Redis that is down or slow makes a
 * command fail at once rather than hold the request (the counters then fall back, see above).
 */
export interface RateLimitRedis {
  eval(script: string, numberOfKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  del(...keys: string[]): Promise<number>;
}

/** A counter's state: how many in the current window, and milliseconds until it ends (0: none). */
export interface Count {
  current: number;
  ttl: number;
}

/** INCR with the window set on the first increment (and on a key that somehow has none). */
const INCREMENT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}`;

/** The counter and its time to live, without changing it. */
const READ = `
local current = redis.call('GET', KEYS[1])
if not current then return {0, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {tonumber(current), ttl}`;

/** Sets the counter to 1 for exactly `ms` (a hold), whatever it was. */
const HOLD = `
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
return {1, tonumber(ARGV[1])}`;

/** Entries the in-process fallback keeps before it drops expired ones. */
const LOCAL_PRUNE_AT = 10_000;

export interface RateLimitCountersOptions {
  /** Where the counters live; without it (tests) each process counts alone. */
  redis?: RateLimitRedis | null;
  /** Key prefix, one per copy of the app sharing a Redis (e.g. `sinilill:rate-limit:`). */
  prefix: string;
  /**
   * The clock of the in-process counters, epoch milliseconds (default Date.now); tests drive the
   * windows with it (without Redis, whose windows follow its own clock).
   */
  now?: () => number;
  /** Told when Redis stops answering (the counters fall back) and when it answers again. */
  onRedisState?: (state: 'unavailable' | 'available', error?: unknown) => void;
}

/**
 * The rate-limit counters (see the module comment): fixed-window counters in Redis, falling back
 * to this process's memory while Redis does not answer. `Store` plugs them into
 * @fastify/rate-limit (its `store` option); LoginThrottle uses them directly. Keys carry their
 * rule's name, so every limiter shares one key space under the prefix.
 */
export class RateLimitCounters {
  private readonly local = new Map<string, { current: number; expiresAt: number }>();
  private redisAvailable = true;

  private readonly now: () => number;

  constructor(private readonly options: RateLimitCountersOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Adds one to `key`'s counter (opening a window of `windowMs` on the first) and answers it. */
  increment(key: string, windowMs: number): Promise<Count> {
    return this.run(INCREMENT, key, [Math.max(1, Math.round(windowMs))], () => {
      const now = this.now();
      const entry = this.liveEntry(key, now) ?? { current: 0, expiresAt: now + windowMs };
      entry.current += 1;
      this.local.set(key, entry);
      return { current: entry.current, ttl: entry.expiresAt - now };
    });
  }

  /** `key`'s counter, unchanged ({0, 0} when there is none). */
  read(key: string): Promise<Count> {
    return this.run(READ, key, [], () => {
      const now = this.now();
      const entry = this.liveEntry(key, now);
      return entry ? { current: entry.current, ttl: entry.expiresAt - now } : { current: 0, ttl: 0 };
    });
  }

  /** Sets `key` to 1 for `ms` milliseconds from now (a hold), replacing what it was. */
  hold(key: string, ms: number): Promise<Count> {
    return this.run(HOLD, key, [Math.max(1, Math.round(ms))], () => {
      this.local.set(key, { current: 1, expiresAt: this.now() + ms });
      return { current: 1, ttl: ms };
    });
  }

  /** Deletes the counters (in Redis and in the fallback); never throws. */
  async forget(...keys: string[]): Promise<void> {
    for (const key of keys) this.local.delete(key);
    const { redis, prefix } = this.options;
    if (!redis) return;
    try {
      await redis.del(...keys.map((key) => prefix + key));
      this.markAvailable();
    } catch (error) {
      this.markUnavailable(error);
    }
  }

  /**
   * @fastify/rate-limit's store constructor (its `store` option) over these counters: `incr` and
   * `read` as the plugin expects (the `max` argument is the plugin's to judge), `child` the same
   * store (route keys carry their rule's name; the plugin would otherwise prefix the route).
   */
  get Store(): new (options: FastifyRateLimitOptions) => FastifyRateLimitStore & { read: FastifyRateLimitStore['incr'] } {
    const increment = (key: string, windowMs: number) => this.increment(key, windowMs);
    const read = (key: string) => this.read(key);
    return class CountersStore {
      incr(key: string, callback: (error: Error | null, result?: Count) => void, timeWindow: number): void {
        increment(key, timeWindow).then((count) => callback(null, count), (error: Error) => callback(error));
      }

      read(key: string, callback: (error: Error | null, result?: Count) => void): void {
        read(key).then((count) => callback(null, count), (error: Error) => callback(error));
      }

      child(): FastifyRateLimitStore {
        return this;
      }
    };
  }

  private liveEntry(key: string, now: number) {
    const entry = this.local.get(key);
    if (entry && entry.expiresAt > now) return entry;
    if (entry) this.local.delete(key);
    return undefined;
  }

  private async run(script: string, key: string, args: number[], fallback: () => Count): Promise<Count> {
    const { redis, prefix } = this.options;
    if (redis) {
      try {
        const [current, ttl] = (await redis.eval(script, 1, prefix + key, ...args)) as [number, number];
        this.markAvailable();
        return { current: Number(current), ttl: Number(ttl) };
      } catch (error) {
        this.markUnavailable(error);
      }
    }
    if (this.local.size > LOCAL_PRUNE_AT) {
      const now = this.now();
      for (const [name, entry] of this.local) if (entry.expiresAt <= now) this.local.delete(name);
    }
    return fallback();
  }

  private markUnavailable(error: unknown): void {
    if (!this.redisAvailable) return;
    this.redisAvailable = false;
    this.options.onRedisState?.('unavailable', error);
  }

  private markAvailable(): void {
    if (this.redisAvailable) return;
    this.redisAvailable = true;
    this.options.onRedisState?.('available');
  }
}

/** A client address as the counters key it: IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64. */
export function addressKey(ip: string): string {
  return normalizeIP(ip);
}

/** The draft's header names (lower case, as Fastify keeps them). */
export const RATE_LIMIT_HEADERS = {
  limit: 'ratelimit-limit',
  remaining: 'ratelimit-remaining',
  reset: 'ratelimit-reset',
  policy: 'ratelimit-policy',
  retryAfter: 'retry-after',
} as const;

/** `RateLimit-Policy` of one limit (draft -06 syntax): `<max>;w=<window in whole seconds>`. */
export function rateLimitPolicy(limit: Limit): string {
  return `${limit.max};w=${Math.max(1, Math.ceil(limit.timeWindowMs / 1000))}`;
}

/**
 * The draft's headers for a count against `limit` (what a hand-made check writes, e.g. the
 * registrations' two windows, so that every limit answers alike): policy, limit, remaining, reset,
 * and Retry-After when the count is over the limit.
 */
export function writeRateLimitHeaders(reply: FastifyReply, limit: Limit, count: Count): void {
  const reset = Math.max(1, Math.ceil(count.ttl / 1000));
  void reply.header(RATE_LIMIT_HEADERS.policy, rateLimitPolicy(limit))
    .header(RATE_LIMIT_HEADERS.limit, limit.max)
    .header(RATE_LIMIT_HEADERS.remaining, Math.max(0, limit.max - count.current))
    .header(RATE_LIMIT_HEADERS.reset, reset);
  if (count.current > limit.max) void reply.header(RATE_LIMIT_HEADERS.retryAfter, reset);
}

/**
 * Route config of a limit per client address: `limit` counted under `rule` (routes naming one
 * rule share a budget); no limit (`{}`) when `limit` is undefined (a route file built without
 * one, in tests). Put it in the route's `config` (`config: { ...other, ...perAddress(…) }`); the
 * API documentation lists 429 for every route that has it.
 */
export function perAddress(rule: string, limit: Limit | undefined): { rateLimit?: RateLimitOptions } {
  if (!limit) return {};
  return {
    rateLimit: { max: limit.max, timeWindow: limit.timeWindowMs, keyGenerator: (request: FastifyRequest) => `${rule}:${addressKey(request.ip)}` },
  };
}

/** rateLimitPlugin's options. */
export interface RateLimitPluginOptions {
  /** The shared counters every limited route counts in. */
  counters: RateLimitCounters;
}

/**
 * @fastify/rate-limit for every route registered after it whose config names a `rateLimit`
 * (perAddress), counted in `counters` after validation (preHandler: a malformed request costs
 * nothing), with the draft's headers and RateLimit-Policy, and 429 TOO_MANY_REQUESTS through the
 * shared error handler. Register it once per app, before the routes (fastify-plugin: it reaches
 * every route of the app).
 */
export const rateLimitPlugin: FastifyPluginAsync<RateLimitPluginOptions> = fp(async (app: FastifyInstance, { counters }: RateLimitPluginOptions) => {
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler',
    enableDraftSpec: true,
    store: counters.Store,
    keyGenerator: (request) => addressKey(request.ip),
    errorResponseBuilder: () => new DomainError('TOO_MANY_REQUESTS'),
  });
  // Callback style: the many answers of routes without a limit cost no promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    const limit = request.routeOptions.config.rateLimit;
    if (limit && typeof limit === 'object' && typeof limit.max === 'number' && typeof limit.timeWindow === 'number' && reply.hasHeader(RATE_LIMIT_HEADERS.limit)) {
      void reply.header(RATE_LIMIT_HEADERS.policy, rateLimitPolicy({ max: limit.max, timeWindowMs: limit.timeWindow }));
    }
    done(null, payload);
  });
}, { name: 'sinilill-rate-limits', fastify: '5.x' });
