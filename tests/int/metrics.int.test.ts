/**
 * Health and Prometheus metrics.
 *
 * - The projector as a real process (services/projector/src/server.ts, PROJECTOR_PORT=0): while
 *   one projection is held back (the test holds its advisory lock, the one every batch of it
 *   takes, so nothing is left to luck) a burst of appends raises its
 *   `sinilill_projection_lag_events` by exactly the events appended, its lag in seconds grows,
 *   and /health/ready answers 503 naming 'lag' (PROJECTOR_READY_MAX_LAG=100); let go, the lag
 *   returns to 0, a batch duration is recorded and /health/ready answers 200 again. The queue
 *   counts, the replay ratio and the process metrics are scraped too.
 * - A PROJECTOR_PORT that is taken: an error in the log, and the projector works without its server.
 * - The command API, the query API and the gateway as real processes: /health/live,
 *   /health/ready (PostgreSQL, migrations, Redis) and /metrics with the process metrics and the
 *   request durations labelled by route pattern.
 * - The append metrics (withAppendMetrics) count appends, events, conflicts and latency.
 * - A readiness check that fails (a Redis URL whose port nobody listens on) answers 503 naming it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { buildCommandApi, withAppendMetrics } from '@sinilill/command-api';
import type { CommandRequest } from '@sinilill/commands';
import { repoRoot } from '@sinilill/config';
import type { ActingUser, EntryAdded } from '@sinilill/domain';
import { WrongExpectedRevisionError, eventStoreMigrations, pendingMigrations, type AppendRequest } from '@sinilill/event-store';
import { createApp, createMetricsRegistry, healthRoutes, migrationsCheck, postgresCheck, redisCheck } from '@sinilill/http';
import { freePort, freePortBlock } from '@sinilill/local-infra';
import { buildQueryApi } from '@sinilill/query-api';
import { projections, readModelMigrationSet } from '@sinilill/read-models';
import { spawnService, waitForOk, type ServiceProcess } from '../support/service-process';
import { eventually } from '../support/stack';
import { testApplication, type TestApplication } from '../support/app';

const SECRET = 'metrics-test-secret-0123456789-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const TEAM = 1;
const PARTICIPANT = 11;
const NAMES = projections.map((p) => p.name);
const run = randomUUID().slice(0, 8);
const system = (id: string): CommandRequest => ({ actor: SYSTEM, metadata: { commandId: `${run}-${id}`, correlationId: `${run}-${id}`, causationId: null } });

let app: TestApplication;
const dataDir = mkdtempSync(join(repoRoot, '.tmp-metrics-'));
const services: ServiceProcess[] = [];

/** One sample of a scrape: its metric name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text-format scrape (comments skipped). */
function parseScrape(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) return [];
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    return [{ name: match[1]!, labels, value: Number(match[3]) }];
  });
}

/** The value of the one sample called `name` whose labels include `labels`; undefined when none. */
function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

async function scrape(base: string): Promise<Sample[]> {
  const response = await fetch(`${base}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parseScrape(await response.text());
}

async function ready(base: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}/health/ready`);
  return { status: response.status, body: await response.json() };
}

/** Appends `count` EntryAdded of the test's participant (500 to a call: one group-committed append each). */
async function appendEntries(count: number, firstId: number): Promise<void> {
  const at = '2025-04-20T09:30:00.000Z';
  for (let start = 0; start < count; start += 500) {
    const size = Math.min(500, count - start);
    await app.store.appendToStreams(Array.from({ length: size }, (_, k): AppendRequest => {
      const entryId = firstId + start + k;
      return {
        stream: `entry-${entryId}`,
        expectedRevision: 'no_stream',
        events: [{
          id: randomUUID(), type: 'EntryAdded', schemaVersion: 1,
          data: { entryId, teamId: TEAM, participantId: PARTICIPANT, distance: 0.25, entryType: 'WALK', performedAt: '2025-04-20', createdAt: at, source: { kind: 'manual' } } satisfies EntryAdded['data'],
          metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: `${run}-burst`, causationId: null },
        }],
      };
    }));
  }
}

