/**
 * The stack broker: the one place, in vitest's main process, that boots and stops the browser
 * tests' stacks. Test files ask for a stack by leaving a request in the registry folder
 * (shared-stack.ts); the broker answers with the stack's record once it is ready.
 *
 * Why a broker: a boot costs 15–30 s of a run (embedded PostgreSQL, Redis, MailDev, four
 * services, the 2025 import), and a file waited for it. The file order is known before the
 * first file runs (stack-sequencer.ts publishes the stacks the files will ask for, in order:
 * `StackPlan`), so the broker boots the next file's stack while the current file's tests run,
 * and prepares the production test's deployment folder in the background too. Boots run one
 * at a time (two launchers building or importing at once only slow each other on 2 cores).
 *
 * Lifecycle: a shared stack (`sharedStack`) lives until a file asks for a stack that is neither
 * it nor one booted ahead for later files; a stack of a file's own (`ownStack`) is stopped by
 * that file; the run's teardown stops what is left (e2e-global-setup.ts).
 * Measured figures: docs/decisions/0098.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@sinilill/config';
import { startStack, stopStackProcesses } from './stack';
import { publishedStackPlan, type PlannedStack } from './stack-plan';

/** What a booted stack leaves for the process that uses it: enough to use and to stop it. */
export interface StackRecord {
  pid: number;
  dataDir: string;
  baseUrl: string;
}


/**
 * A request a test file leaves in the registry (`want-<id>.json`). `alone`: the file measures
 * how fast the stack recovers, so nothing else boots or builds while its stack runs.
 */
export type StackRequest = { kind: 'shared' | 'own'; key: string; env: Record<string, string>; alone?: boolean } | { kind: 'deployment' };

/** The broker's answer (`grant-<id>.json`). */
export type StackGrant = { ok: true; record?: StackRecord; deployment?: PreparedDeployment } | { ok: false; error: string };

/** The production test's deployment folder, prepared as production.e2e.test.ts describes. */
export interface PreparedDeployment {
  dir: string;
  build: { status: number | null; stderr: string };
  install: { status: number | null; stderr: string };
}

/** Writes `file` whole or not at all (a reader polling the folder never sees half of it). */
export function writeAtomically(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

interface Booted {
  key: string;
  own: boolean;
  record: Promise<StackRecord>;
  settled?: StackRecord;
  granted: boolean;
  stopped: boolean;
}

/** How many stacks of the plan are booted ahead of the one in use. */
const AHEAD = 1;

/** Whether process `pid` still runs (its launcher: a stack stopped by its file has none). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie (exited, not yet reaped) has stopped too.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Runs a program, resolving with its status and what it printed to stderr (never rejects). */
function run(program: string, args: string[], cwd: string, timeoutMs: number): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(program, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], timeout: timeoutMs });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', (error) => resolve({ status: null, stderr: `${stderr}${String(error)}` }));
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

/**
 * The variable naming a file with the result ({status, stderr}) of the `npm run build` that
 * run-e2e.ts ran before the lanes started; the production test's deployment takes that build.
 */
export const PREBUILT_ENV = 'E2E_PREBUILT';

/**
 * `npm run build` (infra/build/build.ts) under the launcher's build lock
 * (services/cli/bin/sinilill.mjs: `.data/build.lock`), so that a launcher started meanwhile
 * neither builds at the same time nor starts from a half-written build. Never rejects.
 */
