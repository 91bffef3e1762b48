/**
 * Which year an export is imported into and which edition data it plans (edition-setup.ts),
 * without a database: the export's own word (edition.json, route.json), the --year flag, the seed,
 * and the refusals with their codes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { edition2025, edition2026Demo } from '@sinilill/domain/seed';
import { editionDataFor, exportYear, importYear, ImportRefused } from './edition-setup';

const folders: string[] = [];
afterAll(() => { for (const folder of folders) rmSync(folder, { recursive: true, force: true }); });

/** An export folder with the given files (name → JSON value, or raw text). */
function exportWith(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'sinilill-edition-setup-'));
  folders.push(dir);
  for (const [name, value] of Object.entries(files)) writeFileSync(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
  return dir;
}

/** The refusal `run` throws (fails the test when it throws none or another error). */
function refusal(run: () => unknown): ImportRefused {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportRefused);
    return error as ImportRefused;
  }
  throw new Error('expected an ImportRefused');
}

/** The 2026 demo edition as an organiser's edition.json, moved to `year` unchanged otherwise. */
const editionJson = (changes: Record<string, unknown> = {}) => ({ ...JSON.parse(JSON.stringify(edition2026Demo)) as object, ...changes });

describe('importYear', () => {
  test("is the --year given, else the export's edition.json year, else its route.json's edition", () => {
    expect(importYear(exportWith({ 'route.json': { edition: 2025, missions: [] } }), 2030)).toBe(2030);
    expect(importYear(exportWith({ 'edition.json': editionJson() }), null)).toBe(2026);
    expect(importYear(exportWith({ 'route.json': { edition: 2025, missions: [] } }), null)).toBe(2025);
    expect(exportYear(exportWith({}))).toBeNull();
  });

  test('refuses an export that does not say its year when none is given, and an edition.json of another year than given', () => {
    expect(refusal(() => importYear(exportWith({}), null)).code).toBe('IMPORT_YEAR_UNKNOWN');
    expect(refusal(() => importYear(exportWith({ 'route.json': { lapLength: 10 } }), null)).code).toBe('IMPORT_YEAR_UNKNOWN');
    const mismatch = refusal(() => importYear(exportWith({ 'edition.json': editionJson() }), 2027));
    expect(mismatch).toMatchObject({ code: 'IMPORT_YEAR_MISMATCH', field: 'year' });
  });
});

describe('editionDataFor', () => {
  test('is the seed edition of the year when the export has no edition.json; refused for a year without seed data', () => {
    expect(editionDataFor(exportWith({}), 2025)).toBe(edition2025);
    expect(refusal(() => editionDataFor(exportWith({}), 2019)).code).toBe('IMPORT_EDITION_UNKNOWN');
  });

  test("is the export's edition.json, validated; a route kept apart in route.json is used when edition.json has none", () => {
    expect(editionDataFor(exportWith({ 'edition.json': editionJson() }), 2026)).toEqual(edition2026Demo);
    const { route, ...withoutRoute } = editionJson() as { route: { lapLength: number; missions: unknown[] } };
    const apart = exportWith({ 'edition.json': withoutRoute, 'route.json': { edition: 2026, note: 'illustrative', ...route } });
    expect(editionDataFor(apart, 2026).route).toEqual(edition2026Demo.route);
  });

  test('refuses invalid data with the domain code and field, text that is no JSON, and an edition.json of another year', () => {
    expect(refusal(() => editionDataFor(exportWith({ 'edition.json': editionJson({ fees: { ...edition2026Demo.fees, childCents: -5 } }) }), 2026)))
      .toMatchObject({ code: 'EDITION_FEE_INVALID', field: 'fees.childCents' });
    expect(refusal(() => editionDataFor(exportWith({ 'edition.json': '{ "year": 2026,' }), 2026)).code).toBe('EDITION_INVALID');
    expect(refusal(() => editionDataFor(exportWith({ 'edition.json': editionJson() }), 2027))).toMatchObject({ code: 'IMPORT_YEAR_MISMATCH' });
  });
});
