/**
 * The 2025 export that `npm start` imports (infra/seed/edition-2025) is a copy of the shared
 * fixture; when the shared one is beside this repository (as in CI), the two must not drift.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { repoRoot } from '@sinilill/config';

const seed = join(repoRoot, 'infra/seed/edition-2025');
const shared = join(repoRoot, '../shared/fixtures/edition-2025');

test('the seed holds the three tables and the route', () => {
  expect(readdirSync(seed).sort()).toEqual(['README.md', 'entries.csv', 'participants.csv', 'route.json', 'teams.csv']);
});

test.runIf(existsSync(shared))('the seed equals the shared 2025 fixture, file by file', () => {
  for (const file of readdirSync(shared)) {
    expect(readFileSync(join(seed, file), 'utf8'), file).toBe(readFileSync(join(shared, file), 'utf8'));
  }
});

test("the 2025 seed edition's route is the fixture route", async () => {
  const route = JSON.parse(readFileSync(join(seed, 'route.json'), 'utf8')) as { missions: unknown[]; lapLength: number };
  const { edition2025 } = await import('@sinilill/domain/seed');
  expect(edition2025.route.lapLength).toBe(route.lapLength);
  expect(edition2025.route.missions).toEqual(route.missions);
});
