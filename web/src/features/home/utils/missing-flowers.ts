import type { TeamStat } from '@sinilill/contracts';

/** The part of a mission these functions need: its end (cumulative km) and its flowers. */
export interface FlowerMission {
  id: number;
  end: number;
  blueFlowerAmount: number;
}

/** The part of a team's stats these functions need. */
export type LapPosition = Pick<TeamStat, 'inLapDistance' | 'prestige'>;

/**
 * Whether some team has reached the mission's flower (spec §4: a mission's flower is collected
 * when its end is at or below the team's in-lap distance). A team that has completed a whole lap
 * (prestige ≥ 1) has passed every mission, the last one included: that mission ends at the lap's
 * end, so its flower is collected exactly when the in-lap distance starts again from 0, and an
 * in-lap test alone could never count it.
 */
export function isMissionReached(mission: FlowerMission, teams: readonly LapPosition[]): boolean {
  return teams.some((team) => team.prestige > 0 || team.inLapDistance >= mission.end);
}

/** The missions no team has reached yet (see isMissionReached), in route order. */
export function unreachedMissions<M extends FlowerMission>(missions: readonly M[], teams: readonly LapPosition[]): M[] {
  return missions.filter((mission) => !isMissionReached(mission, teams));
}

export interface MissingFlowers<M extends FlowerMission = FlowerMission> {
  /** Number of teams. */
  teams: number;
  /** What one team can collect on one lap: the base flower plus every mission's (1 + 24 in 2025). */
  perTeam: number;
  /** teams × perTeam: every team at the end of its current lap. */
  possible: number;
  /** Flowers the teams hold on their current laps: base + missions whose end ≤ in-lap distance. */
  collected: number;
  /** possible − collected: flowers still open on the teams' current laps. */
  missing: number;
  /** Missions that no team has reached yet, in route order (empty when every one has been). */
  unreached: M[];
}

/**
 * The blue flowers the event has not collected yet (spec §2 "Home: missing flowers";
 * §4, §9): per team, on its current lap, `base` + 1 flower per mission (blueFlowerAmount)
 * whose end is at or below its in-lap distance, against the `base` + all missions it could hold
 * at the lap's end; and the missions nobody has reached. The 100 of a completed lap (spec §4
 * prestige) are not part of a lap's count: they are in the teams' blueFlowers totals instead.
 */
export function missingFlowers<M extends FlowerMission>(
  teams: readonly LapPosition[],
  missions: readonly M[],
  base: number,
): MissingFlowers<M> {
  const perTeam = base + missions.reduce((sum, mission) => sum + mission.blueFlowerAmount, 0);
  const collected = teams.reduce(
    (sum, team) => sum + base + missions.filter((m) => m.end <= team.inLapDistance).reduce((s, m) => s + m.blueFlowerAmount, 0),
    0,
  );
  const possible = teams.length * perTeam;
  return { teams: teams.length, perTeam, possible, collected, missing: possible - collected, unreached: unreachedMissions(missions, teams) };
}
