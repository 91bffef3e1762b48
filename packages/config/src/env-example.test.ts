/**
 * infra/env.example against the schema: every variable the app reads is in the example, the
 * example names no variable the app does not read, and its uncommented lines are a complete
 * production configuration.
 */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, loadConfig, repoRoot } from './index';

const example = readFileSync(join(repoRoot, 'infra/env.example'), 'utf8').split('\n');

/** `KEY=value` and `# KEY=value` lines: name, value and whether the line is commented out. */
function assignments(lines: readonly string[]): { name: string; value: string; commented: boolean }[] {
  return lines.flatMap((line) => {
    const match = /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    return match ? [{ name: match[2]!, value: match[3]!, commented: match[1] !== undefined }] : [];
  });
}

describe('infra/env.example', () => {
  const named = assignments(example);

  it('names every variable of the schema', () => {
    // given the schema's variables, when looking for each in the example, then none is missing
    const inExample = new Set(named.map((line) => line.name));
    expect(CONFIG_VARIABLES.filter((name) => !inExample.has(name))).toEqual([]);
  });

  it('names no variable the schema does not have', () => {
    expect(named.map((line) => line.name).filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
  });

  it('names each variable once', () => {
    const names = named.map((line) => line.name);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it('is, by its uncommented lines, a production configuration that loads without generating anything', () => {
    // given the example's uncommented lines (NODE_ENV=production) and an empty DATA_DIR
    const dataDir = mkdtempSync(join(tmpdir(), 'sinilill-config-'));
    const env = Object.fromEntries(named.filter((line) => !line.commented).map((line) => [line.name, line.value]));
    expect(env.NODE_ENV).toBe('production');
    // when loading it
    const config = loadConfig({ ...env, DATA_DIR: dataDir });
    // then it is valid and DATA_DIR stays empty
    expect(config.nodeEnv).toBe('production');
    expect(config.payments.provider).toBe('montonio');
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

describe('the module docstring of packages/config/src/index.ts', () => {
  it('has a table row for every variable of the schema', () => {
    const source = readFileSync(join(repoRoot, 'packages/config/src/index.ts'), 'utf8');
    const table = source.split('\n').filter((line) => line.startsWith(' * | '));
    expect(CONFIG_VARIABLES.filter((name) => !table.some((row) => row.split('|')[1]!.split(',').map((cell) => cell.trim()).includes(name)))).toEqual([]);
  });
});
