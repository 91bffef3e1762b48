/**
 * The browser tests' run: a registry folder for the stacks that test files share
 * (shared-stack.ts), provided as `inject('e2eStackRegistry')`, and at the end of the run every
 * shared stack stopped and its data removed. The stacks themselves boot when a file first asks
 * for them, so a run of one file boots one stack.
 */
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { StackRecord } from './shared-stack';
import { stopStackProcesses } from './stack';

export default function setup(project: TestProject) {
  const registry = mkdtempSync(join(process.cwd(), '.tmp-e2e-stacks-'));
  chmodSync(registry, 0o755);
  project.provide('e2eStackRegistry', registry);
  return async () => {
    const records = readdirSync(registry).filter((name) => name.endsWith('.json'))
      .map((name) => JSON.parse(readFileSync(join(registry, name), 'utf8')) as StackRecord);
    await Promise.all(records.map((record) => stopStackProcesses(record.pid, record.dataDir)));
    rmSync(registry, { recursive: true, force: true });
  };
}
