/**
 * The command API as server.ts wires it (a real process), with Strava configured by its
 * environment only (STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET, STRAVA_API_URL, STRAVA_OAUTH_URL) and
 * pointed at the Strava stand-in: at start it subscribes to Strava's webhook events (the stand-in
 * checks the handshake with the verify token derived from JWT_SECRET), a delivered event is
 * answered 200 and worked by the process's own `strava` worker (its metrics at /metrics), and a
 * second start finds the subscription in place. Without the variables, no subscription and the
 * routes say so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { repoRoot } from '@sinilill/config';
import { freePortBlock } from '@sinilill/local-infra';
import { spawnService, waitForOk, type ServiceProcess } from '../support/service-process';
import { eventually } from '../support/stack';
import { testApplication, type TestApplication } from '../support/app';
import { startStravaStandIn, type StravaStandIn } from '../support/strava-stand-in';

const SECRET = 'strava-server-test-secret-that-is-long-enough-0123456789';
const run = `strava-server-${process.pid}-${Date.now()}`;
const dataDir = mkdtempSync(join(repoRoot, '.tmp-strava-server-'));
let app: TestApplication;
let strava: StravaStandIn;
const services: ServiceProcess[] = [];

async function commandApi(extra: NodeJS.ProcessEnv): Promise<{ service: ServiceProcess; base: string }> {
  const port = await freePortBlock(3);
  const base = `http://127.0.0.1:${port + 1}`;
  const service = spawnService('services/command-api/src/server.ts', {
    DATABASE_URL: app.url, REDIS_URL: inject('redisUrl'), BULLMQ_PREFIX: run, JWT_SECRET: SECRET,
    EMAIL_INDEX_SECRET: 'strava-server-email-index-secret-0123456789', SANDBOX_PAYMENT_SECRET: 'strava-server-sandbox-secret-0123456789',
    PORT: String(port), COMMAND_API_PORT: String(port + 1), QUERY_API_PORT: String(port + 2),
    // Strava calls the command API itself here (no front door in this test).
    PUBLIC_URL: base,
    DATA_DIR: dataDir, CLOCK: 'simulated', CLOCK_START: '2025-04-20T10:00:00Z', LOG_LEVEL: 'info', ADMIN_EMAIL: '', ADMIN_PASSWORD: '',
    ...extra,
  });
  services.push(service);
  await waitForOk(`${base}/health/ready`, service, 60_000);
  return { service, base };
}

const said = (service: ServiceProcess, msg: string) => eventually(async () => service.logLines().some((line) => line.msg === msg), 20_000)
  .catch(() => { throw new Error(`not said "${msg}":\n${service.output()}`); });

beforeAll(async () => {
  app = await testApplication();
  strava = await startStravaStandIn({ autoApprove: true });
}, 120_000);

afterAll(async () => {
  await Promise.all(services.map((service) => service.kill()));
  await strava?.close();
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the command API process with Strava configured', () => {
  test('subscribes at start, works a delivered event in its own worker; a process at another address takes the one subscription over', async () => {
    const env = { STRAVA_CLIENT_ID: strava.clientId, STRAVA_CLIENT_SECRET: strava.clientSecret, STRAVA_API_URL: strava.apiUrl, STRAVA_OAUTH_URL: strava.oauthUrl };
    const { service, base } = await commandApi(env);
    await said(service, 'Strava webhook subscription created');
    expect(strava.subscription()).toMatchObject({ callback_url: `${base}/api/strava/webhook` });

    // An event of an athlete nobody here connected: answered 200 at once, and the job does nothing.
    const delivery = await strava.deliver({
      object_type: 'activity', object_id: 42, aspect_type: 'create', updates: {}, owner_id: 99, subscription_id: strava.subscription()!.id, event_time: 1_745_000_000,
    });
    expect(delivery.statuses).toEqual([200]);
    await eventually(async () => (await (await fetch(`${base}/metrics`)).text()).includes('sinilill_strava_jobs_total{kind="activity",outcome="ignored"'), 20_000);
    // The account routes are served (a token is needed).
    expect((await fetch(`${base}/api/me/strava`)).status).toBe(401);

    const second = await commandApi(env);
    // One subscription per application: a process at another address replaces it with its own.
    await said(second.service, 'Strava webhook subscription created');
    expect(strava.subscription()).toMatchObject({ callback_url: `${second.base}/api/strava/webhook` });
    expect(strava.requests.filter((r) => r.method === 'POST' && r.path === '/api/v3/push_subscriptions').map((r) => r.status)).toEqual([201, 201]);
  });

  test('without the application nothing subscribes, and the Strava routes answer STRAVA_NOT_CONFIGURED', async () => {
    const before = strava.requests.length;
    const { base } = await commandApi({});
    const response = await fetch(`${base}/api/strava/webhook?hub.mode=subscribe&hub.verify_token=x&hub.challenge=y`);
    expect([response.status, await response.json()]).toEqual([404, { message: 'STRAVA_NOT_CONFIGURED' }]);
    expect(strava.requests.slice(before)).toEqual([]);
  });
});
