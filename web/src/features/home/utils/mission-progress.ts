import type { TeamStat } from '@sinilill/contracts';
import { isMissionReached, type FlowerMission } from './missing-flowers';
import { isInMission, type MissionSpan } from './teams-in-mission';

/** A mission's state on the route map. */
export interface MissionProgress {
  /** Teams inside the mission now (start ≤ in-lap distance < end, as in the close-up). */
  teamCount: number;
  /** Whether some team has reached the mission's flower (see isMissionReached). */
  reached: boolean;
}

/** The route map's state of each mission, in the missions' order. */
export function missionProgress(teams: readonly TeamStat[], missions: readonly (MissionSpan & FlowerMission)[]): MissionProgress[] {
  return missions.map((mission) => ({
    teamCount: teams.filter((team) => isInMission(team.inLapDistance, mission)).length,
    reached: isMissionReached(mission, teams),
  }));
}
