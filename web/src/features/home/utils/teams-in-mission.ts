import type { TeamStat } from '@sinilill/contracts';

/** The part of a mission these functions need: cumulative km from the lap's start. */
export interface MissionSpan {
  start: number;
  end: number;
}

/**
 * Whether a team's in-lap distance lies inside the mission: `start <= inLap < end`. A team
 * exactly at a mission's end has collected its flower (spec §4: end at or below the in-lap
 * distance) and stands at the start of the next mission.
 */
export function isInMission(inLapDistance: number, mission: MissionSpan): boolean {
  return inLapDistance >= mission.start && inLapDistance < mission.end;
}

/**
 * The teams inside `mission` (for the home page's close-up), furthest along first, then by
 * name. Does not modify `teams`.
 */
export function teamsInMission(teams: readonly TeamStat[], mission: MissionSpan): TeamStat[] {
  return teams
    .filter((team) => isInMission(team.inLapDistance, mission))
    .sort((a, b) => b.inLapDistance - a.inLapDistance || a.team.team_name.localeCompare(b.team.team_name, 'et') || a.team.id - b.team.id);
}

/** How many teams each mission holds, in the missions' order. */
export function teamCountsByMission(teams: readonly TeamStat[], missions: readonly MissionSpan[]): number[] {
  return missions.map((mission) => teams.filter((team) => isInMission(team.inLapDistance, mission)).length);
}
