/**
 * The repository's root folder, found from where this module runs: from the sources
 * (packages/config/src) as well as from a bundle that inlined it (e.g. services/gateway/dist).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True when `dir` holds a package.json with a `workspaces` field (the npm workspaces root). */
function isWorkspacesRoot(dir: string): boolean {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return false;
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return typeof manifest === 'object' && manifest !== null && 'workspaces' in manifest;
  } catch {
    // A half-written or foreign package.json is not the root; keep walking up.
    return false;
  }
}

/**
 * The nearest folder at or above `start` whose package.json has a `workspaces` field.
 * @param start an absolute or cwd-relative folder
 * @param fallback returned when no such folder exists up to the file system's root
 */
export function findRepoRoot(start: string, fallback: string = process.cwd()): string {
  let dir = resolve(start);
  for (;;) {
    if (isWorkspacesRoot(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return fallback;
    dir = parent;
  }
}

/** This module's folder; undefined where import.meta.url is not a file URL (e.g. a CommonJS bundle). */
function moduleDir(): string | undefined {
  try {
    return dirname(fileURLToPath(import.meta.url));
  } catch {
    return undefined;
  }
}

/**
 * The repository's root folder (where package.json with the workspaces is), absolute. Found by
 * walking up from this module's file, so it holds when esbuild bundles the module into a service's
 * dist/; process.cwd() when no such folder is above it (a bundle copied out of the tree).
 */
export const repoRoot: string = findRepoRoot(moduleDir() ?? process.cwd());
