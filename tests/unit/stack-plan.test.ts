/**
 * The browser tests' stack plan (tests/support/stack-sequencer.ts): what each e2e file will ask
 * the stack broker for, read from its source, so that the broker boots it ahead. A file that
 * passes settings not named from E2E_STACKS (a port known only at run time) still runs, but
 * waits for its boot.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@sinilill/config';
import { E2E_STACKS, stackEnv, stackKey } from '../support/e2e-stacks';
import { plannedStacksOf } from '../support/stack-sequencer';
import { assignLanes, fileSeconds, type LaneFile } from '../support/e2e-lanes';

const e2e = (name: string) => join(repoRoot, 'tests/e2e', `${name}.e2e.test.ts`);
const keyOf = (settings: object) => stackKey(stackEnv(settings));

describe('the stack plan of the e2e files', () => {
  it('names the shared stack of a file, both of a file that uses two, and a file of its own', () => {
    expect(plannedStacksOf(e2e('layout'))).toEqual([{ kind: 'shared', key: keyOf(E2E_STACKS.april20), env: stackEnv(E2E_STACKS.april20) }]);
    expect(plannedStacksOf(e2e('editions-console')).map((item) => item.kind === 'deployment' ? item.kind : item.key))
      .toEqual([keyOf(E2E_STACKS.june15), keyOf(E2E_STACKS.demoInRegistration)]);
    expect(plannedStacksOf(e2e('home'))).toEqual([{ kind: 'own', key: keyOf(E2E_STACKS.pristine), env: stackEnv(E2E_STACKS.pristine) }]);
    expect(plannedStacksOf(e2e('production'))).toEqual([{ kind: 'deployment' }]);
    // Options after the settings (resilience runs alone) keep the name.
    expect(plannedStacksOf(e2e('resilience'))).toEqual([{ kind: 'own', key: keyOf(E2E_STACKS.emptyApril20), env: stackEnv(E2E_STACKS.emptyApril20) }]);
  });

  it('plans every ask of every e2e file that names its settings from E2E_STACKS (unnamed settings boot when asked)', () => {
    const files = readdirSync(join(repoRoot, 'tests/e2e')).filter((name) => name.endsWith('.e2e.test.ts')).map((name) => join(repoRoot, 'tests/e2e', name));
    const asks = (file: string) => [...readFileSync(file, 'utf8').matchAll(/\b(?:sharedStack|ownStack)\(\s*E2E_STACKS\.\w+/g)].length;
    const missed = files.filter((file) => plannedStacksOf(file).filter((item) => item.kind !== 'deployment').length !== asks(file));
    expect(missed).toEqual([]);
    // Most files name their stack: the plan is not empty by accident.
    expect(files.filter((file) => asks(file) > 0).length).toBeGreaterThan(20);
  });

  it('gives the same key to the same settings in any order, and another to other settings', () => {
    expect(stackKey({ A: '1', B: '2' })).toBe(stackKey({ B: '2', A: '1' }));
    expect(keyOf(E2E_STACKS.april20)).not.toBe(keyOf(E2E_STACKS.april30));
    // The administrator and token secret are part of every stack's environment.
    expect(stackEnv({}).ADMIN_EMAIL).toBe('haldur@sinilill.test');
  });
});

describe('the browser tests in two lanes (e2e-lanes.ts)', () => {
  const files: LaneFile[] = readdirSync(join(repoRoot, 'tests/e2e')).filter((name) => name.endsWith('.e2e.test.ts')).map((name) => {
    const path = join(repoRoot, 'tests/e2e', name);
    return { path, sharedKeys: plannedStacksOf(path).flatMap((item) => (item.kind === 'shared' ? [item.key] : [])) };
  });

  it('puts every file in exactly one lane, and the files of one shared stack in the same lane', () => {
    const lanes = assignLanes(files, 2);
    expect([...lanes.keys()].sort()).toEqual(files.map((file) => file.path).sort());
    expect(new Set(lanes.values())).toEqual(new Set([0, 1]));
    const laneOfStack = new Map<string, Set<number>>();
    for (const file of files) for (const key of file.sharedKeys) laneOfStack.set(key, (laneOfStack.get(key) ?? new Set()).add(lanes.get(file.path)!));
    for (const [key, used] of laneOfStack) expect(used.size, key).toBe(1);
    // editions-console asks for two shared stacks: both are in its lane.
    expect(plannedStacksOf(e2e('editions-console')).filter((item) => item.kind === 'shared')).toHaveLength(2);
  });

  it('balances the lanes by measured seconds, the same split whatever order the files come in', () => {
    const lanes = assignLanes(files, 2);
    const load = [0, 1].map((lane) => files.filter((file) => lanes.get(file.path) === lane).reduce((sum, file) => sum + fileSeconds(file.path), 0));
    const total = load[0]! + load[1]!;
    // Greedy over groups: the lanes differ by at most the lightest group that could still move.
    expect(Math.abs(load[0]! - load[1]!)).toBeLessThan(total * 0.1);
    expect(assignLanes([...files].reverse(), 2)).toEqual(lanes);
  });

  it('keeps a chain of files linked through their stacks together, and refuses a lane count below 1', () => {
    const chain: LaneFile[] = [
      { path: '/a.e2e.test.ts', sharedKeys: ['one'] },
      { path: '/b.e2e.test.ts', sharedKeys: ['one', 'two'] },
      { path: '/c.e2e.test.ts', sharedKeys: ['two'] },
      { path: '/d.e2e.test.ts', sharedKeys: [] },
      { path: '/e.e2e.test.ts', sharedKeys: [] },
    ];
    const lanes = assignLanes(chain, 2, () => 10);
    expect(new Set(['/a.e2e.test.ts', '/b.e2e.test.ts', '/c.e2e.test.ts'].map((path) => lanes.get(path))).size).toBe(1);
    // The 30 s chain in one lane, the two lone files of 10 s in the other.
    expect(lanes.get('/d.e2e.test.ts')).toBe(lanes.get('/e.e2e.test.ts'));
    expect(lanes.get('/d.e2e.test.ts')).not.toBe(lanes.get('/a.e2e.test.ts'));
    expect(() => assignLanes(chain, 0)).toThrow(RangeError);
  });
});
