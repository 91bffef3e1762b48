/**
 * The SharedCache of @sinilill/payments over Redis: the payment provider's bank
 * list is kept once for every command-API process under `${BULLMQ_PREFIX}:` (one prefix per copy
 * of the app sharing a Redis, as the queues and rate limits). The Redis client is the rate
 * limits' (server.ts): 250 ms per command, no offline queue, so a Redis that does not answer fails
 * the lookup at once and the provider falls back to its own copy, then to the provider.
 */
import type { SharedCache } from '@sinilill/payments';

/**
 * A SharedCache in this process's memory (a process without Redis, tests): values expire after
 * their TTL; at most `max` are kept (the oldest go first).
 */
export function localSharedCache(max = 10_000): SharedCache {
  const values = new Map<string, { value: string; expiresAt: number }>();
  return {
    async get(key) {
      const entry = values.get(key);
      if (!entry || entry.expiresAt <= Date.now()) return null;
      return entry.value;
    },
    async set(key, value, ttlMs) {
      values.delete(key);
      values.set(key, { value, expiresAt: Date.now() + ttlMs });
      while (values.size > max) values.delete(values.keys().next().value!);
    },
  };
}

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