/** The environment `npm start` gives every service, for this test's database (as tests/int/shutdown.int.test.ts). */
async function serviceEnv(extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  const port = await freePortBlock(3);
  return {
    DATABASE_URL: app.url, REDIS_URL: inject('redisUrl'), BULLMQ_PREFIX: `metrics${run}`, JWT_SECRET: SECRET,
    EMAIL_INDEX_SECRET: 'metrics-email-index-secret-0123456789', SANDBOX_PAYMENT_SECRET: 'metrics-sandbox-payment-secret-0123456789',
    PORT: String(port), COMMAND_API_PORT: String(port + 1), QUERY_API_PORT: String(port + 2),
    DATA_DIR: dataDir, CLOCK: 'simulated', CLOCK_START: '2025-04-20T10:00:00Z', LOG_LEVEL: 'info', ADMIN_EMAIL: '', ADMIN_PASSWORD: '',
    ...extra,
  };
}

/** Waits until the projector has logged `msg` or exited (60 s; then fails with its output). */
async function saidOrExited(projector: ServiceProcess, msg: string): Promise<void> {
  try {
    await eventually(async () => projector.logLines().some((line) => line.msg === msg) || projector.child.exitCode !== null, 60_000);
  } catch {
    throw new Error(`the projector did not log "${msg}" in 60 s:\n${projector.output()}`);
  }
}

function start(file: string, env: NodeJS.ProcessEnv): ServiceProcess {
  const service = spawnService(file, env);
  services.push(service);
  return service;
}

