/**
 * Progress rules of spec §4: where a team stands on the route and how many blue flowers it holds.
 * Every function takes the team's distance in km — the ROUNDED team distance (spec §4: "team
 * totalDistance is the rounded sum of entry distances", see teamDistanceKm) — and the route or
 * edition whose parameters apply. Values with at most two decimals are handled exactly (integer
 * hundredths), others with plain floating point.
 */
import { DomainError } from '../errors';
import type { Edition, Mission, Route } from '../edition/types';
import { hasAtMostTwoDecimals } from '../distance';

interface LapPosition {
  prestige: number;
  inLap: number;
}

function assertDistance(distanceKm: number): void {
  if (typeof distanceKm !== 'number' || !Number.isFinite(distanceKm) || distanceKm < 0) {
    throw new DomainError('INVALID_DISTANCE', `team distance must be a finite number of km >= 0, got ${String(distanceKm)}`);
  }
}

/** a − b, exact when both have at most two decimals. */
function difference(a: number, b: number): number {
  if (hasAtMostTwoDecimals(a) && hasAtMostTwoDecimals(b)) {
    return (Math.round(a * 100) - Math.round(b * 100)) / 100 + 0;
  }
  return a - b;
}

function lapPosition(distanceKm: number, route: Route): LapPosition {
  assertDistance(distanceKm);
  const lap = route.lapLength;
  const prestige =
    hasAtMostTwoDecimals(distanceKm) && hasAtMostTwoDecimals(lap)
      ? Math.floor(Math.round(distanceKm * 100) / Math.round(lap * 100))
      : Math.floor(distanceKm / lap);
  return { prestige, inLap: difference(distanceKm, prestige * lap) };
}

/**
 * Prestige: the number of whole laps completed, floor(distanceKm / lapLength)
 * (2025: 1892 → 0, 1893 → 1, 3786 → 2).
 *
 * @param distanceKm the team's (rounded) distance, km, >= 0.
 * @throws DomainError('INVALID_DISTANCE') for a negative or non-finite distance. Source: spec §4.
 */
export function prestige(distanceKm: number, route: Route): number {
  return lapPosition(distanceKm, route).prestige;
}

/**
 * In-lap distance in km: distanceKm − prestige · lapLength, so always 0 <= result < lapLength
 * (2025: 1892 → 1892, 1893 → 0, 2000 → 107).
 *
 * @throws DomainError('INVALID_DISTANCE') for a negative or non-finite distance. Source: spec §4.
 */
export function inLapDistance(distanceKm: number, route: Route): number {
  return lapPosition(distanceKm, route).inLap;
}

/**
 * The progress bar's maximum in km: lapLength · (1 + prestige) (2025: 0 → 1893, 1893 → 3786).
 *
 * @throws DomainError('INVALID_DISTANCE') for a negative or non-finite distance. Source: spec §4.
 */
export function barMaximum(distanceKm: number, route: Route): number {
  return route.lapLength * (1 + lapPosition(distanceKm, route).prestige);
}

/**
 * Share of the current lap travelled: inLapDistance / lapLength, a FRACTION in [0, 1) — not a
 * percentage; multiply by 100 to display one (2025: 946.5 → 0.5, 1893 → 0).
 *
 * @throws DomainError('INVALID_DISTANCE') for a negative or non-finite distance. Source: spec §4.
 */
export function lapPercentage(distanceKm: number, route: Route): number {
  return lapPosition(distanceKm, route).inLap / route.lapLength;
}

/** Sum of blueFlowerAmount over the missions whose end <= the in-lap distance. */
function completedFlowers(inLap: number, route: Route): number {
  return route.missions.filter((m) => m.end <= inLap).reduce((sum, m) => sum + m.blueFlowerAmount, 0);
}

