/**
 * What an archive page (/history/{year}) shows of GET /api/history/editions/:year, worked out
 * without React: the teams in order with their place on the route, and each mission's state at
 * the end (how many teams stood on it, whether any team reached its flower).
 */
import type { Language } from '@sinilill/contracts';
import type { Route } from '@sinilill/domain';
import type { ArchivedEditionAnswer, ArchivedTeam } from '../../../lib/edition';

/** One row of the archive's team table. */
export interface ArchiveTeamRow extends ArchivedTeam {
  /** 1 for the team with the most km (ties keep the server's order). */
  rank: number;
  /** The name of the mission the team ended on, in the page's language; '' when the route has no such mission. */
  missionName: string;
  /** How far into its lap, in percent (0–100, one decimal at most). */
  lapPercent: number;
}

/** The teams, most km first, numbered, with their mission's name in `lang`. */
export function archiveTeamRows(answer: Pick<ArchivedEditionAnswer, 'teams' | 'route'>, lang: Language): ArchiveTeamRow[] {
  const names = new Map(answer.route.missions.map((mission) => [mission.id, mission.name[lang]]));
  return [...answer.teams]
    .sort((a, b) => b.km - a.km)
    .map((team, index) => ({ ...team, rank: index + 1, missionName: names.get(team.missionId) ?? '', lapPercent: Math.round(team.lapPercentage * 1000) / 10 }));
}

/** A mission at the end of an edition. */
export interface MissionAtEnd {
  id: number;
  /** Teams whose last position was inside this mission. */
  teamCount: number;
  /** Some team passed the mission's end on its lap, or completed a whole lap. */
  reached: boolean;
}

/**
 * Each mission's state at the end, in route order. A team's in-lap km is its lap fraction
 * (`lapPercentage`, in [0, 1)) times the lap's length; a team with a full lap behind it (prestige > 0) has reached every flower.
 */
export function missionsAtEnd(route: Route, teams: readonly ArchivedTeam[]): MissionAtEnd[] {
  return route.missions.map((mission) => ({
    id: mission.id,
    teamCount: teams.filter((team) => team.missionId === mission.id).length,
    reached: teams.some((team) => team.prestige > 0 || team.lapPercentage * route.lapLength >= mission.end),
  }));
}
