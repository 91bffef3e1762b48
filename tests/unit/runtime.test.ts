/**
 * The runtime the app and its tests run on: a current Node.js LTS (24 or newer) that
 * the project brings in through npm (the `node` package puts its binary first on the PATH of npm
 * scripts), and no installed package that declares it needs a newer one.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { expect, test } from 'vitest';
import { repoRoot } from '@sinilill/config';

interface Manifest { name?: string; version?: string; engines?: { node?: string } }

function manifest(dir: string): Manifest | null {
  const file = join(dir, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : null;
}

/** Every package installed below `modules` (scopes and nested node_modules included). */
function installed(modules: string, found: { dir: string; manifest: Manifest }[] = []): typeof found {
  if (!existsSync(modules)) return found;
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    if (entry.name.startsWith('.')) continue;
    const dir = join(modules, entry.name);
    if (entry.name.startsWith('@')) { installed(dir, found); continue; }
    if (entry.isSymbolicLink()) continue; // the workspace's own packages: checked as the root is
    const pkg = manifest(dir);
    if (pkg) found.push({ dir, manifest: pkg });
    installed(join(dir, 'node_modules'), found);
  }
  return found;
}

test('the tests run on a Node.js LTS of 24 or newer: the one the node package installed', () => {
  const major = Number(process.versions.node.split('.')[0]);
  expect(major).toBeGreaterThanOrEqual(24);
  expect(major % 2, 'even majors are the LTS lines').toBe(0);
  expect(manifest(join(repoRoot, 'node_modules/node'))?.version).toBe(process.versions.node);
});

test('the root engines field states the runtime that runs the app', () => {
  const root = manifest(repoRoot)!;
  expect(semver.satisfies(process.versions.node, root.engines!.node!)).toBe(true);
  expect(semver.satisfies('20.20.0', root.engines!.node!)).toBe(false);
});

test('no installed package declares a Node.js newer than the one that runs it', () => {
  const packages = installed(join(repoRoot, 'node_modules'));
  expect(packages.length).toBeGreaterThan(300);
  const excluded = packages
    .filter(({ manifest: pkg }) => typeof pkg.engines?.node === 'string' && semver.validRange(pkg.engines.node))
    .filter(({ manifest: pkg }) => !semver.satisfies(process.versions.node, pkg.engines!.node!, { includePrerelease: true }))
    .map(({ dir, manifest: pkg }) => `${dir.slice(repoRoot.length + 1)}@${pkg.version}: node ${pkg.engines!.node}`);
  expect(excluded).toEqual([]);
});