beforeAll(async () => {
  app = await testApplication({ now: () => new Date('2025-04-20T09:00:00Z') });
  await app.commands.registerTeam({ teamId: TEAM, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, system('team'));
  await app.commands.registerParticipant({
    participantId: PARTICIPANT, teamId: TEAM, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980,
    gender: 'FEMALE', isCaptain: true, newsletter: false,
  }, system('participant'));
  await app.project();
}, 120_000);

afterAll(async () => {
  await Promise.all(services.map((service) => service.kill()));
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the projector (a real process)', () => {
  test('the lag rises with a burst the projection cannot take yet, /health/ready turns 503, and both return once it has caught up', async () => {
    const BURST = 3000;
    const MAX_LAG = 100;
    const projector = start('services/projector/src/server.ts', await serviceEnv({
      PROJECTOR_PORT: '0', PROJECTOR_READY_MAX_LAG: String(MAX_LAG), SWEEP_INTERVAL_MS: '250',
    }));
    // PROJECTOR_PORT=0: the port it bound is in its log.
    await saidOrExited(projector, 'health and metrics listening');
    const listening = projector.logLines().find((line) => line.msg === 'health and metrics listening');
    expect(listening, projector.output()).toBeDefined();
    const base = `http://127.0.0.1:${String(listening!.port)}`;
    await waitForOk(`${base}/health/ready`, projector, 60_000);
    // Ready only once it has started: its 'ready' line, which names the port, is out by then.
    const readyLine = projector.logLines().find((line) => line.msg === 'ready');
    expect(readyLine?.port, projector.output()).toBe(listening!.port);
    expect((await fetch(`${base}/health/live`)).status).toBe(200);

    let samples = await scrape(base);
    for (const name of NAMES) {
      expect(valueOf(samples, 'sinilill_projection_lag_events', { projection: name, service: 'projector' })).toBe(0);
      expect(valueOf(samples, 'sinilill_projection_lag_seconds', { projection: name })).toBe(0);
    }
    expect(valueOf(samples, 'sinilill_replay_progress_ratio')).toBe(0);
    for (const queue of [...NAMES.map((name) => `projection-${name}`), 'replay', 'mail', 'strava']) {
      for (const state of ['waiting', 'active', 'failed', 'delayed']) {
        expect(valueOf(samples, 'sinilill_queue_jobs', { queue, state }), `${queue} ${state}`).toBeGreaterThanOrEqual(0);
      }
    }
    expect(valueOf(samples, 'process_cpu_user_seconds_total', { service: 'projector' })).toBeGreaterThan(0);
    // The alerts' series (infra/prometheus/alerts.yml; each read in tests/int/alert-metrics.int.test.ts).
    for (const name of NAMES) expect(valueOf(samples, 'sinilill_parked_events', { projection: name })).toBe(0);
    expect(valueOf(samples, 'sinilill_db_pool_max_connections', { pool: 'main', service: 'projector' })).toBe(10);
    expect(valueOf(samples, 'sinilill_redis_memory_used_bytes')).toBeGreaterThan(0);
    expect(valueOf(samples, 'sinilill_postgres_connections')).toBeGreaterThan(0);
    expect(valueOf(samples, 'sinilill_backup_last_success_timestamp_seconds')).toBe(0);
    const checkpointBefore = valueOf(samples, 'sinilill_projection_checkpoint_position', { projection: 'team-stats' })!;

    // team-stats is held back: every batch of it first takes this lock (read-models lockKey).
    const holder = new pg.Client({ connectionString: app.url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(hashtext($1))', ['projection:rm.team-stats']);
      const batchesBefore = valueOf(await scrape(base), 'sinilill_projection_batch_duration_seconds_count', { projection: 'team-stats' }) ?? 0;
      const seen: number[] = [];
      for (let k = 0; k < BURST / 500; k++) {
        await appendEntries(500, 500_000 + k * 500);
        seen.push(valueOf(await scrape(base), 'sinilill_projection_lag_events', { projection: 'team-stats' })!);
      }
      // Exactly the events appended so far, after each part of the burst.
      expect(seen).toEqual([500, 1000, 1500, 2000, 2500, 3000]);
      // The others are not held back: they catch up meanwhile.
      await eventually(async () => {
        const now = await scrape(base);
        return NAMES.filter((name) => name !== 'team-stats').every((name) => valueOf(now, 'sinilill_projection_lag_events', { projection: name }) === 0);
      }, 30_000);
      // The held projection's lag in seconds grows with the age of its oldest unapplied event.
      await eventually(async () => {
        samples = await scrape(base);
        return (valueOf(samples, 'sinilill_projection_lag_seconds', { projection: 'team-stats' }) ?? 0) >= 1;
      }, 10_000);
      expect(valueOf(samples, 'sinilill_projection_lag_events', { projection: 'team-stats' })).toBe(BURST);
      expect(valueOf(samples, 'sinilill_projection_lag_seconds', { projection: 'team-stats' })).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'sinilill_projection_batch_duration_seconds_count', { projection: 'team-stats' }) ?? 0).toBe(batchesBefore);
      expect(valueOf(samples, 'sinilill_projection_checkpoint_position', { projection: 'team-stats' })).toBe(checkpointBefore);
      expect(await ready(base)).toEqual({ status: 503, body: { ready: false, failed: ['lag'] } });

      await holder.query('SELECT pg_advisory_unlock(hashtext($1))', ['projection:rm.team-stats']);
      const draining: number[] = [];
      await eventually(async () => {
        const lag = valueOf(await scrape(base), 'sinilill_projection_lag_events', { projection: 'team-stats' })!;
        draining.push(lag);
        return lag === 0;
      }, 30_000);
      console.log(`metrics: team-stats lag while held ${seen.join(', ')}; after release ${draining.join(', ')}`);
      samples = await scrape(base);
      expect(valueOf(samples, 'sinilill_projection_lag_seconds', { projection: 'team-stats' })).toBe(0);
      expect(valueOf(samples, 'sinilill_projection_batch_duration_seconds_count', { projection: 'team-stats' })).toBeGreaterThan(batchesBefore);
      expect(valueOf(samples, 'sinilill_projection_checkpoint_position', { projection: 'team-stats' })).toBe(checkpointBefore + BURST);
      expect(await ready(base)).toEqual({ status: 200, body: { ready: true } });
      // The scrapes themselves are request durations of the projector's server.
      expect(valueOf(samples, 'http_request_duration_seconds_count', { route: '/metrics', status_code: '200', method: 'GET' })).toBeGreaterThan(0);
    } finally {
      await holder.end();
    }
    // Nothing went wrong on the way (a scrape-time read that failed would be logged); the changes of
    // readiness are logged, the lag's with its reason.
    const lines = projector.logLines();
    expect(lines.filter((line) => line.level === 50), projector.output()).toEqual([]);
    expect(lines.filter((line) => line.msg === 'metric not read for a scrape'), projector.output()).toEqual([]);
    expect(lines.filter((line) => line.level === 40).map((line) => line.failed)).toContainEqual([{ name: 'lag', error: `more than ${MAX_LAG} events behind: team-stats ${BURST}` }]);
    expect(lines.filter((line) => line.msg === 'ready: every readiness check passes again').length).toBeGreaterThan(0);
    projector.signal('SIGTERM');
    expect((await projector.exited).code, projector.output()).toBe(0);
  }, 180_000);

  test('a PROJECTOR_PORT that is taken is logged as an error, and the projector projects without its server', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const projector = start('services/projector/src/server.ts', await serviceEnv({ PROJECTOR_PORT: String(port), SWEEP_INTERVAL_MS: '250' }));
      await saidOrExited(projector, 'ready');
      const lines = projector.logLines();
      expect(lines.find((line) => line.msg === 'ready')?.port, projector.output()).toBeNull();
      expect(lines.find((line) => line.msg === 'health and metrics server not started; projecting without it')).toMatchObject({
        level: 50, port, err: { message: expect.stringContaining('EADDRINUSE') },
      });
      projector.signal('SIGTERM');
      expect((await projector.exited).code, projector.output()).toBe(0);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 120_000);
});

