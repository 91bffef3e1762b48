/**
 * Seed data, not rules: the editions as JSON in ./seed. The 2025 edition is the one this
 * application ran first; it is imported as events (EditionPlanned, EditionOpened) on a first
 * start and by `npm run import`, and it is the edition of every event written before editions
 * were data (the upcasters in ../events.ts). The 2026 edition is the launcher's demo of a
 * planned next year with a route of its own. Code reaches an edition through the log
 * (EditionCatalog), never through these constants; tests may use them directly.
 */
import edition2025Data from './seed/edition-2025.json';
import route2025 from './seed/route-2025.json';
import edition2026Data from './seed/edition-2026.json';
import route2026 from './seed/route-2026.json';
import { buildEdition } from './index';
import type { Edition } from './types';

/** The 2025 edition (spec §1, §9): 1–30 April 2025, 24 missions over 1893 km. Deeply frozen. */
export const edition2025: Edition = buildEdition(edition2025Data, route2025);

/** The demo's 2026 edition: 1–30 April 2026, 12 missions over 1500 km. Deeply frozen. */
export const edition2026Demo: Edition = buildEdition(edition2026Data, route2026);

export { YEAR_OF_EVENTS_BEFORE_EDITIONS } from './before-editions';

/**
 * The edition of a log without any edition event: one written before editions were data, whose
 * events the upcasters give to 2025 (EditionCatalog.fromEvents counts it as opened). A log
 * started since has its editions as events (the first start and `npm run import` plan them).
 */
export const EDITION_OF_EVENTS_BEFORE_EDITIONS: Edition = edition2025;

/** Seed editions by year (the importer looks an export's year up here). */
export const seedEditions: ReadonlyMap<number, Edition> = new Map([[2025, edition2025], [2026, edition2026Demo]]);
