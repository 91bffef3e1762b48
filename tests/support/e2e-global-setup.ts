/**
 * The browser tests' run: a registry folder where test files ask for stacks (shared-stack.ts),
 * provided as `inject('e2eStackRegistry')`, and the stack broker that answers them and boots the
 * stacks of later files ahead (stack-broker.ts); at the end of the run every stack it booted is
 * stopped and its data removed. A run of one file boots that file's stack only.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { StackBroker } from './stack-broker';

export default function setup(project: TestProject) {
  const registry = mkdtempSync(join(process.cwd(), '.tmp-e2e-stacks-'));
  chmodSync(registry, 0o755);
  project.provide('e2eStackRegistry', registry);
  const broker = new StackBroker(registry);
  return async () => {
    await broker.close();
    rmSync(registry, { recursive: true, force: true });
  };
}
