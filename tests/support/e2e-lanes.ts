/**
 * The browser test files split into lanes that run side by side, one vitest process each
 * (tests/support/run-e2e.ts runs them; StackOrderSequencer.shard picks a lane's files with this).
 *
 * Rule: files that share a stack (`sharedStack` of the same settings, through any of the stacks a
 * file asks for) are in one lane, because they count, rate-limit and change one stack's data one
 * after another (docs/decisions/0077); every other file (its own stack, or none) is a group of
 * its own. Groups go, heaviest first, to the lane with the least weight so far (ties: the lower
 * lane, then the file name), so every lane's process computes the same split from the same files.
 *
 * Weights: each file's seconds in a clean-clone CI run on the 2-core machine (2026-12-05, one
 * lane); a file not listed weighs DEFAULT_SECONDS. They only balance the lanes: a stale figure
 * makes one lane longer, never a file run twice or not at all. Free of imports, as the sequencer
 * that uses it is loaded by Node's type stripping (stack-plan.ts).
 */

/** Measured seconds of each e2e file (see the module comment). */
export const E2E_FILE_SECONDS: Readonly<Record<string, number>> = {
  'layout.e2e.test.ts': 112, 'public-site.e2e.test.ts': 77, 'strava.e2e.test.ts': 45, 'production.e2e.test.ts': 35,
  'journeys-admin.e2e.test.ts': 34, 'csp.e2e.test.ts': 34, 'whole-year.e2e.test.ts': 32, 'journeys-public.e2e.test.ts': 32,
  'accounts.e2e.test.ts': 29, 'journeys-accounts.e2e.test.ts': 27, 'journeys-numbers.e2e.test.ts': 26, 'rough-edges.e2e.test.ts': 25,
  'editions-console.e2e.test.ts': 24, 'admin-pages.e2e.test.ts': 23, 'journeys-money.e2e.test.ts': 21, 'admin.e2e.test.ts': 19,
  'company-fee.e2e.test.ts': 16, 'money-raised.e2e.test.ts': 15, 'archive.e2e.test.ts': 15, 'team.e2e.test.ts': 14,
  'resilience.e2e.test.ts': 13, 'home.e2e.test.ts': 11, 'activity-files.e2e.test.ts': 11, 'payments.e2e.test.ts': 10,
  'moderation.e2e.test.ts': 10, 'announcements.e2e.test.ts': 10, 'certificates.e2e.test.ts': 8, 'my-data.e2e.test.ts': 7,
  'draw.e2e.test.ts': 7, 'offline.e2e.test.ts': 6, 'contributions.e2e.test.ts': 6, 'sessions.e2e.test.ts': 5,
  'idempotent-retry.e2e.test.ts': 3,
};

/** The weight of a file whose seconds are not measured yet. */
export const DEFAULT_SECONDS = 15;

/** A file to place: its path and the keys of the shared stacks it asks for (none: it shares nothing). */
export interface LaneFile {
  path: string;
  sharedKeys: readonly string[];
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** The seconds a file is expected to take (E2E_FILE_SECONDS by its base name, else DEFAULT_SECONDS). */
export function fileSeconds(path: string): number {
  return E2E_FILE_SECONDS[baseName(path)] ?? DEFAULT_SECONDS;
}

/**
 * The lane (0 … lanes − 1) of each file, by the rule of the module comment.
 * @param files every e2e file of the run, in any order.
 * @param lanes how many lanes, at least 1.
 * @param seconds a file's weight (default fileSeconds).
 * @returns the lane of each path.
 */
export function assignLanes(files: readonly LaneFile[], lanes: number, seconds: (path: string) => number = fileSeconds): Map<string, number> {
  if (!Number.isInteger(lanes) || lanes < 1) throw new RangeError(`lanes must be a whole number of at least 1, not ${lanes}`);
  // Groups by union–find over the shared stacks' keys.
  const parent = new Map<string, string>();
  const find = (node: string): string => {
    let root = node;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(node, root);
    return root;
  };
  const join = (a: string, b: string) => parent.set(find(a), find(b));
  for (const file of files) {
    parent.set(`file:${file.path}`, `file:${file.path}`);
    for (const key of file.sharedKeys) if (!parent.has(`stack:${key}`)) parent.set(`stack:${key}`, `stack:${key}`);
  }
  for (const file of files) for (const key of file.sharedKeys) join(`file:${file.path}`, `stack:${key}`);

  const groups = new Map<string, { paths: string[]; weight: number }>();
  for (const file of files) {
    const root = find(`file:${file.path}`);
    const group = groups.get(root) ?? { paths: [], weight: 0 };
    group.paths.push(file.path);
    group.weight += seconds(file.path);
    groups.set(root, group);
  }
  const ordered = [...groups.values()]
    .map((group) => ({ ...group, name: [...group.paths].sort()[0]! }))
    .sort((a, b) => b.weight - a.weight || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const load = Array.from({ length: lanes }, () => 0);
  const lane = new Map<string, number>();
  for (const group of ordered) {
    const lightest = load.indexOf(Math.min(...load));
    load[lightest]! += group.weight;
    for (const path of group.paths) lane.set(path, lightest);
  }
  return lane;
}
