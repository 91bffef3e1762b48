/**
 * The command side's view of the editions: the EditionCatalog folded from the `edition-*`
 * streams of the log, kept for a short while so that a command does not read the editions
 * again each time (they change a few times a year), and dropped at once when this process
 * changes an edition.
 */
import { EditionCatalog } from '@sinilill/domain';
import { EDITION_OF_EVENTS_BEFORE_EDITIONS } from '@sinilill/domain/seed';
import type { EventStore } from '@sinilill/event-store';

/** Where commands learn the editions. */
export interface EditionSource {
  /** The catalogue as of at most `maxAgeMs` ago (EditionCatalog: current edition, next, by year). */
  catalog(): Promise<EditionCatalog>;
  /** Forgets the kept catalogue (after an edition command of this process). */
  invalidate(): void;
}

/** Reads every edition event of the log (category `edition`) and folds the catalogue. */
export async function readEditionCatalog(store: EventStore): Promise<EditionCatalog> {
  const events = await store.readEvents({ category: 'edition' });
  return EditionCatalog.fromEvents(events, EDITION_OF_EVENTS_BEFORE_EDITIONS);
}

/**
 * An EditionSource on the event store, keeping the catalogue for `maxAgeMs` (default 5 000 ms:
 * another process's edition change reaches this one within that time; an edition changes days
 * before it matters).
 */
export function storeEditionSource(store: EventStore, options: { maxAgeMs?: number; now?: () => number } = {}): EditionSource {
  const maxAgeMs = options.maxAgeMs ?? 5_000;
  const now = options.now ?? Date.now;
  let kept: { at: number; catalog: Promise<EditionCatalog> } | null = null;
  return {
    catalog() {
      if (kept && now() - kept.at < maxAgeMs) return kept.catalog;
      const catalog = readEditionCatalog(store);
      kept = { at: now(), catalog };
      catalog.catch(() => { kept = null; });
      return catalog;
    },
    invalidate() {
      kept = null;
    },
  };
}
