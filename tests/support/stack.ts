/**
 * The whole application as `npm start` runs it (embedded PostgreSQL, a local redis-server, both
 * APIs, the projector and the gateway from the compiled build, and the built web client), on free ports with its own data
 * folder, for end-to-end tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
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

/** Where and how a stack starts: by default the compiled launcher in this checkout. */
export interface StackLaunch {
  /** The checkout or deployment folder the launcher runs in. */
  root: string;
  /** The program and its arguments (default: this Node running bin/sinilill.mjs start). */
  command?: [string, ...string[]];
}

/** Starts `npm start`'s launcher and resolves once it prints "ready". */
export async function startStack(env: NodeJS.ProcessEnv = {}, timeoutMs = 240_000, launch: StackLaunch = { root: repoRoot }): Promise<RunningStack> {
  const dataDir = mkdtempSync(join(repoRoot, '.tmp-e2e-'));
  chmodSync(dataDir, 0o755);
  // Seven consecutive ports from PORT: gateway, command API, query API, PostgreSQL, Redis, and
  // MailDev's SMTP and web ports.
  const port = await freePortBlock(7);
  // What `npm start` runs: the compiled launcher, which rebuilds first when the sources changed.
  const [program, ...args] = launch.command ?? [process.execPath, join(launch.root, 'services/cli/bin/sinilill.mjs'), 'start'];
  const child: ChildProcess = spawn(program, args, {
    cwd: launch.root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', JWT_SECRET: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own (npm, the launcher, its services, PostgreSQL, Redis, MailDev), so
    // that stop() can make sure nothing of the stack outlives it.
    detached: true,
  });
  /** Sends `signal` to the stack's whole process group; false when no process of it is left. */
  const signalGroup = (signal: NodeJS.Signals | 0): boolean => {
    try {
      process.kill(-child.pid!, signal);
      return true;
    } catch {
      return false;
    }
  };
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        // Past the launcher's own bound (its services' 10 s, SIGKILL at 12 s, then the infra).
        setTimeout(() => signalGroup('SIGKILL'), 30_000).unref();
      });
    }
    // The launcher stops its services before it exits; whatever is still left of the group after
    // a grace period (a service orphaned by a launcher that died) is killed, so no stack outlives
    // its test (seen: APIs and MailDev of a deployment left running after a CI run).
    for (let waited = 0; signalGroup(0) && waited < 20_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    signalGroup('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stack not ready in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const check = setInterval(() => {
      if (output.includes('[start] ready:')) {
        clearInterval(check);
        clearTimeout(timer);
        resolve();
      }
    }, 100);
    child.once('exit', (code) => {
      clearInterval(check);
      clearTimeout(timer);
      reject(new Error(`npm start exited early (${code}):\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { baseUrl: `http://127.0.0.1:${port}`, dataDir, output: () => output, stop };
}

/** Waits until `probe` returns true, polling. */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
