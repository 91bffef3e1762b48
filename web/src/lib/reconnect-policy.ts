/**
 * When a dropped server-sent event stream (the team page's live updates) tries again: exponential
 * backoff with jitter, so that a restarted server is not hit by every open page in the same second.
 * Pure: the random number comes in as an argument.
 */

export interface BackoffOptions {
  /** Delay before the first retry, ms. A `retry:` field sent by the server replaces it. */
  initialMs: number;
  /** Longest delay, ms. */
  maxMs: number;
  /** Growth per failed attempt. */
  factor: number;
  /** Share of the delay that is randomised, 0..1 (0.2: ±20 %). */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = Object.freeze({ initialMs: 1_000, maxMs: 30_000, factor: 2, jitter: 0.2 });

/**
 * The wait before reconnection attempt `attempt` (0 = the first retry after a drop), ms:
 * min(maxMs, initialMs · factor^attempt), spread by ±jitter with `random` in [0, 1)
 * (0.5 = no spread). Never below 0; a negative or non-finite attempt counts as 0.
 */
export function reconnectDelayMs(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF, random = 0.5): number {
  const n = Number.isFinite(attempt) && attempt > 0 ? Math.floor(attempt) : 0;
  const base = Math.min(options.maxMs, options.initialMs * options.factor ** n);
  const spread = 1 + options.jitter * (2 * random - 1);
  return Math.max(0, Math.round(base * spread));
}

/**
 * Whether a failed connection is worth another try, by its HTTP status (0: no answer at all, a
 * network failure): yes for network failures, timeouts, rate limiting and server errors; no for
 * the other client errors — 401/403 end the session, 404 means the team is gone, 400 will not
 * heal by repeating it.
 */
export function shouldReconnect(status: number): boolean {
  if (status === 0 || status === 408 || status === 429) return true;
  return status >= 500;
}
