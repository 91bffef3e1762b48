/**
 * One running stack shared by every browser test file with the same process configuration,
 * instead of a stack per file, and stacks of a file's own; both booted by the stack broker in
 * vitest's main process (stack-broker.ts), ahead of the file when the file names its settings
 * from E2E_STACKS (e2e-stacks.ts), so that a file rarely waits for a boot. A file asks by leaving
 * a request in the registry folder that e2e-global-setup.ts provides and waits for the answer.
 * Files sharing a stack keep their data apart by using their own teams, people and e-mail
 * addresses, and each starts with fresh rate-limit counters: every browser test connects from
 * 127.0.0.1, so the per-address limits (registration, password reset, login:
 * docs/decisions/0024) would otherwise add up over the files.
 *
 * The configuration a file may choose is what the services read once at start: the simulated
 * clock's start (CLOCK_START), the bank-transfer settings and the launcher's demo
 * (DEMO_NEXT_EDITION; stack.ts LAUNCHER_DEMO). Unchosen, TEST_STACK_DEFAULTS (stack.ts) apply:
 * April 2025 with 2025 open and no demo. The administrator and the token
 * secret are the same for every shared stack (E2E_ADMIN, E2E_JWT_SECRET).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { readLauncherLog, stopStackProcesses, type RunningStack } from './stack';
import { writeAtomically, type PreparedDeployment, type StackGrant, type StackRecord, type StackRequest } from './stack-broker';
import { stackEnv, stackKey, type SharedStackSettings } from './e2e-stacks';

export { E2E_ADMIN, E2E_BANK, E2E_JWT_SECRET, E2E_STACKS, type SharedStackSettings } from './e2e-stacks';
export type { PreparedDeployment, StackRecord } from './stack-broker';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder where test files leave their requests for stacks and the broker its answers. */
    e2eStackRegistry: string;
  }
}

/** How long a file waits for the broker's answer (a boot, maybe behind one booted ahead). */
const BOOT_WAIT_MS = 300_000;

/** Leaves `request` for the broker and resolves with its answer. @throws when it could not serve it. */
async function ask(request: StackRequest): Promise<Extract<StackGrant, { ok: true }>> {
  const registry = inject('e2eStackRegistry');
  const id = `${process.pid}-${randomUUID()}`;
  writeAtomically(join(registry, `want-${id}.json`), JSON.stringify(request));
  const answerFile = join(registry, `grant-${id}.json`);
  for (const deadline = Date.now() + BOOT_WAIT_MS; !existsSync(answerFile); ) {
    if (Date.now() > deadline) throw new Error(`no ${request.kind} stack in ${BOOT_WAIT_MS} ms: ${JSON.stringify(request)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const grant = JSON.parse(readFileSync(answerFile, 'utf8')) as StackGrant;
  if (!grant.ok) throw new Error(`the ${request.kind} stack failed to boot: ${grant.error}`);
  return grant;
}

const running = (record: StackRecord, stop: () => Promise<void>): RunningStack =>
  ({ baseUrl: record.baseUrl, dataDir: record.dataDir, output: () => readLauncherLog(record.dataDir), stop });

/**
 * The shared stack of `settings`: the running one, or booted now when no file asked for it
 * before. Its `stop()` does nothing (the broker stops it when no later file needs it); its data
 * outlives the file. Pass E2E_STACKS' settings by name to have it booted ahead.
 */
export async function sharedStack(settings: SharedStackSettings = {}): Promise<RunningStack> {
  const env = stackEnv(settings);
  const { record } = await ask({ kind: 'shared', key: stackKey(env), env });
  await clearRateLimits(record!);
  return running(record!, async () => {});
}

/**
 * A stack of the file's own (its figures are the import's alone, or it kills services): fresh,
 * booted ahead like a shared one when `settings` come from E2E_STACKS by name; its `stop()`
 * stops it and removes its data. `alone`: for a file that measures recovery times, nothing else
 * boots, builds or installs while this stack runs (the broker waits for what is under way).
 */
export async function ownStack(settings: SharedStackSettings = {}, options: { alone?: boolean } = {}): Promise<RunningStack> {
  const env = stackEnv(settings);
  const { record } = await ask({ kind: 'own', key: stackKey(env), env, alone: options.alone === true });
  return running(record!, () => stopStackProcesses(record!.pid, record!.dataDir));
}

/**
 * The production test's deployment folder, built, filled and installed by the broker while
 * earlier files ran (stack-broker.ts prepareDeployment); the caller asserts the build's and the
 * install's status and removes nothing (the run's teardown does).
 */
export async function preparedDeployment(): Promise<PreparedDeployment> {
  return (await ask({ kind: 'deployment' })).deployment!;
}

/**
 * Deletes the rate-limit counters (keys `<BULLMQ_PREFIX>:rate-limit:*`, services/command-api
 * rate-limits.ts) from the stack's Redis, which listens on PORT + 4 (stack.ts).
 */
async function clearRateLimits(record: StackRecord): Promise<void> {
  const redis = new Redis({ host: '127.0.0.1', port: Number(new URL(record.baseUrl).port) + 4, lazyConnect: true, maxRetriesPerRequest: 3 });
  await redis.connect();
  try {
    for await (const keys of redis.scanStream({ match: '*:rate-limit:*', count: 1000 })) {
      if ((keys as string[]).length > 0) await redis.del(...(keys as string[]));
    }
  } finally {
    redis.disconnect();
  }
}
