import type { TeamStat } from '@sinilill/contracts';
import { describe, expect, it } from 'vitest';
import { isInMission, teamCountsByMission, teamsInMission } from './teams-in-mission';

function team(id: number, name: string, inLapDistance: number): TeamStat {
  return {
    team: { id, team_name: name, icon: null, description: '' },
    distance: inLapDistance,
    participants: 3,
    dailyDistance: 0,
    prestige: 0,
    inLapDistance,
    blueFlowers: 1,
  };
}

// The first three missions of the 2025 route: 0–7, 7–27, 27–39 km.
const missions = [
  { start: 0, end: 7 },
  { start: 7, end: 27 },
  { start: 27, end: 39 },
];

describe('isInMission', () => {
  it('includes the start and excludes the end', () => {
    expect(isInMission(0, missions[0]!)).toBe(true);
    expect(isInMission(6.99, missions[0]!)).toBe(true);
    expect(isInMission(7, missions[0]!)).toBe(false);
    expect(isInMission(7, missions[1]!)).toBe(true);
  });
});

describe('teamsInMission', () => {
  const teams = [team(1, 'Algajad', 0), team(2, 'Piiril', 7), team(3, 'Teel', 20), team(4, 'Kaugel', 38), team(5, 'Ees', 26)];

  it('lists the teams inside the mission, furthest first', () => {
    expect(teamsInMission(teams, missions[1]!).map((t) => t.team.id)).toEqual([5, 3, 2]);
  });

  it('given a team on its second lap, places it by its in-lap distance', () => {
    const lapper = { ...team(6, 'Teine ring', 3), distance: 1896, prestige: 1 };
    expect(teamsInMission([lapper], missions[0]!).map((t) => t.team.id)).toEqual([6]);
    expect(teamsInMission([lapper], missions[2]!)).toEqual([]);
  });

  it('orders teams at the same spot by name', () => {
    const tied = [team(7, 'Öökullid', 10), team(8, 'Ilvesed', 10)];
    expect(teamsInMission(tied, missions[1]!).map((t) => t.team.team_name)).toEqual(['Ilvesed', 'Öökullid']);
  });

  it('is empty when no team is inside', () => {
    expect(teamsInMission([team(9, 'Mujal', 100)], missions[0]!)).toEqual([]);
  });

  it('counts teams per mission', () => {
    expect(teamCountsByMission(teams, missions)).toEqual([1, 3, 1]);
  });
});
