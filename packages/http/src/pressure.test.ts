/**
 * Load shedding: a real @fastify/under-pressure on a real event loop, made to
 * lag by blocking it (a busy loop every few ms), with a small bound so the test stays short.
 * While it lags, /api answers 503 SERVICE_UNAVAILABLE with Retry-After and the health route still
 * answers; once it stops, requests go through again.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createApp } from './index';
import { pressurePlugin } from './pressure';

/** Blocks the event loop for `ms`. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* the overload */ }
}

/** Resolves once `probe()` is true (checked every 5 ms), or throws after `timeoutMs`. */
async function until(probe: () => boolean, timeoutMs: number): Promise<void> {
  const started = performance.now();
  while (!probe()) {
    if (performance.now() - started > timeoutMs) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

let app: FastifyInstance | undefined;
let load: NodeJS.Timeout | undefined;
afterEach(async () => {
  clearInterval(load);
  await app?.close();
});

async function appUnderTest(): Promise<FastifyInstance> {
  const built = createApp();
  await built.register(pressurePlugin, { maxEventLoopDelayMs: 30, sampleIntervalMs: 50, retryAfterSeconds: 3, sustainedSamples: 3 });
  built.get('/api/thing', async () => ({ ok: true }));
  built.get('/health/live', async () => ({ live: true }));
  await built.ready();
  return built;
}

describe('pressurePlugin', () => {
  test('an overloaded event loop answers /api 503 { message: SERVICE_UNAVAILABLE } with Retry-After; health still answers; then it recovers', async () => {
    app = await appUnderTest();
    const ready = app;
    expect((await ready.inject({ method: 'GET', url: '/api/thing' })).statusCode).toBe(200);

    // 150 ms of every 160 blocked: every sample sees a mean delay far above 30 ms.
    load = setInterval(() => busy(150), 10);
    await until(() => ready.isShedding(), 3000);
    const refused = await ready.inject({ method: 'GET', url: '/api/thing' });
    expect([refused.statusCode, refused.json(), refused.headers['retry-after']]).toEqual([503, { message: 'SERVICE_UNAVAILABLE' }, '3']);
    const health = await ready.inject({ method: 'GET', url: '/health/live' });
    expect([health.statusCode, health.json()]).toEqual([200, { live: true }]);

    clearInterval(load);
    await until(() => !ready.isUnderPressure(), 3000);
    expect((await ready.inject({ method: 'GET', url: '/api/thing' })).statusCode).toBe(200);
  });

  test('one slow sample is no overload: /api still answers until the delay has lasted sustainedSamples samples', async () => {
    app = await appUnderTest();
    const ready = app;
    // One block of 120 ms, then nothing: one sample (maybe two) over the bound, never three.
    await new Promise((resolve) => setTimeout(resolve, 60));
    busy(120);
    await until(() => ready.isUnderPressure(), 1000);
    expect(ready.isShedding()).toBe(false);
    expect((await ready.inject({ method: 'GET', url: '/api/thing' })).statusCode).toBe(200);
  });

  test('the defaults: a bound of 1 s, no status route of its own', async () => {
    const built = createApp();
    await built.register(pressurePlugin);
    await built.ready();
    app = built;
    expect(built.memoryUsage().eventLoopDelay).toBeLessThan(1000);
    expect(built.isUnderPressure()).toBe(false);
    expect((await built.inject({ method: 'GET', url: '/status' })).statusCode).toBe(404);
  });
});
