/**
 * The gateway's upstream lists: round-robin, an unreachable upstream passed
 * over for a while, and which failed requests may be sent to the next one.
 */
import { describe, expect, test } from 'vitest';
import { UpstreamPool, mayResend, upstreamFailure } from './upstreams';

const A = 'http://127.0.0.1:3001';
const B = 'http://127.0.0.1:3011';
const C = 'http://127.0.0.1:3021';

describe('UpstreamPool', () => {
  test('given three upstreams, requests go round-robin', () => {
    const pool = new UpstreamPool([A, B, C]);
    expect(Array.from({ length: 6 }, () => pool.next())).toEqual([A, B, C, A, B, C]);
  });

  test('one marked down is passed over until its mark ends', () => {
    let now = 0;
    const pool = new UpstreamPool([A, B], { downMs: 2_000, now: () => now });
    pool.markDown(A);
    expect(Array.from({ length: 4 }, () => pool.next())).toEqual([B, B, B, B]);
    expect(pool.isDown(A)).toBe(true);
    now = 2_001;
    expect(pool.isDown(A)).toBe(false);
    expect(new Set(Array.from({ length: 4 }, () => pool.next()))).toEqual(new Set([A, B]));
  });

  test('when every one is down, the one back soonest is still tried; tried ones are skipped', () => {
    let now = 0;
    const pool = new UpstreamPool([A, B, C], { downMs: 1_000, now: () => now });
    pool.markDown(B);
    now = 10;
    pool.markDown(A);
    pool.markDown(C);
    expect(pool.next()).toBe(B);
    expect(pool.pick(new Set([B]))).toBe(A);
    expect(pool.pick(new Set([A, B, C]))).toBeUndefined();
  });

  test('a single URL, duplicates and an empty list', () => {
    expect(new UpstreamPool([A, A]).urls).toEqual([A]);
    expect(() => new UpstreamPool([])).toThrow(/at least one/);
  });
});

describe('which failures are sent on', () => {
  test('a refused connection is unreachable, a lost one lost, anything else neither', () => {
    expect(upstreamFailure(['FST_REPLY_FROM_INTERNAL_SERVER_ERROR', 'ECONNREFUSED'])).toBe('unreachable');
    expect(upstreamFailure(['UND_ERR_CONNECT_TIMEOUT'])).toBe('unreachable');
    expect(upstreamFailure(['FST_REPLY_FROM_UNDICI_SOCKET_ERROR', 'UND_ERR_SOCKET'])).toBe('lost');
    expect(upstreamFailure(['ECONNRESET'])).toBe('lost');
    expect(upstreamFailure(['UND_ERR_HEADERS_TIMEOUT'])).toBeNull();
    expect(upstreamFailure([])).toBeNull();
  });

  test('reads and commands with a usable Idempotency-Key may be resent; other commands never', () => {
    expect(mayResend('GET', {})).toBe(true);
    expect(mayResend('HEAD', {})).toBe(true);
    expect(mayResend('POST', { 'idempotency-key': 'client-1:entry-0001' })).toBe(true);
    expect(mayResend('PUT', { 'idempotency-key': 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' })).toBe(true);
    expect(mayResend('POST', {})).toBe(false);
    // A key the command API ignores (too short, other characters) makes a new command each time.
    expect(mayResend('POST', { 'idempotency-key': 'short' })).toBe(false);
    expect(mayResend('DELETE', { 'idempotency-key': 'has spaces in it' })).toBe(false);
    expect(mayResend('POST', { 'idempotency-key': ['key-one-1234', 'key-two-1234'] })).toBe(false);
  });
});
