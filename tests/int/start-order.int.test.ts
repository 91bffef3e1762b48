/**
 * A service started before its database waits for it instead of exiting (the projector
 * exited at start when PostgreSQL was not yet up, and only the launcher's restart saved it). The
 * projector is started against a port where nothing listens; PostgreSQL comes up there once it
 * has said twice that it waits, then its database, empty: the projector says it waits for the
 * migrations (CI caught it exiting on "relation rm.checkpoints does not exist" in that gap);
 * once they have run it catches up and reports ready, without having exited.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, expect, inject, test } from 'vitest';
import { migrateToLatest } from '@sinilill/cli';
import { repoRoot } from '@sinilill/config';
import { freePortBlock, startEmbeddedPostgres, type RunningService } from '@sinilill/local-infra';
import { spawnService, type ServiceProcess } from '../support/service-process';

const dataDir = mkdtempSync(join(repoRoot, '.tmp-start-order-'));
let postgres: RunningService | null = null;
let projector: ServiceProcess | null = null;

afterAll(async () => {
  await projector?.kill();
  await postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('the projector waits for a PostgreSQL that is not up yet, then catches up', async () => {
  const port = await freePortBlock(1);
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/late`;
  projector = spawnService('services/projector/src/server.ts', {
    DATABASE_URL: url, REDIS_URL: inject('redisUrl'), BULLMQ_PREFIX: `startorder${port}`,
    DATA_DIR: dataDir, LOG_LEVEL: 'info', SWEEP_INTERVAL_MS: '500',
    JWT_SECRET: 'start-order-test-secret-0123456789-0123456789', EMAIL_INDEX_SECRET: 'start-order-email-index-0123456789-0123',
  });
  let exited = false;
  void projector.exited.then(() => { exited = true; });
  /** The projector's log lines with `message`, once there are `count` (polled for 30 s; it must not exit meanwhile). */
  const logged = async (message: string, count = 1) => {
    const by = Date.now() + 30_000;
    for (;;) {
      const lines = projector!.logLines().filter((line) => line.msg === message);
      if (lines.length >= count) return lines;
      expect(exited, projector!.output()).toBe(false);
      if (Date.now() > by) throw new Error(`no "${message}" ×${count} in 30 s:\n${projector!.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  // Its first attempts fail and it says it waits (a cold start through tsx can take seconds on a
  // busy machine: polled, not slept).
  await logged('PostgreSQL is not reachable yet; waiting', 2);
  expect(exited, projector.output()).toBe(false);

  // The server comes up (database `postgres` only), then the app's database, migrated.
  postgres = await startEmbeddedPostgres({ dataDir: join(dataDir, 'pg'), port, database: 'postgres', persistent: false });
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE DATABASE late');
  await admin.end();
  const [unmigrated] = await logged('the database is not migrated yet (npm run migrate); waiting');
  expect(unmigrated?.pending).toContain('rm/2025-001-initial');
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  await migrateToLatest(pool);
  await pool.end();

  await logged('ready');
  expect(exited).toBe(false);
}, 90_000);
