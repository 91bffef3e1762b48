/**
 * The browser tests' run: a registry folder where test files ask for stacks (shared-stack.ts),
 * provided as `inject('e2eStackRegistry')`, and the stack broker that answers them and boots the
 * stacks of later files ahead (stack-broker.ts); at the end of the run every stack it booted is
 * stopped and its data removed. A run of one file boots that file's stack only. The run's Strava
 * stand-in (strava-e2e.ts) is started here once, as `inject('stravaE2e')`, and is the Strava of
 * the default shared stack (STRAVA_STACK, docs/decisions/0097).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { StackBroker } from './stack-broker';
import { startStravaForE2e, stravaBootEnv } from './strava-e2e';

export default async function setup(project: TestProject) {
  const registry = mkdtempSync(join(process.cwd(), '.tmp-e2e-stacks-'));
  chmodSync(registry, 0o755);
  project.provide('e2eStackRegistry', registry);
  const { close: closeStrava, ...strava } = await startStravaForE2e();
  project.provide('stravaE2e', strava);
  const broker = new StackBroker(registry, { bootEnv: stravaBootEnv(strava) });
  return async () => {
    await broker.close();
    rmSync(registry, { recursive: true, force: true });
    await closeStrava();
  };
}
