/**
 * The production build: `npm run build`, then a deployment folder holding only what a
 * deploy needs — the package manifests and lockfile, the compiled services (services/*\/dist),
 * the built web client (web/dist), the launcher's entry and infra's seed and content — installed
 * with `npm ci --omit=dev`, started with `npm start`. A browser drives it; no tsx runs, and every
 * process of the app runs on the Node.js LTS that the `node` package brought.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { startStack, type RunningStack } from '../support/stack';
import { preparedDeployment } from '../support/shared-stack';

let deploy: string;
let stack: RunningStack;
let browser: Browser;

beforeAll(async () => {
  // Built, filled and installed by the stack broker while the files before this one ran
  // (tests/support/stack-broker.ts prepareDeployment), as this file's header describes.
  const prepared = await preparedDeployment();
  deploy = prepared.dir;
  expect(prepared.build.status, prepared.build.stderr).toBe(0);
  expect(prepared.install.status, prepared.install.stderr).toBe(0);
  [stack, browser] = await Promise.all([
    startStack({}, 240_000, { root: deploy, command: ['npm', 'start'] }),
    launchBrowser(),
  ]);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (deploy) rmSync(deploy, { recursive: true, force: true });
});

test("the deployment has production dependencies only: no tsx, esbuild, vite, vitest, the client's libraries or TypeScript sources", () => {
  for (const tool of ['tsx', 'esbuild', 'vite', 'vitest', 'react', 'playwright-core']) {
    expect(existsSync(join(deploy, 'node_modules', tool)), tool).toBe(false);
  }
  expect(existsSync(join(deploy, 'services/command-api/src'))).toBe(false);
  expect(stack.output()).toContain('compiled build');
});

test('a visitor reads the 2025 figures and the teams table from the app started from the build', async () => {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(stack.baseUrl);
  const text = async (id: string) => (await page.getByTestId(id).textContent() ?? '').replace(/\s/g, ' ').trim();
  await expect.poll(() => text('stat-participants'), { timeout: 20_000 }).toBe('1 005');
  expect(await text('stat-distance')).toBe('196 445');
  await page.goto(`${stack.baseUrl}/participants`);
  await expect.poll(async () => page.locator('table tbody tr').count(), { timeout: 20_000 }).toBeGreaterThan(0);
  await page.close();
});

/**
 * The app's processes: those working in the deployment folder (the launcher, the services,
 * MailDev, the embedded PostgreSQL and Redis), without the npm client that ran `npm start`
 * (npm itself runs on whatever Node the machine has).
 */
function deploymentProcesses(): { pid: string; args: string[]; exe: string }[] {
  const found = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd !== deploy && !cwd.startsWith(`${deploy}/`)) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (/^npm( |$)/.test(args[0] ?? '') || args.some((arg) => arg.endsWith('npm-cli.js'))) continue;
      found.push({ pid, args, exe: readlinkSync(`/proc/${pid}/exe`) });
    } catch {
      // a process that ended meanwhile, or one of another user
    }
  }
  return found;
}

test.runIf(process.platform === 'linux')('no tsx runs, and every Node process of the app is the node package\'s LTS (>= 24)', () => {
  const processes = deploymentProcesses();
  const services = processes.filter((p) => p.args.some((arg) => arg.endsWith('/dist/server.js')));
  expect(services.map((p) => relative(deploy, p.args.find((arg) => arg.endsWith('/dist/server.js'))!)).sort()).toEqual([
    'services/command-api/dist/server.js', 'services/gateway/dist/server.js', 'services/projector/dist/server.js', 'services/query-api/dist/server.js',
  ]);
  expect(processes.filter((p) => p.args.some((arg) => /(^|\/)tsx(\/|$)/.test(arg)))).toEqual([]);
  const nodes = processes.filter((p) => /\/node$/.test(p.exe));
  expect(nodes.length).toBeGreaterThanOrEqual(6); // the launcher, four services and MailDev
  for (const { exe } of nodes) {
    const version = spawnSync(exe, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    expect(Number(version.split('.')[0]), exe).toBeGreaterThanOrEqual(24);
  }
});
