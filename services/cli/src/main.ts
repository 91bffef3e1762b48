/**
 * Operators' tools: `start` (the whole app, embedded by default), `import` (an edition's export
 * as events, in bulk, into its edition: `--year <year>` (default: the year the export says),
 * `--dir <path>` (default FIXTURE_DIR); `import --synthetic <events>` a synthetic edition of that size), `replay`
 * (rebuild the read models), `migrate` (every schema to its latest migration), `backup [file]` and
 * `restore <file>` (backup-commands.ts, docs/backup.md), `copy-log`
 * (the event log into another store, copy-log-command.ts), `admin add|remove EMAIL` and `admin list`
 * (administrators; admin-command.ts).
 * Run through the npm scripts of the same names.
 */
import pg from 'pg';
import { loadConfig } from '@sinilill/config';
import { WakeUpPublisher } from '@sinilill/messaging';
import { openApplication } from './application';
import { runAdmin } from './admin-command';
import { runBackup, runRestore } from './backup-commands';
import { runCopyLog } from './copy-log-command';
import { importYear } from './edition-setup';
import { describeAssumedFees, importEdition, importRows, type ImportProgress, type ImportResult } from './import-edition';
import { parseImportFlags } from './import-flags';
import { openInfrastructure } from './infra';
import { describeMigrations, migrateToLatest } from './migrate';
import { progressBar } from './progress';
import { checksumLines, replay } from './replay';
import { start } from './start';
import { syntheticEdition } from './synthetic-edition';

const log = (line: string) => console.log(line);

/** First ids of a synthetic edition: past the 2025 export's, so that both fit in one database. */
const SYNTHETIC_FIRST_IDS = { team: 100_001, participant: 1_000_001, entry: 10_000_001 };

async function runImport(): Promise<void> {
  const flags = parseImportFlags(process.argv.slice(3));
  const config = loadConfig();
  const infra = await openInfrastructure(config, { redis: 'optional', log });
  const app = await openApplication(config, infra.databaseUrl);
  const publisher = infra.redisUrl ? new WakeUpPublisher({ redisUrl: infra.redisUrl, prefix: config.queuePrefix }) : null;
  try {
    const headBefore = await app.store.headPosition();
    const bar = progressBar();
    const common = {
      store: app.store, pool: app.pool, directory: app.directory, ids: app.ids,
      ...(flags.batchEvents ? { batchEvents: flags.batchEvents } : {}),
      onProgress: ({ phase, done, total }: ImportProgress) => bar.update(done, total, `import ${phase}`),
      onPhaseDone: (position: number) => publisher?.wake(position),
    };
    const dir = flags.dir ?? config.fixtureDir;
    let source = dir;
    let result: ImportResult;
    if (flags.synthetic !== null) {
      const generating = performance.now();
      const rows = syntheticEdition({ events: flags.synthetic, seed: flags.seed, accounts: true, firstIds: SYNTHETIC_FIRST_IDS });
      source = `a synthetic edition (seed ${flags.seed}, ~${rows.expectedEvents} events, made in ${((performance.now() - generating) / 1000).toFixed(2)} s)`;
      result = await importRows(rows, { ...common, label: `synthetic-${flags.synthetic}-s${flags.seed}` });
    } else {
      const year = importYear(dir, flags.year);
      source = `${dir} into the edition of ${year}`;
      result = await importEdition({ ...common, dir, edition: year, commands: app.commands });
    }
    bar.stop();
    const headAfter = await app.store.headPosition();
    const appended = headAfter - headBefore;
    const seconds = result.milliseconds / 1000;
    log(`imported ${result.teams} teams, ${result.participants} participants, ${result.entries} entries ` +
      `from ${source} in ${seconds.toFixed(1)} s; ` +
      `events appended: ${appended} (${Math.round(appended / seconds)} events/s; log head ${headAfter})`);
    log(describeAssumedFees(result.assumedFees));
    if (result.timings) {
      const { loadMs, decideMs, reserveMs, appendMs } = result.timings;
      const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
      log(`time: reading streams ${s(loadMs)}, deciding ${s(decideMs)}, account tables ${s(reserveMs)}, appending ${s(appendMs)}`);
    }
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
    const { before, after, result, eventsPerSecond, record } = await replay(app.db, app.store);
    log(`replayed ${result.events} events up to position ${result.position} in ${(result.milliseconds / 1000).toFixed(2)} s (${eventsPerSecond} events/s)`);
    // ru_maxrss: the process's peak resident memory, KB on Linux (at most 300 MB).
    log(`peak resident memory: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
    log('read-model tables, rebuilt vs live, compared before the swap:');
    for (const line of checksumLines(record.checksums ?? [])) log(line);
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
const commands: Record<string, () => Promise<void>> = {
  start, import: runImport, replay: runReplay, migrate: runMigrate,
  backup: () => runBackup(process.argv.slice(3)), restore: () => runRestore(process.argv.slice(3)),
  'copy-log': () => runCopyLog(process.argv.slice(3)),
  admin: () => runAdmin(process.argv.slice(3)),
};
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
