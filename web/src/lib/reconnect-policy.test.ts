import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF, reconnectDelayMs, shouldReconnect } from './reconnect-policy';

describe('reconnectDelayMs', () => {
  it('doubles from 1 s up to the 30 s ceiling (no spread at random = 0.5)', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((attempt) => reconnectDelayMs(attempt))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('spreads the delay by ±20 % with the random number', () => {
    expect(reconnectDelayMs(0, DEFAULT_BACKOFF, 0)).toBe(800);
    expect(reconnectDelayMs(0, DEFAULT_BACKOFF, 0.999999)).toBe(1_200);
    expect(reconnectDelayMs(10, DEFAULT_BACKOFF, 0)).toBe(24_000);
  });

  it('takes other options (a server retry interval as the first delay)', () => {
    const options = { ...DEFAULT_BACKOFF, initialMs: 5_000, jitter: 0 };
    expect(reconnectDelayMs(0, options, 0)).toBe(5_000);
    expect(reconnectDelayMs(1, options, 0)).toBe(10_000);
  });

  it('treats odd attempts as the first', () => {
    expect(reconnectDelayMs(-3)).toBe(1_000);
    expect(reconnectDelayMs(Number.NaN)).toBe(1_000);
    expect(reconnectDelayMs(1.7)).toBe(2_000);
  });
});

describe('shouldReconnect', () => {
  it('retries network failures, timeouts, rate limits and server errors', () => {
    for (const status of [0, 408, 429, 500, 502, 503, 504]) expect(shouldReconnect(status)).toBe(true);
  });

  it('gives up on the other client errors', () => {
    for (const status of [400, 401, 403, 404, 410]) expect(shouldReconnect(status)).toBe(false);
  });
});
