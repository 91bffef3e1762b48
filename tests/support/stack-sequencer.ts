/**
 * The order of test files: vitest's own (failed and slow files first), except that browser test
 * files sharing a stack (shared-stack.ts) run one after another, grouped by the settings they
 * pass to `sharedStack(…)`. A shared stack is stopped when a file asks for another one, so the
 * grouping means each stack boots once and at most one shared stack runs at a time.
 */
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The source text of the settings a file passes to `sharedStack(…)` ('' for none). */
export function sharedStackSettingsOf(file: string): string {
  const found = /\bsharedStack\(([^)]*)\)/.exec(readFileSync(file, 'utf8'));
  return found ? found[1]!.replace(/\s+/g, ' ').trim() || '{}' : '';
}

/** vitest's sequencer with the files of one shared stack together (see the module comment). */
export class StackOrderSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const settings = new Map(sorted.map((file) => [file, sharedStackSettingsOf(file.moduleId)]));
    // Array.prototype.sort is stable: within a group, and among the other files, vitest's order stays.
    return [...sorted].sort((a, b) => settings.get(a)!.localeCompare(settings.get(b)!));
  }
}
