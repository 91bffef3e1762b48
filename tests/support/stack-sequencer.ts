/**
 * The order of test files: vitest's own (failed and slow files first), except that browser test
 * files sharing a stack (shared-stack.ts) run one after another, grouped by the settings they
 * pass to `sharedStack(…)` / `ownStack(…)`. A shared stack is stopped once no later file needs it,
 * so the grouping means each stack boots once. The stacks the ordered files will ask for
 * (those they name from E2E_STACKS) are handed to the stack broker as its plan, which boots
 * each one while the files before it run (stack-broker.ts).
 */
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { E2E_STACKS, stackEnv, stackKey } from './e2e-stacks.ts';
import { publishStackPlan, type PlannedStack } from './stack-plan.ts';
import { assignLanes } from './e2e-lanes.ts';

const ASKS = /\b(sharedStack|ownStack|preparedDeployment)\(([^)]*)\)/g;

/** The source text of the settings a file first passes to `sharedStack(…)`/`ownStack(…)` ('' for none). */
export function sharedStackSettingsOf(file: string): string {
  const found = /\b(?:sharedStack|ownStack)\(([^)]*)\)/.exec(readFileSync(file, 'utf8'));
  return found ? found[1]!.replace(/\s+/g, ' ').trim() || '{}' : '';
}

/** The stacks a file asks for, in the order its source asks, where the settings are named from E2E_STACKS. */
export function plannedStacksOf(file: string): PlannedStack[] {
  const plan: PlannedStack[] = [];
  for (const [, call, argument] of readFileSync(file, 'utf8').matchAll(ASKS)) {
    if (call === 'preparedDeployment') {
      plan.push({ kind: 'deployment' });
      continue;
    }
    const named = /^\s*E2E_STACKS\.(\w+)\s*(?:,|$)/.exec(argument!);
    const settings = named ? (E2E_STACKS as Record<string, object>)[named[1]!] : undefined;
    if (!settings) continue;
    const env = stackEnv(settings);
    plan.push({ kind: call === 'ownStack' ? 'own' : 'shared', key: stackKey(env), env });
  }
  return plan;
}

/** vitest's sequencer with the files of one stack together (see the module comment). */
export class StackOrderSequencer extends BaseSequencer {
  /**
   * `--shard=i/n`: lane i of n of the browser tests (e2e-lanes.ts assignLanes: the files of one
   * shared stack in one lane, lanes balanced by measured seconds), as run-e2e.ts runs them side
   * by side. Other projects are split as vitest splits them.
   */
  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { index, count } = this.ctx.config.shard!;
    const e2e = files.filter((file) => file.project.name === 'e2e');
    const rest = await super.shard(files.filter((file) => file.project.name !== 'e2e'));
    const lanes = assignLanes(e2e.map((file) => ({
      path: file.moduleId,
      sharedKeys: plannedStacksOf(file.moduleId).flatMap((item) => (item.kind === 'shared' ? [item.key] : [])),
    })), count);
    return [...rest, ...e2e.filter((file) => lanes.get(file.moduleId) === index - 1)];
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const source = new Map(sorted.map((file) => [file, readFileSync(file.moduleId, 'utf8')]));
    const settings = new Map(sorted.map((file) => [file, sharedStackSettingsOf(file.moduleId)]));
    // Groups in the order of their first file in vitest's order; the file whose deployment the
    // broker prepares in the background last, so that the preparation has the whole run.
    const rank = (file: TestSpecification) =>
      (/\bpreparedDeployment\(/.test(source.get(file)!) ? sorted.length : 0) + sorted.findIndex((other) => settings.get(other) === settings.get(file));
    // Array.prototype.sort is stable: within a group, and among the other files, vitest's order stays.
    const ordered = [...sorted].sort((a, b) => rank(a) - rank(b));
    const plan: PlannedStack[] = [];
    for (const file of ordered.filter((spec) => spec.project.name === 'e2e')) {
      for (const item of plannedStacksOf(file.moduleId)) {
        const last = plan.at(-1);
        // Files of one shared stack ask for it once between them.
        if (item.kind === 'shared' && last?.kind === 'shared' && last.key === item.key) continue;
        plan.push(item);
      }
    }
    publishStackPlan(plan);
    return ordered;
  }
}
