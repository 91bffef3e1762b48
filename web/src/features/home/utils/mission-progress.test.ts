import type { TeamStat } from '@sinilill/contracts';
import { describe, expect, it } from 'vitest';
import { missionProgress } from './mission-progress';

function team(id: number, inLapDistance: number, prestige = 0): TeamStat {
  return {
    team: { id, team_name: `Tiim ${id}`, icon: null, description: '' },
    distance: inLapDistance + prestige * 1893,
    participants: 3,
    dailyDistance: 0,
    prestige,
    inLapDistance,
    blueFlowers: 1,
  };
}

const missions = [
  { id: 1, start: 0, end: 7, blueFlowerAmount: 1 },
  { id: 2, start: 7, end: 27, blueFlowerAmount: 1 },
  { id: 3, start: 27, end: 39, blueFlowerAmount: 1 },
];

describe('missionProgress', () => {
  it('counts the teams inside each mission and tells which flowers some team has reached', () => {
    expect(missionProgress([team(1, 0), team(2, 7), team(3, 20)], missions)).toEqual([
      { teamCount: 1, reached: true },
      { teamCount: 2, reached: false },
      { teamCount: 0, reached: false },
    ]);
  });

  it('given a team on its second lap, it counts where it is now but all flowers are reached', () => {
    expect(missionProgress([team(1, 3, 1)], missions)).toEqual([
      { teamCount: 1, reached: true },
      { teamCount: 0, reached: true },
      { teamCount: 0, reached: true },
    ]);
  });
});
