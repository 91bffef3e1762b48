import type { Route } from './types';

/**
 * Checks a route's shape (spec §1, §3 "Mission"): at least one mission; the first starts at 0;
 * each starts where the previous one ends (contiguous, increasing); end − start = distance > 0;
 * the last ends at `lapLength` (> 0); ids are unique; blueFlowerAmount is a non-negative integer.
 * All values in km.
 *
 * Returns the problems found, in English, one per broken rule (empty when the route is valid).
 * It never throws: a caller loading an edition decides what to do (seed data fails fast in buildEdition).
 */
export function validateRoute(route: Route): string[] {
  const problems: string[] = [];
  if (!(Number.isFinite(route.lapLength) && route.lapLength > 0)) {
    problems.push(`lapLength must be a positive number of km, got ${String(route.lapLength)}`);
  }
  if (route.missions.length === 0) {
    problems.push('the route has no missions');
    return problems;
  }
  const ids = new Set<number>();
  let expectedStart = 0;
  route.missions.forEach((mission, index) => {
    const label = `mission #${index + 1} (id ${mission.id})`;
    if (ids.has(mission.id)) problems.push(`${label}: duplicate id`);
    ids.add(mission.id);
    if (mission.start !== expectedStart) {
      problems.push(`${label}: starts at ${mission.start}, expected ${expectedStart}`);
    }
    if (!(mission.end > mission.start)) problems.push(`${label}: end ${mission.end} is not after start ${mission.start}`);
    // Compared in hundredths so that decimal lengths (12.5 km) don't trip over float drift.
    if (Math.round(mission.end * 100) - Math.round(mission.start * 100) !== Math.round(mission.distance * 100)) {
      problems.push(`${label}: end − start = ${mission.end - mission.start}, but distance is ${mission.distance}`);
    }
    if (!(Number.isInteger(mission.blueFlowerAmount) && mission.blueFlowerAmount >= 0)) {
      problems.push(`${label}: blueFlowerAmount must be a non-negative integer`);
    }
    expectedStart = mission.end;
  });
  const last = route.missions[route.missions.length - 1];
  if (last && last.end !== route.lapLength) {
    problems.push(`the last mission ends at ${last.end}, but lapLength is ${route.lapLength}`);
  }
  return problems;
}
