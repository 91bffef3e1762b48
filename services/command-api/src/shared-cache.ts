/**
 * The SharedCache of @sinilill/payments over Redis: the payment provider's bank
 * list is kept once for every command-API process under `${BULLMQ_PREFIX}:` (one prefix per copy
 * of the app sharing a Redis, as the queues and rate limits). The Redis client is the rate
 * limits' (server.ts): 250 ms per command, no offline queue, so a Redis that does not answer fails
 * the lookup at once and the provider falls back to its own copy, then to the provider.
 */
import type { SharedCache } from '@sinilill/payments';

/** What the cache needs of an ioredis client (a stub in tests). */
export interface SharedCacheRedis {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, mode: 'PX', ttlMs: number): Promise<unknown>;
}

/**
 * A SharedCache storing `key` as `${prefix}${key}` with a millisecond expiry (SET … PX).
 * @param prefix e.g. `sinilill:`; keys are our own constants, so nothing from outside enters them.
 */
export function redisSharedCache(redis: SharedCacheRedis, prefix: string): SharedCache {
  return {
    get: (key) => redis.get(prefix + key),
    async set(key, value, ttlMs) {
      await redis.set(prefix + key, value, 'PX', Math.max(1, Math.round(ttlMs)));
    },
  };
}
