/**
 * `npm run test:e2e`: the browser tests in lanes side by side, one vitest process per lane
 * (`vitest run --project e2e --shard=i/n`; the lanes: e2e-lanes.ts, picked by
 * StackOrderSequencer.shard), each with its own stack broker, Strava stand-in and browser.
 *
 * Why: one file at a time drives one page against a stack that mostly waits, and kept 0.9 of
 * this machine's 2 cores busy; the browser tests were 795 of the suite's 1 268 s
 * (docs/decisions/0110).
 *
 * - First `npm run build`, once, under the launcher's build lock (stack-broker.ts buildUnderLock):
 *   the stacks of both lanes start from that build, and the production test's deployment takes
 *   it (its result is handed over in the file that E2E_PREBUILT names) instead of building
 *   again under a running lane's stacks.
 * - Each lane's lines are printed as they come, prefixed `[e2e i/n]`; the run fails when a lane
 *   does, after every lane has finished (a lane stopped half-way would leave its stacks running).
 * - Each lane's stacks take their ports from a range of their own (E2E_LANE, stack.ts).
 * - E2E_LANES sets how many lanes (default 2; 1 runs the files one after another, as before).
 * - Arguments (file filters, `-t`…) run one plain `vitest run --project e2e` with them: a run of
 *   a few files is not split.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '@sinilill/config';
import { buildUnderLock, PREBUILT_ENV } from './stack-broker';

// vitest's command, from its manifest's `bin` (the package exports no path to it).
const manifest = createRequire(import.meta.url).resolve('vitest/package.json');
const vitest = join(dirname(manifest), (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: { vitest: string } }).bin.vitest);
const args = process.argv.slice(2);
const lanes = Number(process.env.E2E_LANES ?? 2);
if (!Number.isInteger(lanes) || lanes < 1) {
  console.error(`E2E_LANES must be a whole number of at least 1, not "${process.env.E2E_LANES}"`);
  process.exit(2);
}

const children = new Set<ChildProcess>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

/** Runs vitest with `extra` arguments; resolves with its exit status. */
function lane(extra: string[], env: NodeJS.ProcessEnv, prefix: string | null): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', '--project', 'e2e', ...extra], {
      cwd: repoRoot, env, stdio: prefix === null ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    if (prefix !== null) {
      for (const [from, to] of [[child.stdout!, process.stdout], [child.stderr!, process.stderr]] as const) {
        createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => to.write(`${prefix} ${line}\n`));
      }
    }
    child.on('error', (error) => {
      console.error(`${prefix ?? '[e2e]'} could not start vitest: ${error.message}`);
      resolve(1);
    });
    child.on('close', (status, signal) => {
      children.delete(child);
      resolve(status ?? (signal ? 1 : 0));
    });
  });
}

if (args.length > 0 || lanes === 1) {
  process.exit(await lane(args, process.env, null));
}

const folder = mkdtempSync(join(repoRoot, '.tmp-e2e-build-'));
try {
  const started = performance.now();
  const build = await buildUnderLock();
  console.log(`[e2e] npm run build: status ${build.status} in ${((performance.now() - started) / 1000).toFixed(1)} s; ${lanes} lanes`);
  const result = join(folder, 'build.json');
  writeFileSync(result, JSON.stringify(build));
  const env = { ...process.env, [PREBUILT_ENV]: result };
  const statuses = await Promise.all(Array.from({ length: lanes }, (_, i) =>
    lane([`--shard=${i + 1}/${lanes}`], { ...env, E2E_LANE: `${i + 1}/${lanes}` }, `[e2e ${i + 1}/${lanes}]`)));
  for (const [i, status] of statuses.entries()) console.log(`[e2e] lane ${i + 1}/${lanes}: ${status === 0 ? 'passed' : `failed (exit ${status})`}`);
  process.exitCode = statuses.every((status) => status === 0) ? 0 : 1;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
