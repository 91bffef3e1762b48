/**
 * The stacks the browser test files will ask for, in the order they run: written by the file
 * sequencer (stack-sequencer.ts) and read by the stack broker (stack-broker.ts), both in vitest's
 * main process. Free of imports, because vitest's config (which loads the sequencer) is loaded
 * by Node's type stripping, not by vitest's transformer.
 */

/** One stack a file will ask for, or the production test's deployment folder. */
export type PlannedStack = { kind: 'shared' | 'own'; key: string; env: Record<string, string> } | { kind: 'deployment' };

const PLAN = Symbol.for('sinilill.e2e.stackPlan');

/** Called by the sequencer once it has ordered the files. */
export function publishStackPlan(plan: PlannedStack[]): void {
  (globalThis as Record<symbol, unknown>)[PLAN] = plan;
}

/** The plan the sequencer published, or undefined before it has. */
export function publishedStackPlan(): PlannedStack[] | undefined {
  return (globalThis as Record<symbol, unknown>)[PLAN] as PlannedStack[] | undefined;
}
