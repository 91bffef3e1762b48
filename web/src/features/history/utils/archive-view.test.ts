import { edition2025 } from '@sinilill/domain/seed';
import { describe, expect, it } from 'vitest';
import type { ArchivedTeam } from '../../../lib/edition';
import { archiveTeamRows, missionsAtEnd } from './archive-view';

const route = edition2025.route;
const [first, second] = route.missions;
const team = (teamId: number, km: number, missionId: number, lapPercentage: number, prestige = 0): ArchivedTeam => ({
  teamId,
  teamName: `Tiim ${teamId}`,
  km,
  flowers: 1,
  prestige,
  missionId,
  lapPercentage,
});

describe('the archive page of a closed edition', () => {
  it('lists the teams most km first, numbered, with the mission they ended on in the page language', () => {
    const teams = [team(1, 10.5, first!.id, 0.005), team(2, 120.25, second!.id, 0.06354)];
    const rows = archiveTeamRows({ teams, route }, 'et');
    expect(rows.map((row) => [row.rank, row.teamId, row.missionName])).toEqual([
      [1, 2, second!.name.et],
      [2, 1, first!.name.et],
    ]);
    expect(archiveTeamRows({ teams, route }, 'en')[0]!.missionName).toBe(second!.name.en);
    // The lap fraction shown as a percentage with one decimal.
    expect(rows.map((row) => row.lapPercent)).toEqual([6.4, 0.5]);
  });

  it('names no mission the route does not have', () => {
    expect(archiveTeamRows({ teams: [team(1, 5, 999, 0)], route }, 'en')[0]!.missionName).toBe('');
  });

  it('counts the teams on each mission at the end and marks the flowers reached', () => {
    // The second team is past the first mission's end; nobody completed a lap.
    const pastFirst = (first!.end + 1) / route.lapLength;
    const states = missionsAtEnd(route, [team(1, 1, first!.id, 0.0001), team(2, first!.end + 1, second!.id, pastFirst)]);
    expect(states[0]).toEqual({ id: first!.id, teamCount: 1, reached: true });
    expect(states[1]).toEqual({ id: second!.id, teamCount: 1, reached: false });
    expect(states.slice(2).every((state) => state.teamCount === 0 && !state.reached)).toBe(true);
  });

  it('counts every flower as reached once a team has completed a lap', () => {
    expect(missionsAtEnd(route, [team(1, route.lapLength + 3, first!.id, 0.001, 1)]).every((state) => state.reached)).toBe(true);
  });
});
