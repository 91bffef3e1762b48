/**
 * A cache shared by every process of the site: the command API wires one over
 * Redis (services/command-api/src/shared-cache.ts), so that N processes fetch the provider's bank
 * list once per TTL between them, as Montonio asks, rather than once each. Values are strings
 * (JSON); a cache that fails is treated as a miss by its users, never as an error.
 */
export interface SharedCache {
  /** The value stored under `key`, or null when there is none (or it expired). May reject. */
  get(key: string): Promise<string | null>;
  /** Stores `value` under `key` for `ttlMs` milliseconds (> 0), replacing any value. May reject. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
}
