import { describe, expect, it } from 'vitest';
import { adminActor, participantActor, systemActor, testContext } from '../testing';
import { EditionCatalog } from './catalog';
import { editionForChanges, editionForEntries, withEdition } from './read-only';
import { edition2025, edition2026Demo } from './seed';

const catalog = (closed2025: boolean) => new EditionCatalog([
  { edition: edition2025, status: closed2025 ? 'closed' : 'opened' },
  { edition: edition2026Demo, status: 'opened' },
]);
const in2026 = (actor = participantActor(1, 1)) => testContext({ now: '2026-04-10T09:00:00.000Z', actor, edition: edition2026Demo });
const codeOf = (run: () => unknown): string => {
  try {
    run();
    return 'accepted';
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('editionForEntries', () => {
  it("decides a current edition's entry under that edition", () => {
    expect(editionForEntries(catalog(false), 2026, in2026())).toBe(edition2026Demo);
  });
  it("refuses a participant's entry for an edition other than the current one, closed or not", () => {
    expect(codeOf(() => editionForEntries(catalog(false), 2025, in2026()))).toBe('ENTRY_DEADLINE_PASSED');
    expect(codeOf(() => editionForEntries(catalog(true), 2025, in2026()))).toBe('ENTRY_DEADLINE_PASSED');
    expect(codeOf(() => editionForEntries(catalog(false), 2031, in2026()))).toBe('ENTRY_DEADLINE_PASSED');
  });
  it('lets administrators and the system correct an earlier edition under its own rules until it is closed', () => {
    expect(editionForEntries(catalog(false), 2025, in2026(adminActor))).toBe(edition2025);
    expect(editionForEntries(catalog(false), 2025, in2026(systemActor))).toBe(edition2025);
    expect(codeOf(() => editionForEntries(catalog(true), 2025, in2026(adminActor)))).toBe('ENTRY_DEADLINE_PASSED');
  });
  it("leaves an unknown participant's entry to the decider (the context's edition)", () => {
    expect(editionForEntries(catalog(true), null, in2026())).toBe(edition2026Demo);
  });
});

describe('editionForChanges', () => {
  it("decides under the thing's own edition, and refuses a closed one (EDITION_CLOSED)", () => {
    expect(editionForChanges(catalog(false), 2025, in2026())).toBe(edition2025);
    expect(codeOf(() => editionForChanges(catalog(true), 2025, in2026(adminActor)))).toBe('EDITION_CLOSED');
    expect(editionForChanges(catalog(true), 2026, in2026())).toBe(edition2026Demo);
    expect(editionForChanges(catalog(true), null, in2026())).toBe(edition2026Demo);
  });
});

describe('withEdition', () => {
  it('replaces the edition of a context, or keeps it when there is none', () => {
    expect(withEdition(in2026(), edition2025).edition).toBe(edition2025);
    expect(withEdition(in2026(), undefined).edition).toBe(edition2026Demo);
  });
});
