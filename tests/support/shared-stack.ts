/**
 * One running stack shared by every browser test file with the same process configuration,
 * instead of a stack per file. The first file that asks for a configuration boots it (under a
 * lock, so that two workers never boot the same one twice) and stops the other shared stacks
 * (the files run one at a time, grouped by stack: stack-sequencer.ts); later files attach to it
 * by the record it left in the registry folder that e2e-global-setup.ts provides, whose teardown
 * stops what is left. Files sharing a stack keep their data apart by using their own teams,
 * people and e-mail addresses, and each starts with fresh rate-limit counters: every browser test
 * connects from 127.0.0.1, so the per-address limits (registration, password reset, login:
 * docs/decisions/0024) would otherwise add up over the files.
 *
 * The configuration a file may choose is what the services read once at start: the simulated
 * clock's start (CLOCK_START), the bank-transfer settings and the launcher's demo
 * (DEMO_NEXT_EDITION; stack.ts LAUNCHER_DEMO). Unchosen, TEST_STACK_DEFAULTS (stack.ts) apply:
 * April 2025 with 2025 open and no demo. The administrator and the token
 * secret are the same for every shared stack (E2E_ADMIN, E2E_JWT_SECRET), and so is Strava: the
 * run's stand-in (strava-e2e.ts), whose webhook subscription a booting stack takes over.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { readLauncherLog, startStack, stopStackProcesses, type RunningStack } from './stack';
import { clearStravaSubscriptions, stravaStackEnv } from './strava-e2e';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder where shared stacks leave their records (`<key>.json`) and boot locks. */
    e2eStackRegistry: string;
  }
}

/** The administrator of every shared stack (ADMIN_EMAIL / ADMIN_PASSWORD, spec §2 "Admin"). */
export const E2E_ADMIN = { email: 'haldur@sinilill.test', password: 'Sinilill admin 2025 parool!' } as const;

/** The token secret of every shared stack, for tests that make tokens of their own. */
export const E2E_JWT_SECRET = 'shared-e2e-stack-secret-0123456789abcdef';

/** What a shared stack leaves in the registry: enough for any process to use and stop it. */
export interface StackRecord {
  pid: number;
  dataDir: string;
  baseUrl: string;
}

/** The process settings a file may choose; everything else is the same for all shared stacks. */
export interface SharedStackSettings {
  CLOCK_START?: string;
  /** The launcher's demo: '2026' closes 2025 and plans and opens 2026 after the first-start import (default '': none). */
  DEMO_NEXT_EDITION?: string;
  BANK_ACCOUNT_NAME?: string;
  BANK_ACCOUNT_IBAN?: string;
  BANK_TRANSFER_DESCRIPTION?: string;
}

/** How long a file waits for another worker to finish booting the stack it needs. */
const BOOT_WAIT_MS = 300_000;

/**
 * The shared stack of `settings`: booted now when no file asked for it before, else the running
 * one. Its `stop()` does nothing (the run's teardown stops it); its data outlives the file.
 */
export async function sharedStack(settings: SharedStackSettings = {}): Promise<RunningStack> {
  const env: Record<string, string> = {
    ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password, JWT_SECRET: E2E_JWT_SECRET, ...stravaStackEnv(),
    ...Object.fromEntries(Object.entries(settings).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  };
  const key = createHash('sha256').update(JSON.stringify(Object.entries(env).sort(([a], [b]) => a.localeCompare(b)))).digest('hex').slice(0, 16);
  const registry = inject('e2eStackRegistry');
  const recordFile = join(registry, `${key}.json`);
  const lock = join(registry, `${key}.lock`);
  let mine = false;
  try {
    mkdirSync(lock);
    mine = true;
  } catch {
    // Another file holds the lock: it is booting this stack, or has booted it.
  }
  if (mine && !existsSync(recordFile)) {
    try {
      await stopOtherStacks(registry, key);
      await clearStravaSubscriptions();
      const stack = await startStack(env);
      const record: StackRecord = { pid: stack.pid, dataDir: stack.dataDir, baseUrl: stack.baseUrl };
      writeFileSync(recordFile, JSON.stringify(record));
    } catch (error) {
      rmSync(lock, { recursive: true, force: true });
      throw error;
    }
  }
  for (const deadline = Date.now() + BOOT_WAIT_MS; !existsSync(recordFile); ) {
    if (!existsSync(lock)) throw new Error(`the shared stack ${JSON.stringify(settings)} failed to boot in another test file`);
    if (Date.now() > deadline) throw new Error(`the shared stack ${JSON.stringify(settings)} was not booted in ${BOOT_WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const record = JSON.parse(readFileSync(recordFile, 'utf8')) as StackRecord;
  await clearRateLimits(record);
  return { baseUrl: record.baseUrl, dataDir: record.dataDir, output: () => readLauncherLog(record.dataDir), stop: async () => {} };
}

/**
 * Stops every shared stack of the registry but `key`'s, forgetting it first, so that a later file
 * that asks for it boots it again. Browser test files run one at a time (vitest.config.ts) and
 * ordered by stack (stack-sequencer.ts): a stack another file asks for is not in use, and is
 * rarely needed again.
 */
async function stopOtherStacks(registry: string, key: string): Promise<void> {
  for (const name of readdirSync(registry).filter((entry) => entry.endsWith('.json') && entry !== `${key}.json`)) {
    const record = JSON.parse(readFileSync(join(registry, name), 'utf8')) as StackRecord;
    rmSync(join(registry, name));
    rmSync(join(registry, name.replace(/\.json$/, '.lock')), { recursive: true, force: true });
    await stopStackProcesses(record.pid, record.dataDir);
  }
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
