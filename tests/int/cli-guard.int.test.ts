/**
 * The operators' tools touch only a database they started or were told about (`npm run
 * replay` without PORT rebuilt whatever PostgreSQL listened on the default port). Here a real
 * PostgreSQL — the suite's own server — listens where the tools would look for this data
 * folder's embedded one (PORT + 3): `replay` and `migrate` refuse, say how to point them at it,
 * and leave it untouched.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, expect, inject, test } from 'vitest';
import { repoRoot } from '@sinilill/config';

const dataDir = mkdtempSync(join(repoRoot, '.tmp-cli-guard-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function databases(serverUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return (await client.query<{ datname: string }>('SELECT datname FROM pg_database ORDER BY 1')).rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
}

test.each(['replay', 'migrate'])('`%s` refuses a PostgreSQL on PORT+3 that is not its data folder\'s, and changes nothing there', async (command) => {
  const serverUrl = inject('databaseServerUrl');
  const strangerPort = Number(new URL(serverUrl).port);
  // Other test files make scratch databases on this server meanwhile: what matters is the
  // database the tools would have used (and a replay would have rebuilt), `sinilill`.
  expect(await databases(serverUrl)).not.toContain('sinilill');
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'services/cli/src/main.ts'), command], {
    cwd: repoRoot, encoding: 'utf8', timeout: 60_000,
    env: { ...process.env, PORT: String(strangerPort - 3), DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' },
  });
  expect(run.status, run.stdout + run.stderr).toBe(1);
  expect(run.stderr).toContain(`127.0.0.1:${strangerPort} is in use, but not by the embedded PostgreSQL of ${dataDir}`);
  expect(run.stderr).toContain('Set DATABASE_URL');
  // Nothing was made on the stranger (the tools would have created `sinilill` and migrated it).
  expect(await databases(serverUrl)).not.toContain('sinilill');
});
