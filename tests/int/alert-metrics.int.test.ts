/**
 * The series the alerts read (infra/prometheus/alerts.yml) against a real PostgreSQL and Redis:
 * the projector's registerOpsMetrics (parked events, the newest failed and completed job of a
 * BullMQ queue, Redis's memory, the last backup that `backup` records, PostgreSQL's connections)
 * and @sinilill/http's registerPoolMetrics (a pool's connections in use, idle and waiting).
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { Registry, registerPoolMetrics } from '@sinilill/http';
import { locateSystemPart } from '@sinilill/local-infra';
import { createMailQueue, createMailWorker, createProjectionQueues, createRedisReader, readBackupRecord, recordBackup, type Queue } from '@sinilill/messaging';
import { registerOpsMetrics, type OpsMetric } from '@sinilill/projector';
import { READ_MODEL_SCHEMA, countParkedEvents, projections } from '@sinilill/read-models';
import { eventually } from '../support/stack';
import { testApplication, type TestApplication } from '../support/app';

const prefix = `alerts${randomUUID().slice(0, 8)}`;
const NAMES = projections.map((p) => p.name);
let app: TestApplication;
let redis: ReturnType<typeof createRedisReader>;
const queues: Queue[] = [];

/** The value of the one sample of `name` whose labels include `labels` in `registry`'s scrape; undefined when none. */
async function valueOf(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const found = (metric?.values ?? []).filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

beforeAll(async () => {
  app = await testApplication({ now: () => new Date('2025-04-20T09:00:00Z') });
  redis = createRedisReader(inject('redisUrl'));
}, 120_000);

afterAll(async () => {
  await Promise.all(queues.map((queue) => queue.obliterate({ force: true }).then(() => queue.close())));
  await redis?.del(`${prefix}:backup:last`);
  redis?.disconnect();
  await app?.close();
});

describe('registerOpsMetrics', () => {
  test('counts the open parks per projection, every projection listed', async () => {
    const registry = new Registry();
    const errors: OpsMetric[] = [];
    registerOpsMetrics(registry, {
      pool: app.pool, queues: [], redis, prefix, parked: () => countParkedEvents(app.db, NAMES), onError: (what) => errors.push(what),
    });
    expect(await valueOf(registry, 'sinilill_parked_events', { projection: 'team-stats' })).toBe(0);
    await app.db.withSchema(READ_MODEL_SCHEMA).insertInto('parked_events').values([
      { projection: 'team-stats', position: 7, event_id: randomUUID(), event_type: 'EntryAdded', error_code: 'FOLD', error: 'a test park', parked_at: new Date(), status: 'parked', resolved_at: null, reason: null },
      { projection: 'team-stats', position: 8, event_id: randomUUID(), event_type: 'EntryAdded', error_code: 'FOLD', error: 'a test park', parked_at: new Date(), status: 'skipped', resolved_at: new Date(), reason: 'test' },
    ]).execute();
    expect(await valueOf(registry, 'sinilill_parked_events', { projection: 'team-stats' })).toBe(1);
    expect(await valueOf(registry, 'sinilill_parked_events', { projection: NAMES.find((n) => n !== 'team-stats')! })).toBe(0);
    expect(errors).toEqual([]);
  });

  test('reports when the newest failed and completed job of each queue finished, and nothing for a queue without them', async () => {
    const redisUrl = inject('redisUrl');
    const mail = createMailQueue<{ fail: boolean }>({ redisUrl, prefix, attempts: 1 });
    const [idle] = createProjectionQueues({ redisUrl, prefix, projections: ['settings'] });
    queues.push(mail, idle!);
    const worker = createMailWorker<{ fail: boolean }>({ redisUrl, prefix }, async (job) => {
      if (job.data.fail) throw new Error('SMTP refused');
      return 'sent';
    });
    try {
      await mail.add('send', { fail: false });
      await mail.add('send', { fail: true });
      await eventually(async () => (await mail.getJobCounts('completed', 'failed')).failed === 1 && (await mail.getJobCounts('completed')).completed === 1, 30_000);
    } finally {
      await worker.close();
    }
    const [failedJob] = await mail.getFailed(0, 0);
    const [completedJob] = await mail.getCompleted(0, 0);

    const registry = new Registry();
    const errors: OpsMetric[] = [];
    registerOpsMetrics(registry, { pool: app.pool, queues: [mail, idle!], redis, prefix, parked: async () => [], onError: (what) => errors.push(what) });
    expect(await valueOf(registry, 'sinilill_queue_last_failure_timestamp_seconds', { queue: 'mail' })).toBe(failedJob!.finishedOn! / 1000);
    expect(await valueOf(registry, 'sinilill_queue_last_completion_timestamp_seconds', { queue: 'mail' })).toBe(completedJob!.finishedOn! / 1000);
    expect(await valueOf(registry, 'sinilill_queue_last_failure_timestamp_seconds', { queue: 'projection-settings' })).toBeUndefined();
    expect(await valueOf(registry, 'sinilill_queue_last_completion_timestamp_seconds', { queue: 'projection-settings' })).toBeUndefined();
    expect(errors).toEqual([]);
  });

  test('reports Redis\'s memory, PostgreSQL\'s connections, and the last backup once one is recorded', async () => {
    const registry = new Registry();
    const errors: OpsMetric[] = [];
    registerOpsMetrics(registry, { pool: app.pool, queues: [], redis, prefix, parked: async () => [], onError: (what) => errors.push(what) });

    expect(await valueOf(registry, 'sinilill_redis_memory_used_bytes')).toBeGreaterThan(0);
    expect(await valueOf(registry, 'sinilill_redis_memory_max_bytes')).toBeGreaterThanOrEqual(0);
    expect(await valueOf(registry, 'sinilill_redis_system_memory_bytes')).toBeGreaterThan(0);
    const { rows: [server] } = await app.pool.query<{ max: number }>(`SELECT current_setting('max_connections')::int AS max`);
    expect(await valueOf(registry, 'sinilill_postgres_max_connections')).toBe(server!.max);
    // This test's pool holds one connection at least while it reads.
    expect(await valueOf(registry, 'sinilill_postgres_connections')).toBeGreaterThanOrEqual(1);

    expect(await valueOf(registry, 'sinilill_backup_last_success_timestamp_seconds')).toBe(0);
    const record = { finishedAt: '2026-04-15T12:00:03.000Z', file: '/tmp/sinilill-20260415T120000Z.dump', bytes: 1234, headPosition: 42 };
    await recordBackup(inject('redisUrl'), record, prefix);
    expect(await readBackupRecord(redis, prefix)).toEqual(record);
    expect(await valueOf(registry, 'sinilill_backup_last_success_timestamp_seconds')).toBe(Date.parse(record.finishedAt) / 1000);
    expect(errors).toEqual([]);

    // Prometheus' own linter finds nothing to say about them, nor about the pools' (names, units, help).
    registerPoolMetrics(registry, { main: app.pool });
    const promtool = process.env.PROMTOOL_PATH || locateSystemPart('promtool');
    expect(promtool, 'promtool (Debian\'s prometheus package, or PROMTOOL_PATH)').toBeTruthy();
    const lint = spawnSync(promtool!, ['check', 'metrics'], { input: await registry.metrics(), encoding: 'utf8' });
    expect(`${lint.stdout}${lint.stderr}`).toBe('');
    expect(lint.status).toBe(0);
  });

  test('a Redis that does not answer makes its series NaN (no value any alert compares) and says so', async () => {
    const registry = new Registry();
    const errors: OpsMetric[] = [];
    const down = createRedisReader('redis://127.0.0.1:1');
    try {
      registerOpsMetrics(registry, { pool: app.pool, queues: [], redis: down, prefix, parked: async () => [], timeoutMs: 2000, onError: (what) => errors.push(what) });
      expect(await valueOf(registry, 'sinilill_redis_memory_used_bytes')).toBeNaN();
      expect(await valueOf(registry, 'sinilill_backup_last_success_timestamp_seconds')).toBeNaN();
      expect(await valueOf(registry, 'sinilill_postgres_max_connections')).toBeGreaterThan(0);
      expect([...new Set(errors)].sort()).toEqual(['backup', 'redis-memory']);
    } finally {
      down.disconnect();
    }
  });
});

describe('registerPoolMetrics', () => {
  test('reports a real pool\'s connections in use, idle and waiting, and its size', async () => {
    const pool = new pg.Pool({ connectionString: app.url, max: 2 });
    try {
      const registry = new Registry();
      registerPoolMetrics(registry, { main: pool });
      expect(await valueOf(registry, 'sinilill_db_pool_max_connections', { pool: 'main' })).toBe(2);
      expect(await valueOf(registry, 'sinilill_db_pool_connections', { pool: 'main', state: 'in_use' })).toBe(0);

      const [a, b] = await Promise.all([pool.connect(), pool.connect()]);
      const third = pool.connect();
      expect(await valueOf(registry, 'sinilill_db_pool_connections', { pool: 'main', state: 'in_use' })).toBe(2);
      expect(await valueOf(registry, 'sinilill_db_pool_waiting_requests', { pool: 'main' })).toBe(1);
      a!.release();
      (await third).release();
      b!.release();
      expect(await valueOf(registry, 'sinilill_db_pool_connections', { pool: 'main', state: 'in_use' })).toBe(0);
      expect(await valueOf(registry, 'sinilill_db_pool_connections', { pool: 'main', state: 'idle' })).toBe(2);
      expect(await valueOf(registry, 'sinilill_db_pool_waiting_requests', { pool: 'main' })).toBe(0);
    } finally {
      await pool.end();
    }
  });
});
