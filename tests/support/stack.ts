/**
 * The whole application as `npm start` runs it (embedded PostgreSQL, a local redis-server, both
 * APIs, the projector and the gateway from the compiled build, and the built web client), on free ports with its own data
 * folder, for end-to-end tests.
 *
 * The launcher writes to a log file in its data folder rather than to a pipe, so that a stack can
 * outlive the test process that started it (shared-stack.ts hands one stack to many test files)
 * and any process can read what it printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@sinilill/config';
import { freePortBlock } from '@sinilill/local-infra';

export interface RunningStack {
  baseUrl: string;
  /** The launcher's DATA_DIR (embedded PostgreSQL in postgres/, MailDev's mail in mail/). */
  dataDir: string;
  /** Everything the launcher printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * What every test stack runs with unless its caller says otherwise: the clock of the tests
 * written before editions were data (the last days of April 2025, the 2025 edition open) and
 * no launcher demo (DEMO_NEXT_EDITION empty: 2025 stays as imported). The launcher's own
 * defaults (February 2026, 2025 archived and 2026 announced) are opted into with LAUNCHER_DEMO.
 */
export const TEST_STACK_DEFAULTS = { CLOCK_START: '2025-04-30T12:00:00+03:00', DEMO_NEXT_EDITION: '' } as const;

/**
 * The launcher's demo as `npm start` runs it without configuration: 2025 imported and closed,
 * 2026 planned and opened, the clock in February 2026 (between the editions). Pass it to
 * startStack or sharedStack, with another CLOCK_START to see 2026 running (e.g. April 2026).
 */
export const LAUNCHER_DEMO = { DEMO_NEXT_EDITION: '2026', CLOCK_START: '2026-02-15T12:00:00+02:00' } as const;

/** Where and how a stack starts: by default the compiled launcher in this checkout. */
export interface StackLaunch {
  /** The checkout or deployment folder the launcher runs in. */
  root: string;
  /** The program and its arguments (default: this Node running bin/sinilill.mjs start). */
  command?: [string, ...string[]];
}

/** The file in a stack's data folder that holds everything its launcher printed. */
export const launcherLog = (dataDir: string): string => join(dataDir, 'launcher.log');

/** Everything the launcher of the stack in `dataDir` printed so far ('' once the folder is gone). */
export function readLauncherLog(dataDir: string): string {
  try {
    return readFileSync(launcherLog(dataDir), 'utf8');
  } catch {
    return '';
  }
}

/** Sends `signal` to the process group led by `pid`; false when no process of it is left. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether `pid` still runs (a zombie, exited but not yet reaped, counts as gone). */
function runs(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Resolves once `done()` holds, checking every `everyMs`, or after `boundMs` (false then). */
async function until(done: () => boolean, boundMs: number, everyMs = 100): Promise<boolean> {
  for (const deadline = Date.now() + boundMs; !done(); ) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return true;
}

/**
 * Stops the stack whose launcher is `pid` (the leader of its own process group) and removes its
 * data folder. Works from any process, not only the one that started the stack.
 */
export async function stopStackProcesses(pid: number, dataDir: string): Promise<void> {
  if (runs(pid)) {
    process.kill(pid, 'SIGTERM');
    // Past the launcher's own bound (its services' 10 s, SIGKILL at 12 s, then the infra).
    if (!(await until(() => !runs(pid), 30_000))) signalGroup(pid, 'SIGKILL');
  }
  // The launcher stops its services before it exits; whatever is still left of the group after
  // a grace period (a service orphaned by a launcher that died) is killed, so no stack outlives
  // its test (seen: APIs and MailDev of a deployment left running after a CI run).
  await until(() => !signalGroup(pid, 0), 20_000);
  signalGroup(pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}

/** Whether a build holds the launcher's lock in `root` (one older than 10 min is left over, as the launcher judges). */
function buildUnderWay(root: string): boolean {
  try {
    return Date.now() - statSync(join(root, '.data/build.lock')).mtimeMs < 10 * 60_000;
  } catch {
    return false;
  }
}

/**
 * Math.random narrowed to this lane's share of [0, 1) when the browser tests run in lanes
 * (run-e2e.ts sets E2E_LANE to `i/n`): the lanes' stacks then take their ports from separate
 * ranges and never pick the same free block at once.
 */
function laneRandom(): () => number {
  const lane = /^(\d+)\/(\d+)$/.exec(process.env.E2E_LANE ?? '');
  const [index, count] = lane ? [Number(lane[1]), Number(lane[2])] : [1, 1];
  if (!(count >= 1 && index >= 1 && index <= count)) return Math.random;
  return () => (index - 1 + Math.random()) / count;
}

/** Starts `npm start`'s launcher and resolves once it prints "ready"; `env` over TEST_STACK_DEFAULTS. */
export async function startStack(env: NodeJS.ProcessEnv = {}, timeoutMs = 240_000, launch: StackLaunch = { root: repoRoot }): Promise<RunningStack & { pid: number }> {
  const dataDir = mkdtempSync(join(repoRoot, '.tmp-e2e-'));
  chmodSync(dataDir, 0o755);
  // Seven consecutive ports from PORT: gateway, command API, query API, PostgreSQL, Redis, and
  // MailDev's SMTP and web ports.
  const port = await freePortBlock(7, laneRandom());
  // What `npm start` runs: the compiled launcher, which rebuilds first when the sources changed.
  const [program, ...args] = launch.command ?? [process.execPath, join(launch.root, 'services/cli/bin/sinilill.mjs'), 'start'];
  // A build under way (the launcher's lock, services/cli/bin/sinilill.mjs) rewrites the folders
  // the launcher starts from: wait for it (the stack broker builds the production deployment).
  await until(() => !buildUnderWay(launch.root), timeoutMs);
  const log = openSync(launcherLog(dataDir), 'a');
  const child: ChildProcess = spawn(program, args, {
    cwd: launch.root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', JWT_SECRET: '', ...TEST_STACK_DEFAULTS, ...env },
    stdio: ['ignore', log, log],
    // A process group of its own (npm, the launcher, its services, PostgreSQL, Redis, MailDev), so
    // that stop() can make sure nothing of the stack outlives it.
    detached: true,
  });
  closeSync(log);
  const pid = child.pid!;
  let exitCode: number | null | undefined;
  child.once('exit', (code) => { exitCode = code; });
  const output = () => readLauncherLog(dataDir);
  const stop = () => stopStackProcesses(pid, dataDir);
  const ready = await until(() => exitCode !== undefined || output().includes('[start] ready:'), timeoutMs);
  if (!ready || exitCode !== undefined) {
    const printed = output();
    await stop();
    throw new Error(ready ? `npm start exited early (${exitCode}):\n${printed}` : `stack not ready in ${timeoutMs} ms:\n${printed}`);
  }
  // The stack may outlive this process (a shared stack): nothing here keeps the process alive.
  child.unref();
  return { baseUrl: `http://127.0.0.1:${port}`, dataDir, pid, output, stop };
}

/** Waits until `probe` returns true, polling. */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