/**
 * Blue flowers held by a team: flowers.base (1) + prestige · flowers.perPrestige (100)
 * + the blueFlowerAmount of every mission whose end <= the in-lap distance
 * + flowers.fullLapBonus (100) if the in-lap distance >= lapLength.
 * 2025: 0 → 1, 7 → 2, 1892 → 24, 1893 → 101, 3785.99 → 124, 3786 → 201.
 *
 * The last term is the spec's literal rule. As inLapDistance < lapLength by construction it never
 * applies here; it would only matter for a lap-clamped in-lap value, and it is kept so the rule
 * reads as written. flowers.maxPerLapBase (101) is the resulting value at a lap's completion
 * (1 + 100), used for display (spec §9 gold card), not an input of this sum.
 *
 * @throws DomainError('INVALID_DISTANCE') for a negative or non-finite distance. Source: spec §4.
 */
export function blueFlowers(distanceKm: number, edition: Edition): number {
  const { route, flowers } = edition;
  const { prestige: laps, inLap } = lapPosition(distanceKm, route);
  const fullLap = inLap >= route.lapLength ? flowers.fullLapBonus : 0;
  return flowers.base + laps * flowers.perPrestige + completedFlowers(inLap, route) + fullLap;
}

/**
 * Km still to go to the next flower: the end of the first mission with end > in-lap distance,
 * minus the in-lap distance (2025: 0 → 7, 6.99 → 0.01, 7 → 20, 1892 → 1, 1893 → 7).
 * When no mission matches and the in-lap distance is under lapLength (a route that does not cover
 * its lap) the answer is flowers.nextFlowerFallbackKm (70), as the spec says; otherwise 0.
 *
 * @throws DomainError('INVALID_DISTANCE') for a negative or non-finite distance. Source: spec §4.
 */
export function distanceToNextFlower(distanceKm: number, edition: Edition): number {
  const { route, flowers } = edition;
  const { inLap } = lapPosition(distanceKm, route);
  const next = route.missions.find((m) => m.end > inLap);
  if (next) return difference(next.end, inLap);
  return inLap < route.lapLength ? flowers.nextFlowerFallbackKm : 0;
}

/**
 * The mission the team is in, for the home page's close-up bar (spec §2 "Clicking a mission
 * toggles a close-up bar listing the teams inside it"): the mission with start <= in-lap
 * distance < end (2025: 0 → mission 1, 7 → mission 2, 1893 → mission 1 of the next lap).
 * Undefined only if the route does not cover the in-lap distance.
 *
 * @throws DomainError('INVALID_DISTANCE') for a negative or non-finite distance.
 */
export function missionAt(distanceKm: number, route: Route): Mission | undefined {
  const { inLap } = lapPosition(distanceKm, route);
  return route.missions.find((m) => m.start <= inLap && inLap < m.end);
}

/** Everything spec §4 derives from a team's distance, in one object (see each function). */
export interface TeamProgress {
  /** The input: the team's (rounded) distance, km. */
  distanceKm: number;
  prestige: number;
  /** km, 0 <= x < lapLength. */
  inLapDistance: number;
  /** km. */
  barMaximum: number;
  /** Fraction 0..1 (not ×100). */
  lapPercentage: number;
  blueFlowers: number;
  /** km. */
  distanceToNextFlower: number;
  /** Missions completed in the current lap (end <= in-lap distance). */
  missionsCompleted: number;
  /** The mission containing the in-lap distance, or null if the route does not cover it. */
  mission: Mission | null;
}

/**
 * All progress figures of spec §4 for one team distance (km, the rounded team distance), as
 * computed by prestige, inLapDistance, barMaximum, lapPercentage, blueFlowers,
 * distanceToNextFlower and missionAt.
 *
 * @throws DomainError('INVALID_DISTANCE') for a negative or non-finite distance. Source: spec §4.
 */
export function teamProgress(distanceKm: number, edition: Edition): TeamProgress {
  const { route } = edition;
  const { prestige: laps, inLap } = lapPosition(distanceKm, route);
  return {
    distanceKm,
    prestige: laps,
    inLapDistance: inLap,
    barMaximum: barMaximum(distanceKm, route),
    lapPercentage: lapPercentage(distanceKm, route),
    blueFlowers: blueFlowers(distanceKm, edition),
    distanceToNextFlower: distanceToNextFlower(distanceKm, edition),
    missionsCompleted: route.missions.filter((m) => m.end <= inLap).length,
    mission: missionAt(distanceKm, route) ?? null,
  };
}
