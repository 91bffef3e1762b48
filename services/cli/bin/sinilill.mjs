#!/usr/bin/env node
/**
 * The operators' entry point behind `npm start`, `npm run import|replay|migrate|backup|restore`: runs the
 * compiled CLI (services/cli/dist/main.js) with the given command, building first when the
 * sources changed since the last build (services/cli/dist/build-info.json) and the build tools
 * are installed. On a production install (`npm ci --omit=dev`, no sources or no build tools) it
 * runs the build it finds. Plain JavaScript: it runs before anything is compiled, without tsx.
 * The production build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Commands run with a capped V8 heap (a replay of a million events keeps its working
 * memory flat by design, but V8 lets its heap grow far beyond what is live unless told: 600 MB
 * resident without the flags, about 280 MB with them, and faster, the young generation's
 * scavenges being cheap at 8 MB; 160 MB of old space since the rebuild sessions of docs/decisions/0043 keep team
 * and member rows: 192 reached 300–315 MB resident, 128 collected all the time). Respawns itself once with the flags unless the caller set heap
 * flags of their own (node flags or NODE_OPTIONS).
 */
const REPLAY_HEAP = ['--max-old-space-size=160', '--max-semi-space-size=8'];
// A restore ends with the same replay; its load streams in constant memory.
const HEAP_FLAGS = { replay: REPLAY_HEAP, restore: REPLAY_HEAP };
const heapFlags = HEAP_FLAGS[process.argv[2]];
if (heapFlags && ![...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((flag) => /--max-(old|semi)-space-size/.test(flag))) {
  const child = spawnSync(process.execPath, [...heapFlags, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const stamp = join(root, 'services/cli/dist/build-info.json');
const main = join(root, 'services/cli/dist/main.js');

/** Newest modification time (ms) below `path`, skipping node_modules, dist and dot folders. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    latest = Math.max(latest, newest(join(path, entry.name)));
  }
  return latest;
}

/** Newest source the build depends on (0 on an install without sources). */
function newestSource() {
  const folders = ['packages', 'services'].flatMap((group) =>
    existsSync(join(root, group)) ? readdirSync(join(root, group)).map((name) => join(root, group, name, 'src')) : []);
  return Math.max(0, ...folders.map(newest), newest(join(root, 'web/src')), newest(join(root, 'web/index.html')),
    newest(join(root, 'web/vite.config.ts')), newest(join(root, 'infra/build')), newest(join(root, 'package-lock.json')));
}

/** The time of the last build (0: none). */
const builtAt = () => (existsSync(stamp) && existsSync(main) ? statSync(stamp).mtimeMs : 0);

/**
 * One build at a time per checkout: launchers started together (a test suite's services, two
 * stacks) would otherwise build into the same folders at once, and the service worker's build
 * step (a rename inside web/dist) fails when another build empties the folder under it. A
 * directory made atomically is the lock; one older than the longest build is taken as left over
 * by a killed build. Returns a release function.
 */
function buildLock() {
  const lock = join(root, '.data/build.lock');
  mkdirSync(join(root, '.data'), { recursive: true });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    try {
      if (Date.now() - statSync(lock).mtimeMs > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
    } catch {
      // Released meanwhile: try again.
    }
    Atomics.wait(pause, 0, 0, 200);
  }
}

const sources = newestSource();
const canBuild = existsSync(join(root, 'node_modules/esbuild')) && existsSync(join(root, 'node_modules/tsx'));
if (sources > builtAt() && sources > 0) {
  const built = builtAt();
  if (canBuild) {
    const release = buildLock();
    try {
      // Another launcher may have built while this one waited for the lock.
      if (newestSource() > builtAt()) {
        console.log(built ? '[build] sources changed since the last build: npm run build' : '[build] no build yet: npm run build');
        const result = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'infra/build/build.ts')], { cwd: root, stdio: 'inherit' });
        if (result.status !== 0) {
          release();
          process.exit(result.status ?? 1);
        }
      }
    } finally {
      release();
    }
  } else if (built) {
    console.log('[build] sources changed since the last build, but the build tools are not installed (npm ci --omit=dev): running the existing build');
  }
}
if (!existsSync(main)) {
  console.error('No build found (services/cli/dist/main.js): run `npm run build` on a full install (npm ci), then start again.');
  process.exit(1);
}
await import(pathToFileURL(main).href);