export async function buildUnderLock(): Promise<PreparedDeployment['build']> {
  const lock = join(repoRoot, '.data/build.lock');
  mkdirSync(join(repoRoot, '.data'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await run(process.execPath, ['--import', 'tsx', join(repoRoot, 'infra/build/build.ts')], repoRoot, 300_000);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export class StackBroker {
  private readonly booted: Booted[] = [];
  /** Boots (and the production build) one after another. */
  private chain: Promise<unknown> = Promise.resolve();
  private plan: (PlannedStack & { used?: boolean; started?: boolean })[] | null = null;
  /** The index in the plan of the stack the running file asked for last (-1: none yet). */
  private position = -1;
  private deployment: Promise<PreparedDeployment> | null = null;
  private readonly handled = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  /** The stack of a file that runs alone (StackRequest.alone): no prefetch until it is stopped. */
  private alone: Booted | null = null;

  /**
   * @param options.bootEnv settings a stack gets at boot beyond its key's (the same for every
   *   run of the stack, known only at run time: a stand-in's port), by its key and kind.
   */
  constructor(private readonly registry: string, private readonly options: { bootEnv?: (key: string, own: boolean) => Record<string, string> } = {}) {
    this.timer = setInterval(() => this.tick(), 100);
    // A run ended without its teardown (Ctrl-C): no launcher it booted outlives it.
    process.once('exit', () => {
      for (const booted of this.booted) if (booted.settled && !booted.stopped) {
        try {
          process.kill(booted.settled.pid, 'SIGTERM');
        } catch {
          // Gone already.
        }
      }
    });
  }

  /** Polls for the plan (until the first request) and for requests. */
  private tick(): void {
    if (this.closed) return;
    if (this.alone?.settled && !processRuns(this.alone.settled.pid)) {
      this.alone = null;
      this.prefetch();
    }
    if (!this.plan) {
      const plan = publishedStackPlan();
      if (plan) {
        this.plan = plan.map((item) => ({ ...item }));
        // The deployment's `npm run build` rewrites services/*/dist and web/dist: it goes first,
        // before any stack serves from them (a page loading a chunk the build just removed fails).
        if (this.plan.some((item) => item.kind === 'deployment')) void this.prepareDeployment();
        this.prefetch();
      }
    }
    for (const name of readdirSync(this.registry)) {
      const found = /^want-(.+)\.json$/.exec(name);
      if (!found || this.handled.has(found[1]!)) continue;
      this.handled.add(found[1]!);
      const request = JSON.parse(readFileSync(join(this.registry, name), 'utf8')) as StackRequest;
      if (!this.plan) this.plan = [];
      void this.answer(found[1]!, request);
    }
  }

  private async answer(id: string, request: StackRequest): Promise<void> {
    let grant: StackGrant;
    try {
      grant = request.kind === 'deployment'
        ? { ok: true, deployment: await this.prepareDeployment() }
        : { ok: true, record: await this.stackFor(request) };
    } catch (error) {
      grant = { ok: false, error: error instanceof Error ? error.stack ?? error.message : String(error) };
    }
    if (!this.closed) writeAtomically(join(this.registry, `grant-${id}.json`), JSON.stringify(grant));
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const result = this.chain.then(job);
    this.chain = result.catch(() => undefined);
    return result;
  }

  private boot(key: string, env: Record<string, string>, own: boolean): Booted {
    const booted: Booted = { key, own, granted: false, stopped: false, record: Promise.resolve(null as never) };
    booted.record = this.enqueue(async () => {
      if (this.closed || booted.stopped) throw new Error('the run is over');
      const stack = await startStack({ ...env, ...this.options.bootEnv?.(key, own) });
      return { pid: stack.pid, dataDir: stack.dataDir, baseUrl: stack.baseUrl };
    });
    booted.record.then((record) => {
      booted.settled = record;
      // Stopped while it booted (the run ended): stop it now.
      if (booted.stopped || this.closed) void stopStackProcesses(record.pid, record.dataDir);
    }, () => undefined);
    this.booted.push(booted);
    return booted;
  }

  /** The stack a file asked for: the one booted ahead for it, or one booted now. */
  private async stackFor(request: Extract<StackRequest, { kind: 'shared' | 'own' }>): Promise<StackRecord> {
    const own = request.kind === 'own';
    // Where the run is in the plan: the first unused plan item for this stack from here on.
    const at = this.plan!.findIndex((item, index) => index > this.position - (own ? 0 : 1) && item.kind === request.kind && item.key === request.key && (!own || !item.used));
    if (at >= 0) {
      this.position = at;
      this.plan![at]!.used = true;
    }
    let booted = this.booted.find((b) => !b.stopped && b.key === request.key && b.own === own && (!own || !b.granted));
    if (!booted) booted = this.boot(request.key, request.env, own);
    if (own) booted.granted = true;
    this.stopIdle(booted);
    if (!request.alone) {
      this.prefetch();
      return booted.record;
    }
    // Alone: the stack once nothing else is booting, building or installing.
    this.alone = booted;
    const record = await booted.record;
    await this.chain;
    await this.deployment?.catch(() => undefined);
    return record;
  }

  /** Boots the plan's next stacks (AHEAD of the current position) that are not booted yet. */
  private prefetch(): void {
    if (!this.plan || this.alone) return;
    for (let index = this.position + 1; index <= this.position + AHEAD && index < this.plan.length; index += 1) {
      const item = this.plan[index]!;
      if (item.started) continue;
      item.started = true;
      if (item.kind === 'deployment') {
        void this.prepareDeployment();
        continue;
      }
      const ready = this.booted.some((b) => !b.stopped && b.key === item.key && b.own === (item.kind === 'own') && (item.kind === 'shared' || !b.granted));
      if (!ready) this.boot(item.key, item.env, item.kind === 'own');
    }
  }

  /**
   * Stops the shared stacks that no file needs any more: all but `inUse` and those booted for
   * the plan's next items. A file's own stacks are stopped by that file.
   */
  private stopIdle(inUse: Booted): void {
    const upcoming = new Set((this.plan ?? []).slice(this.position + 1, this.position + 1 + AHEAD).flatMap((item) => (item.kind === 'deployment' ? [] : [`${item.kind}:${item.key}`])));
    for (const booted of this.booted) {
      if (booted === inUse || booted.stopped || booted.own || upcoming.has(`shared:${booted.key}`) || !booted.settled) continue;
      booted.stopped = true;
      void stopStackProcesses(booted.settled.pid, booted.settled.dataDir);
    }
  }

  /**
   * The production test's deployment folder: `npm run build` (in the boot queue and under the
   * launcher's build lock, which startStack waits for, so that no launcher starts from a
   * half-written build), then the folder filled and `npm ci --omit=dev` run in it (outside the
   * queue: it mostly waits on the disk and the registry cache).
   */
  prepareDeployment(): Promise<PreparedDeployment> {
    this.deployment ??= (async () => {
      // Lanes side by side (run-e2e.ts) built once before either started: a build here would
      // rewrite the folders the other lane's stacks serve from.
      const prebuilt = process.env[PREBUILT_ENV];
      const build = prebuilt
        ? JSON.parse(readFileSync(prebuilt, 'utf8')) as PreparedDeployment['build']
        : await this.enqueue(buildUnderLock);
      const dir = mkdtempSync(join(repoRoot, '.tmp-deploy-'));
      if (build.status !== 0) return { dir, build, install: { status: null, stderr: 'not installed: the build failed' } };
      const ship = (path: string) => {
        const from = join(repoRoot, path);
        if (existsSync(from)) cpSync(from, join(dir, path), { recursive: true });
      };
      for (const file of ['package.json', 'package-lock.json', 'infra/seed', 'infra/content', 'web/package.json', 'web/dist', 'tests/package.json', 'services/cli/bin']) ship(file);
      for (const group of ['packages', 'services']) {
        for (const name of readdirSync(join(repoRoot, group))) {
          ship(`${group}/${name}/package.json`);
          if (group === 'services') for (const file of readdirSync(join(repoRoot, group, name, 'dist'))) {
            if (file.endsWith('.js') || file.endsWith('.js.map') || file === 'build-info.json') ship(`${group}/${name}/dist/${file}`);
          }
        }
      }
      const install = await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], dir, 300_000);
      return { dir, build, install };
    })();
    return this.deployment;
  }

  /** Stops every stack the broker booted and removes the deployment folder. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    const stops = this.booted.filter((b) => !b.stopped).map(async (b) => {
      b.stopped = true;
      const record = b.settled ?? (await b.record.catch(() => null));
      if (record) await stopStackProcesses(record.pid, record.dataDir);
    });
    await Promise.all(stops);
    const deployment = await this.deployment?.catch(() => null);
    if (deployment) rmSync(deployment.dir, { recursive: true, force: true });
  }
}
