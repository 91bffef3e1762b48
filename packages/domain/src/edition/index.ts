/**
 * The editions as data. A new edition is a new pair of JSON files in ./data plus one line here.
 */
import editionData from './data/edition-2025.json';
import routeData from './data/route-2025.json';
import { validateRoute } from './route';
import type { Edition, Route } from './types';

export type { Edition, EntryTypeLimits, Mission, ModerationRules, Route } from './types';
export { validateRoute } from './route';

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Builds an Edition from its JSON parts (edition-YYYY.json without the route, route-YYYY.json)
 * and freezes it, so that no caller can change the rules of the running event by accident.
 *
 * @throws Error listing the problems when the route breaks validateRoute's rules (a data error,
 *   caught by the unit tests, not a user-facing DomainError).
 */
export function buildEdition(data: Omit<Edition, 'route'>, route: Route): Edition {
  const problems = validateRoute(route);
  if (problems.length > 0) throw new Error(`invalid route for edition ${data.year}: ${problems.join('; ')}`);
  const missions = route.missions.map((m) => ({ ...m, name: { ...m.name }, description: { ...m.description } }));
  return deepFreeze({ ...data, route: { lapLength: route.lapLength, missions } });
}

/**
 * The 2025 edition (spec §1, §9): 1–30 April 2025 in Europe/Tallinn, late entries until
 * 2025-05-03, 24 missions over a 1893 km lap, fees in EUR cents, limits and flower parameters.
 * Deeply frozen.
 */
export const edition2025: Edition = buildEdition(editionData, {
  lapLength: routeData.lapLength,
  missions: routeData.missions,
});

/** The edition the application runs (spec §9: 2025). */
export const currentEdition: Edition = edition2025;
