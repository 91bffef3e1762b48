import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { findRepoRoot, repoRoot } from './index';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A temporary folder tree: { 'a/package.json': '{…}' } */
function tree(base: string, files: Record<string, string>): string {
  const root = mkdtempSync(base);
  made.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

describe('repoRoot', () => {
  it('is the folder whose package.json has the workspaces', () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { workspaces?: unknown };
    expect(manifest.workspaces).toBeInstanceOf(Array);
    expect(readFileSync(join(repoRoot, 'packages/config/src/repo-root.ts'), 'utf8')).toContain('export const repoRoot');
  });

  it('holds when the module is bundled into a service\'s dist/ folder', async () => {
    // given repo-root.ts bundled by esbuild into <tmp>/services/gateway/dist/server.mjs inside the repository
    const tmp = tree(join(repoRoot, 'packages/config/.tmp-bundle-'), { 'services/gateway/package.json': '{ "name": "gateway" }' });
    const outfile = join(tmp, 'services/gateway/dist/server.mjs');
    await build({ entryPoints: [join(repoRoot, 'packages/config/src/repo-root.ts')], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'silent' });
    // when node runs the bundle
    const printed = execFileSync(process.execPath, ['--input-type=module', '-e', `import { repoRoot } from ${JSON.stringify(pathToFileURL(outfile).href)}; console.log(repoRoot);`], { cwd: tmpdir(), encoding: 'utf8' });
    // then it finds the repository, not the bundle's folder or the working directory
    expect(printed.trim()).toBe(repoRoot);
  });
});

describe('findRepoRoot', () => {
  it('walks up past package.json files without workspaces to the one with them', () => {
    const root = tree(join(tmpdir(), 'sinilill-root-'), {
      'package.json': '{ "name": "root", "workspaces": ["services/*"] }',
      'services/gateway/package.json': '{ "name": "gateway" }',
      'services/gateway/dist/server.js': '',
    });
    expect(findRepoRoot(join(root, 'services/gateway/dist'))).toBe(root);
    expect(findRepoRoot(root)).toBe(root);
  });

  it('skips a package.json that is not JSON', () => {
    const root = tree(join(tmpdir(), 'sinilill-root-'), { 'package.json': '{ "workspaces": [] }', 'a/package.json': '{ half' });
    expect(findRepoRoot(join(root, 'a'))).toBe(root);
  });

  it('falls back when no folder above has the workspaces', () => {
    const lonely = tree(join(tmpdir(), 'sinilill-lonely-'), { 'dist/package.json': '{ "name": "bundle" }' });
    expect(findRepoRoot(join(lonely, 'dist'), '/fallback')).toBe('/fallback');
  });
});