describe('the APIs and the gateway (real processes)', () => {
  test('answer /health/live, /health/ready and /metrics with process metrics and request durations by route pattern', async () => {
    const env = await serviceEnv();
    const bases = {
      'command-api': `http://127.0.0.1:${env.COMMAND_API_PORT}`,
      'query-api': `http://127.0.0.1:${env.QUERY_API_PORT}`,
      gateway: `http://127.0.0.1:${env.PORT}`,
    };
    const processes = {
      'command-api': start('services/command-api/src/server.ts', env),
      'query-api': start('services/query-api/src/server.ts', env),
      gateway: start('services/gateway/src/server.ts', env),
    };
    for (const [service, base] of Object.entries(bases)) {
      await waitForOk(`${base}/health/ready`, processes[service as keyof typeof processes], 60_000);
      expect(await ready(base)).toEqual({ status: 200, body: { ready: true } });
      expect((await fetch(`${base}/health/live`)).status).toBe(200);
    }
    // A member's page without a token: refused, and still its route pattern.
    expect((await fetch(`${bases['query-api']}/api/team/${TEAM}`)).status).toBe(401);
    expect((await fetch(`${bases['command-api']}/api/entry`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    expect((await fetch(`${bases.gateway}/api/stats`)).status).toBe(200);
    const expected = {
      'query-api': { method: 'GET', route: '/api/team/:id', status_code: '401' },
      'command-api': { method: 'POST', route: '/api/entry', status_code: '401' },
      gateway: { method: 'GET', route: '/api/*', status_code: '200' },
    };
    for (const [service, base] of Object.entries(bases)) {
      const samples = await scrape(base);
      expect(valueOf(samples, 'process_cpu_user_seconds_total', { service }), service).toBeGreaterThan(0);
      expect(valueOf(samples, 'http_request_duration_seconds_count', { service, ...expected[service as keyof typeof expected] }), service).toBe(1);
      // Route patterns only: no raw URL becomes a label.
      expect(samples.some((s) => s.labels.route === `/api/team/${TEAM}`)).toBe(false);
    }
    // Each API's PostgreSQL pools, by their size (the PostgresPoolSaturated alert).
    const commandSamples = await scrape(bases['command-api']);
    expect(valueOf(commandSamples, 'sinilill_db_pool_max_connections', { pool: 'main' })).toBe(20);
    expect(valueOf(commandSamples, 'sinilill_db_pool_max_connections', { pool: 'accounts' })).toBe(10);
    expect(valueOf(await scrape(bases['query-api']), 'sinilill_db_pool_max_connections', { pool: 'main' })).toBe(20);
    // The gateway forwards no /metrics of the APIs': its own answers (its service label).
    expect(valueOf(await scrape(bases.gateway), 'process_cpu_user_seconds_total', { service: 'command-api' })).toBeUndefined();
    await Promise.all(Object.values(processes).map(async (service) => {
      service.signal('SIGTERM');
      expect((await service.exited).code, service.output()).toBe(0);
    }));
  }, 180_000);
});

describe('in process', () => {
  test('the append metrics count appends, events written, conflicts and latency', async () => {
    const registry = createMetricsRegistry('command-api', { defaultMetrics: false });
    const store = withAppendMetrics(app.store, registry);
    const event = () => ({ id: randomUUID(), type: 'SettingsProbe', schemaVersion: 1, data: {}, metadata: { actor: { userId: null, role: 'SYSTEM' as const }, correlationId: run, causationId: null } });
    const stream = `metrics-probe-${run}`;
    const first = [event(), event()];
    await store.appendToStream(stream, first, { expectedRevision: 'no_stream' });
    // An idempotent repeat: counted as an append, writes no event.
    await store.appendToStream(stream, first, { expectedRevision: 'no_stream' });
    await store.appendToStreams([{ stream, events: [event()], expectedRevision: 1 }, { stream: `${stream}-b`, events: [event()], expectedRevision: 'no_stream' }]);
    await expect(store.appendToStream(stream, [event()], { expectedRevision: 0 })).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    // A commands' API built on the same registry serves them.
    const api = buildCommandApi({ commands: app.commands, jwtSecret: SECRET, metrics: registry });
    const samples = parseScrape((await api.inject({ method: 'GET', url: '/metrics' })).body);
    await api.close();
    expect(valueOf(samples, 'sinilill_appends_total', { outcome: 'ok' })).toBe(3);
    expect(valueOf(samples, 'sinilill_appends_total', { outcome: 'conflict' })).toBe(1);
    expect(valueOf(samples, 'sinilill_appended_events_total')).toBe(4);
    expect(valueOf(samples, 'sinilill_append_conflicts_total', { reason: 'revision' })).toBe(1);
    expect(valueOf(samples, 'sinilill_append_duration_seconds_count')).toBe(4);
    expect(valueOf(samples, 'sinilill_append_duration_seconds_sum')).toBeGreaterThan(0);
  });

  test('the query API served in process labels its reads by route pattern', async () => {
    const registry = createMetricsRegistry('query-api', { defaultMetrics: false });
    const api = buildQueryApi({
      db: app.db, now: () => new Date('2025-04-20T10:00:00Z'), readYourWritesTimeoutMs: 3000, jwtSecret: SECRET,
      changes: { subscribe: () => () => undefined }, metrics: registry,
    });
    expect((await api.inject({ method: 'GET', url: '/api/stats' })).statusCode).toBe(200);
    expect((await api.inject({ method: 'GET', url: '/api/no/such/thing' })).statusCode).toBe(404);
    // /metrics reads no read model: an x-min-position far ahead does not hold it up.
    const asked = performance.now();
    const answer = await api.inject({ method: 'GET', url: '/metrics', headers: { 'x-min-position': '999999999' } });
    expect(performance.now() - asked).toBeLessThan(2000);
    expect(answer.statusCode).toBe(200);
    await api.close();
    const samples = parseScrape(answer.body);
    expect(valueOf(samples, 'http_request_duration_seconds_count', { service: 'query-api', route: '/api/stats', status_code: '200' })).toBe(1);
    expect(valueOf(samples, 'http_request_duration_seconds_count', { route: 'unmatched', status_code: '404' })).toBe(1);
  });

  test('a readiness check that fails answers 503 naming it; with every dependency up, 200', async () => {
    const closedPort = await freePort();
    const clients = [
      new Redis(`redis://127.0.0.1:${closedPort}`, { enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 500 }),
      new Redis(inject('redisUrl'), { enableOfflineQueue: false, maxRetriesPerRequest: 0 }),
    ];
    for (const client of clients) client.on('error', () => undefined);
    const migrated = migrationsCheck(() => pendingMigrations(app.pool, [eventStoreMigrations, readModelMigrationSet()]));
    const down = createApp();
    down.register(healthRoutes, { checks: [postgresCheck(app.pool), migrated, redisCheck(clients[0]!)] });
    const up = createApp();
    await new Promise<void>((resolve) => { clients[1]!.once('ready', () => resolve()); });
    up.register(healthRoutes, { checks: [postgresCheck(app.pool), migrated, redisCheck(clients[1]!)] });
    try {
      const refused = await down.inject({ method: 'GET', url: '/health/ready' });
      expect([refused.statusCode, refused.json()]).toEqual([503, { ready: false, failed: ['redis'] }]);
      const fine = await up.inject({ method: 'GET', url: '/health/ready' });
      expect([fine.statusCode, fine.json()]).toEqual([200, { ready: true }]);
      // A schema with a migration the database lacks is not ready: named 'migrations'.
      const ahead = createApp();
      ahead.register(healthRoutes, {
        checks: [migrationsCheck(() => pendingMigrations(app.pool, [{ ...eventStoreMigrations, migrations: { ...eventStoreMigrations.migrations, '9999-future': { up: async () => undefined } } }]))],
      });
      const behind = await ahead.inject({ method: 'GET', url: '/health/ready' });
      expect([behind.statusCode, behind.json()]).toEqual([503, { ready: false, failed: ['migrations'] }]);
      await ahead.close();
    } finally {
      await Promise.all([down.close(), up.close()]);
      for (const client of clients) client.disconnect();
    }
  });
});
