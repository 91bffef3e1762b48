/**
 * The SharedCache of @sinilill/payments over Redis: the payment provider's bank
 * list is kept once for every command-API process under `${BULLMQ_PREFIX}:` (one prefix per copy
 * of the app sharing a Redis, as the queues and rate limits). The Redis client is the rate
 * limits' (server.ts): 250 ms per command, no offline queue, so a Redis that does not answer fails
 * the lookup at once and the provider falls back to its own copy, then to the provider.
 */
import { DomainError } from '@sinilill/domain';
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

/** How long a keyed request's kept answer serves its retries: a day (a retry follows within seconds; a day covers a reload). */
export const KEPT_ANSWER_TTL_MS = 24 * 60 * 60_000;

/**
 * Runs a keyed request whose effects leave no event in the log (mails only, e.g. the returning
 * members' invitations) once per Idempotency-Key (docs/decisions/0108): the first answer is kept in
 * `cache` for KEPT_ANSWER_TTL_MS under the command id, with the request fingerprint; a repeat with
 * the same fingerprint answers it without running; another request under the key is
 * IDEMPOTENCY_KEY_REUSED. Without a key (no fingerprint) `run` just runs. Run it inside
 * CommandService.idempotent, so that repeats in one process wait for the first. A cache that fails
 * is a miss: the request then runs again.
 * @throws DomainError('IDEMPOTENCY_KEY_REUSED'); whatever `run` throws (nothing is kept then).
 */
export async function onceWithKeptAnswer<T>(
  cache: SharedCache,
  metadata: { commandId: string; requestFingerprint?: string },
  run: () => Promise<T>,
): Promise<T> {
  const { commandId, requestFingerprint } = metadata;
  if (requestFingerprint === undefined) return run();
  const key = `kept-answer:${commandId}`;
  const kept = await cache.get(key).catch(() => null);
  if (kept !== null) {
    const { fingerprint, answer } = JSON.parse(kept) as { fingerprint: string; answer: T };
    if (fingerprint !== requestFingerprint) throw new DomainError('IDEMPOTENCY_KEY_REUSED', `command ${commandId} was another request`);
    return answer;
  }
  const answer = await run();
  await cache.set(key, JSON.stringify({ fingerprint: requestFingerprint, answer }), KEPT_ANSWER_TTL_MS).catch(() => undefined);
  return answer;
}
