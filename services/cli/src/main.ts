/**
 * Operators' tools: `start` (the whole app, embedded by default), `import` (the 2025 export as
 * events), `replay` (rebuild the read models), `migrate` (every schema to its latest migration).
 * Run through the npm scripts of the same names.
 */
import pg from 'pg';
import { loadConfig } from '@sinilill/config';
import { WakeUpPublisher } from '@sinilill/messaging';
import { openApplication } from './application';
import { importEdition } from './import-edition';
import { openInfrastructure } from './infra';
import { describeMigrations, migrateToLatest } from './migrate';
import { progressBar } from './progress';
import { replay } from './replay';
import { start } from './start';

const log = (line: string) => console.log(line);

async function runImport(): Promise<void> {
  const config = loadConfig();
  const infra = await openInfrastructure(config, { redis: 'optional', log });
  const app = await openApplication(config, infra.databaseUrl);
  const publisher = infra.redisUrl ? new WakeUpPublisher({ redisUrl: infra.redisUrl, prefix: config.queuePrefix }) : null;
  try {
    const headBefore = await app.store.headPosition();
    const bar = progressBar();
    const result = await importEdition({
      dir: config.fixtureDir, edition: 2025, commands: app.commands, ids: app.ids,
      onProgress: ({ phase, done, total }) => bar.update(done, total, `import ${phase}`),
      onPhaseDone: (position) => publisher?.wake(position),
    });
    bar.stop();
    const headAfter = await app.store.headPosition();
    log(`imported ${result.teams} teams, ${result.participants} participants, ${result.entries} entries ` +
      `from ${config.fixtureDir} in ${(result.milliseconds / 1000).toFixed(1)} s; ` +
      `events appended: ${headAfter - headBefore} (log head ${headAfter})`);
  } finally {
    await publisher?.close();
    await app.close();
    await infra.stop();
  }
}

async function runReplay(): Promise<void> {
  const config = loadConfig();
  const infra = await openInfrastructure(config, { redis: 'optional', log });
  const app = await openApplication(config, infra.databaseUrl);
  try {
    const { before, after, result, eventsPerSecond } = await replay(app.db, app.store);
    log(`replayed ${result.events} events up to position ${result.position} in ${(result.milliseconds / 1000).toFixed(2)} s (${eventsPerSecond} events/s)`);
    log(`before: ${JSON.stringify(before)}`);
    log(`after:  ${JSON.stringify(after)}`);
  } finally {
    await app.close();
    await infra.stop();
  }
}

async function runMigrate(): Promise<void> {
  const config = loadConfig();
  const infra = await openInfrastructure(config, { redis: 'none', log });
  const pool = new pg.Pool({ connectionString: infra.databaseUrl, max: 2 });
  try {
    for (const line of describeMigrations(await migrateToLatest(pool))) log(line);
  } finally {
    await pool.end();
    await infra.stop();
  }
}

const command = process.argv[2];
const commands: Record<string, () => Promise<void>> = { start, import: runImport, replay: runReplay, migrate: runMigrate };
const run = command ? commands[command] : undefined;
if (!run) {
  console.error(`usage: tsx services/cli/src/main.ts <${Object.keys(commands).join('|')}>`);
  process.exit(2);
}
run().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  if (error instanceof Error && error.cause) console.error('cause:', error.cause);
  process.exit(1);
});
