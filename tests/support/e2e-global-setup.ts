/**
 * The browser tests' run: a registry folder for the stacks that test files share
 * (shared-stack.ts), provided as `inject('e2eStackRegistry')`, and at the end of the run every
 * shared stack stopped and its data removed. The stacks themselves boot when a file first asks
 * for them, so a run of one file boots one stack. The run's Strava stand-in (strava-e2e.ts) is
 * started here once, as `inject('stravaE2e')`: every shared stack uses it as its Strava.
 */
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { StackRecord } from './shared-stack';
import { stopStackProcesses } from './stack';
import { startStravaForE2e } from './strava-e2e';

export default async function setup(project: TestProject) {
  const registry = mkdtempSync(join(process.cwd(), '.tmp-e2e-stacks-'));
  chmodSync(registry, 0o755);
  project.provide('e2eStackRegistry', registry);
  const { close: closeStrava, ...strava } = await startStravaForE2e();
  project.provide('stravaE2e', strava);
  return async () => {
    const records = readdirSync(registry).filter((name) => name.endsWith('.json'))
      .map((name) => JSON.parse(readFileSync(join(registry, name), 'utf8')) as StackRecord);
    await Promise.all(records.map((record) => stopStackProcesses(record.pid, record.dataDir)));
    rmSync(registry, { recursive: true, force: true });
    await closeStrava();
  };
}
