import { edition2025 } from '@sinilill/domain/seed';
import { describe, expect, it } from 'vitest';
import { isMissionReached, missingFlowers, unreachedMissions } from './missing-flowers';

// The first three missions of the 2025 route: ends 7, 27, 39 km, one flower each.
const missions = [
  { id: 1, end: 7, blueFlowerAmount: 1 },
  { id: 2, end: 27, blueFlowerAmount: 1 },
  { id: 3, end: 39, blueFlowerAmount: 1 },
];
const at = (inLapDistance: number, prestige = 0) => ({ inLapDistance, prestige });

describe('isMissionReached', () => {
  it('given a team exactly at the end, the flower is reached', () => {
    expect(isMissionReached(missions[0]!, [at(7)])).toBe(true);
    expect(isMissionReached(missions[0]!, [at(6.99)])).toBe(false);
  });

  it('given a team on its second lap, every mission has been reached', () => {
    expect(isMissionReached(missions[2]!, [at(0, 1)])).toBe(true);
  });

  it('given no teams, nothing is reached', () => {
    expect(isMissionReached(missions[0]!, [])).toBe(false);
  });
});

describe('unreachedMissions', () => {
  it('lists the missions beyond the furthest team, in route order', () => {
    expect(unreachedMissions(missions, [at(3), at(8)]).map((m) => m.id)).toEqual([2, 3]);
  });

  it('is empty once some team has reached the last one', () => {
    expect(unreachedMissions(missions, [at(0), at(39)])).toEqual([]);
  });
});

describe('missingFlowers', () => {
  it('given no teams, nothing is possible and every mission is unreached', () => {
    expect(missingFlowers([], missions, 1)).toEqual({ teams: 0, perTeam: 4, possible: 0, collected: 0, missing: 0, unreached: missions });
  });

  it('counts base + missions per team on the current lap', () => {
    // Team A at 8 km: base + mission 1 = 2 of 4; team B at 30 km: base + 2 missions = 3 of 4.
    expect(missingFlowers([at(8), at(30)], missions, 1)).toMatchObject({ teams: 2, possible: 8, collected: 5, missing: 3 });
  });

  it('given a team on its second lap, counts its current lap only', () => {
    expect(missingFlowers([at(10, 1)], missions, 1)).toMatchObject({ collected: 2, missing: 2, unreached: [] });
  });

  it('on the 2025 route, one team can hold 1 + 24 per lap and a fresh team misses 24', () => {
    const result = missingFlowers([at(0)], edition2025.route.missions, edition2025.flowers.base);
    expect(result).toMatchObject({ perTeam: 25, possible: 25, collected: 1, missing: 24 });
    expect(result.unreached).toHaveLength(24);
  });

  it('on the 2025 route, the last mission is reached only by completing the lap', () => {
    const { route, flowers } = edition2025;
    expect(missingFlowers([at(1892)], route.missions, flowers.base).unreached.map((m) => m.id)).toEqual([24]);
    expect(missingFlowers([at(1892), at(5, 1)], route.missions, flowers.base).unreached).toEqual([]);
  });
});
