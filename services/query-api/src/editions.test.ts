import { describe, expect, test } from 'vitest';
import { EditionCatalog } from '@sinilill/domain';
import { edition2025, edition2026Demo } from '@sinilill/domain/seed';
import { answeringEdition, editionView } from './editions';

const at = (iso: string) => new Date(iso);

describe('the edition the public answers are about', () => {
  const catalog = new EditionCatalog([
    { edition: edition2025, status: 'closed' },
    { edition: edition2026Demo, status: 'opened' },
  ]);

  test('the current one once its registration has opened', () => {
    expect(answeringEdition(catalog, at('2026-03-01T12:00:00Z'))?.edition.year).toBe(2026);
  });

  test('between editions, the one just finished until the next one opens its registration', () => {
    expect(answeringEdition(catalog, at('2026-02-27T12:00:00Z'))?.edition.year).toBe(2025);
  });

  test('never a draft: a log of drafts only answers for none', () => {
    expect(answeringEdition(new EditionCatalog([{ edition: edition2026Demo, status: 'planned' }]), at('2026-04-10T12:00:00Z'))).toBeNull();
  });

  test("an edition's view: its phase, registration and local day at the instant", () => {
    expect(editionView({ edition: edition2026Demo, status: 'opened' }, at('2026-03-31T22:30:00Z'))).toMatchObject({
      year: 2026, status: 'opened', phase: 'running', registrationOpen: true, today: '2026-04-01',
    });
    expect(editionView({ edition: edition2025, status: 'closed' }, at('2026-03-31T22:30:00Z'))).toMatchObject({ phase: 'closed', registrationOpen: false });
  });
});
