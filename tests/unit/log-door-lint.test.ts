/**
 * The lint rule of eslint.config.js that keeps SQL on the log's table inside packages/event-store
 * (docs/decisions/0070-every-read-of-the-log-goes-through-event-store.md): it fires on a string
 * or template literal naming es.events in production code anywhere else, and nowhere it must not.
 */
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';
import { repoRoot } from '@sinilill/config';

const eslint = new ESLint({ cwd: repoRoot });
const CODE = [
  "export const plain = 'SELECT type FROM es.events WHERE stream = $1';",
  'export const template = (c: string) => `SELECT ${c} FROM es.events ORDER BY global_position`;',
  "export const other = 'SELECT 1 FROM es.events_by_team_x, es.streams';",
].join('\n');

/** The lines on which the rule fired for CODE linted as if it were `path`. */
async function firedAt(path: string): Promise<number[]> {
  const [result] = await eslint.lintText(CODE, { filePath: path });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax' && /es\.events/.test(m.message)).map((m) => m.line);
}

describe('only packages/event-store reads es.events', () => {
  test('a service, a package and the domain: the string and the template literal are refused', async () => {
    for (const path of ['services/query-api/src/probe.ts', 'packages/commands/src/probe.ts', 'packages/domain/src/probe.ts']) {
      expect(await firedAt(path), path).toEqual([1, 2]);
    }
  });

  test('the event store itself and tests may name the table', async () => {
    expect(await firedAt('packages/event-store/src/probe.ts')).toEqual([]);
    expect(await firedAt('services/query-api/src/probe.test.ts')).toEqual([]);
  });
});
