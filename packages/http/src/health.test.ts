/**
 * Readiness checks: /health/ready runs them, names the failing ones in a 503,
 * bounds each by a timeout, and still answers 503 without running them once the app closes.
 */
import { describe, expect, test } from 'vitest';
import { createApp } from './index';
import { healthRoutes, migrationsCheck, postgresCheck, redisCheck, withTimeout, type ReadinessCheck } from './health';

const passing = (name: string): ReadinessCheck => ({ name, check: async () => undefined });
const failing = (name: string): ReadinessCheck => ({ name, check: async () => { throw new Error(`${name} is down`); } });

async function appWith(checks: readonly ReadinessCheck[], checkTimeoutMs?: number) {
  const app = createApp();
  app.register(healthRoutes, { checks, ...(checkTimeoutMs === undefined ? {} : { checkTimeoutMs }) });
  await app.ready();
  return app;
}

describe('GET /health/ready with checks', () => {
  test('200 { ready: true } when every check passes', async () => {
    const app = await appWith([passing('postgres'), passing('redis')]);
    const answer = await app.inject({ method: 'GET', url: '/health/ready' });
    expect([answer.statusCode, answer.json()]).toEqual([200, { ready: true }]);
    await app.close();
  });

  test('503 naming every failing check, in the order given', async () => {
    const app = await appWith([failing('postgres'), passing('migrations'), failing('redis')]);
    const answer = await app.inject({ method: 'GET', url: '/health/ready' });
    expect([answer.statusCode, answer.json()]).toEqual([503, { ready: false, failed: ['postgres', 'redis'] }]);
    await app.close();
  });

  test('a check that outlasts its bound fails; a check that throws synchronously fails too', async () => {
    const hanging: ReadinessCheck = { name: 'redis', check: () => new Promise(() => undefined) };
    const throwing: ReadinessCheck = { name: 'lag', check: () => { throw new Error('boom'); } };
    const app = await appWith([hanging, throwing, passing('postgres')], 50);
    const started = performance.now();
    const answer = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(performance.now() - started).toBeLessThan(1000);
    expect([answer.statusCode, answer.json()]).toEqual([503, { ready: false, failed: ['redis', 'lag'] }]);
    await app.close();
  });

  test('turns ready again when the failing check passes again', async () => {
    let up = false;
    const app = await appWith([{ name: 'redis', check: async () => { if (!up) throw new Error('down'); } }]);
    expect((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(503);
    up = true;
    expect((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
    await app.close();
  });

  test('once closing: 503 { ready: false } without running the checks', async () => {
    let runs = 0;
    const app = await appWith([{ name: 'postgres', check: async () => { runs += 1; } }]);
    app.readiness.notReady();
    const answer = await app.inject({ method: 'GET', url: '/health/ready' });
    expect([answer.statusCode, answer.json(), runs]).toEqual([503, { ready: false }, 0]);
    await app.close();
  });
});

describe('the standard checks', () => {
  test('postgresCheck runs SELECT 1; redisCheck pings; both fail with their client', async () => {
    const queries: string[] = [];
    await postgresCheck({ query: async (text) => { queries.push(text); } }).check();
    expect(queries).toEqual(['SELECT 1']);
    await expect(postgresCheck({ query: async () => { throw new Error('ECONNREFUSED'); } }).check()).rejects.toThrow('ECONNREFUSED');
    await redisCheck({ ping: async () => 'PONG' }).check();
    await expect(redisCheck({ ping: async () => { throw new Error('Connection is closed.'); } }).check()).rejects.toThrow('closed');
    expect([postgresCheck({ query: async () => undefined }).name, redisCheck({ ping: async () => 'PONG' }).name]).toEqual(['postgres', 'redis']);
  });

  test('migrationsCheck names the pending migrations, and asks no more once none were pending', async () => {
    let pending = ['rm/2026-010-x'];
    let asked = 0;
    const check = migrationsCheck(async () => { asked += 1; return pending; });
    expect(check.name).toBe('migrations');
    await expect(check.check()).rejects.toThrow('pending migrations: rm/2026-010-x');
    pending = [];
    await check.check();
    await check.check();
    expect(asked).toBe(2);
  });

  test('withTimeout passes a value through and rejects a late one', async () => {
    await expect(withTimeout(Promise.resolve(7), 50)).resolves.toBe(7);
    await expect(withTimeout(new Promise(() => undefined), 20)).rejects.toThrow('timed out after 20 ms');
  });
});
