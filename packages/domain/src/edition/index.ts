/**
 * Editions as data (spec §1 "the yearly event"): the Edition type, its validation, its events
 * and decider (stream `edition-{year}`), and the catalogue that says which edition is current.
 * No edition is compiled in: seed data for the first import lives in ./seed.ts
 * ('@sinilill/domain/seed').
 */
import { validateRoute } from './route';
import type { Edition, Route } from './types';

export type { BilingualText, Edition, EntryTypeLimits, Mission, ModerationRules, Route } from './types';
export { validateRoute } from './route';
export { assertValidEdition, editionProblems, type EditionProblem } from './validate';
export type { EditionChanged, EditionClosed, EditionEvent, EditionOpened, EditionPlanned } from './events';
export { editionDecider, evolveEdition, type EditionCommand, type EditionState, type EditionStatus } from './decider';
export { EditionCatalog, editionView, isRegistrationOpen, lifePhase, type EditionLifePhase, type EditionRecord, type EditionView } from './catalog';
export { editionForChanges, editionForEntries, withEdition } from './read-only';

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Builds an Edition from its JSON parts (the edition without the route, the route) and
 * freezes it, so that no caller can change the rules of a running edition by accident.
 *
 * @throws Error listing the problems when the route breaks validateRoute's rules (seed data is
 *   checked by the unit tests; an admin's data goes through assertValidEdition instead).
 */
export function buildEdition(data: Omit<Edition, 'route'>, route: Route): Edition {
  const problems = validateRoute(route);
  if (problems.length > 0) throw new Error(`invalid route for edition ${data.year}: ${problems.join('; ')}`);
  const missions = route.missions.map((m) => ({ ...m, name: { ...m.name }, description: { ...m.description } }));
  return deepFreeze({ ...data, route: { lapLength: route.lapLength, missions } });
}
