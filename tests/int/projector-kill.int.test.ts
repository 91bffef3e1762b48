/**
 * The projector as a real process (services/projector/src/server.ts), killed with SIGKILL in the
 * middle of the 2025 import and started again: the read models end with exactly the published
 * figures (nothing lost, nothing counted twice).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, inject, test } from 'vitest';
import { importEdition } from '@sinilill/cli';
import { repoRoot } from '@sinilill/config';
import { WakeUpPublisher } from '@sinilill/messaging';
import { readCheckpoints } from '@sinilill/read-models';
import { eventually } from '../support/stack';
import { FIGURES_2025, FIXTURE_DIR, testApplication, type TestApplication } from '../support/app';

let app: TestApplication | undefined;
const children: ChildProcess[] = [];
const dataDir = mkdtempSync(join(repoRoot, '.tmp-kill-'));

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function startProjectorProcess(databaseUrl: string, prefix: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'services/projector/src/server.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: inject('redisUrl'), DATA_DIR: dataDir,
      JWT_SECRET: 'kill-test-secret-0123456789-0123456789', SWEEP_INTERVAL_MS: '500', BULLMQ_PREFIX: prefix,
    },
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

test('a projector killed mid-import and started again ends with the 2025 figures', async () => {
  app = await testApplication();
  const prefix = `kill${Date.now()}`;
  const publisher = new WakeUpPublisher({ redisUrl: inject('redisUrl'), prefix });
  let projector = startProjectorProcess(app.url, prefix);
  const importing = importEdition({
    dir: FIXTURE_DIR, edition: 2025, commands: app.commands, ids: app.ids, concurrency: 4,
    onProgress: ({ phase, done }) => { if (phase === 'entries' && done % 200 === 0) void publisher.wake(done); },
  });
  // Kill it once it has projected part of the entries.
  const db = app.db;
  await eventually(async () => ((await readCheckpoints(db))['team-stats'] ?? 0) > 4000, 120_000);
  projector.kill('SIGKILL');
  await new Promise((resolve) => projector.once('exit', resolve));
  const checkpointAtKill = (await readCheckpoints(db))['team-stats'] ?? 0;

  projector = startProjectorProcess(app.url, prefix);
  await importing;
  const head = await app.store.headPosition();
  expect(head).toBeGreaterThan(checkpointAtKill);
  await eventually(async () => {
    const checkpoints = await readCheckpoints(db);
    return checkpoints['team-stats'] === head && checkpoints['team-directory'] === head;
  }, 120_000);
  expect(await app.totals()).toEqual(FIGURES_2025);
  const members = await db.withSchema('rm').selectFrom('team_members')
    .select((eb) => eb.fn.sum<number>('distance_hundredths').as('sum')).executeTakeFirstOrThrow();
  const teams = await db.withSchema('rm').selectFrom('team_stats')
    .select((eb) => eb.fn.sum<number>('distance_hundredths').as('sum')).executeTakeFirstOrThrow();
  expect(Number(members.sum)).toBe(Number(teams.sum));
  projector.kill('SIGTERM');
  await publisher.close();
}, 300_000);
