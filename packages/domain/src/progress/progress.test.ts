import { describe, expect, it } from 'vitest';
import { edition2025 } from '../edition/seed';
import type { Edition } from '../edition/types';
import { DomainError } from '../errors';
import {
  barMaximum,
  blueFlowers,
  distanceToNextFlower,
  inLapDistance,
  lapPercentage,
  missionAt,
  prestige,
  teamProgress,
} from './progress';

const route = edition2025.route;

// Expected values worked out by hand from the 2025 mission ends:
// 7, 27, 39, 133, 251, 593, 663, 799, 871, 949, 1045, 1057, 1165, 1273, 1285, 1363, 1483, 1537,
// 1637, 1685, 1733, 1813, 1833, 1893 (lap 1893 km).
// flowers = 1 + 100·prestige + #(mission ends <= in-lap); next = first end > in-lap − in-lap.
const table: {
  d: number;
  prestige: number;
  inLap: number;
  barMax: number;
  pct: number;
  flowers: number;
  next: number;
  mission: number;
  completed: number;
}[] = [
  { d: 0, prestige: 0, inLap: 0, barMax: 1893, pct: 0, flowers: 1, next: 7, mission: 1, completed: 0 },
  { d: 6.99, prestige: 0, inLap: 6.99, barMax: 1893, pct: 6.99 / 1893, flowers: 1, next: 0.01, mission: 1, completed: 0 },
  { d: 7, prestige: 0, inLap: 7, barMax: 1893, pct: 7 / 1893, flowers: 2, next: 20, mission: 2, completed: 1 },
  { d: 7.01, prestige: 0, inLap: 7.01, barMax: 1893, pct: 7.01 / 1893, flowers: 2, next: 19.99, mission: 2, completed: 1 },
  { d: 26.99, prestige: 0, inLap: 26.99, barMax: 1893, pct: 26.99 / 1893, flowers: 2, next: 0.01, mission: 2, completed: 1 },
  { d: 27, prestige: 0, inLap: 27, barMax: 1893, pct: 27 / 1893, flowers: 3, next: 12, mission: 3, completed: 2 },
  { d: 100, prestige: 0, inLap: 100, barMax: 1893, pct: 100 / 1893, flowers: 4, next: 33, mission: 4, completed: 3 },
  { d: 600, prestige: 0, inLap: 600, barMax: 1893, pct: 600 / 1893, flowers: 7, next: 63, mission: 7, completed: 6 },
  { d: 946.5, prestige: 0, inLap: 946.5, barMax: 1893, pct: 0.5, flowers: 10, next: 2.5, mission: 10, completed: 9 },
  { d: 1000, prestige: 0, inLap: 1000, barMax: 1893, pct: 1000 / 1893, flowers: 11, next: 45, mission: 11, completed: 10 },
  { d: 1833, prestige: 0, inLap: 1833, barMax: 1893, pct: 1833 / 1893, flowers: 24, next: 60, mission: 24, completed: 23 },
  { d: 1892, prestige: 0, inLap: 1892, barMax: 1893, pct: 1892 / 1893, flowers: 24, next: 1, mission: 24, completed: 23 },
  { d: 1892.99, prestige: 0, inLap: 1892.99, barMax: 1893, pct: 1892.99 / 1893, flowers: 24, next: 0.01, mission: 24, completed: 23 },
  { d: 1893, prestige: 1, inLap: 0, barMax: 3786, pct: 0, flowers: 101, next: 7, mission: 1, completed: 0 },
  { d: 1894, prestige: 1, inLap: 1, barMax: 3786, pct: 1 / 1893, flowers: 101, next: 6, mission: 1, completed: 0 },
  { d: 2000, prestige: 1, inLap: 107, barMax: 3786, pct: 107 / 1893, flowers: 104, next: 26, mission: 4, completed: 3 },
  { d: 3785.99, prestige: 1, inLap: 1892.99, barMax: 3786, pct: 1892.99 / 1893, flowers: 124, next: 0.01, mission: 24, completed: 23 },
  { d: 3786, prestige: 2, inLap: 0, barMax: 5679, pct: 0, flowers: 201, next: 7, mission: 1, completed: 0 },
  { d: 3787, prestige: 2, inLap: 1, barMax: 5679, pct: 1 / 1893, flowers: 201, next: 6, mission: 1, completed: 0 },
  { d: 4000, prestige: 2, inLap: 214, barMax: 5679, pct: 214 / 1893, flowers: 205, next: 37, mission: 5, completed: 4 },
  { d: 5679, prestige: 3, inLap: 0, barMax: 7572, pct: 0, flowers: 301, next: 7, mission: 1, completed: 0 },
];

describe('progress rules of spec §4 on the 2025 route', () => {
  it.each(table)('d = $d km → prestige $prestige, in-lap $inLap, flowers $flowers, next $next', (row) => {
    expect(prestige(row.d, route)).toBe(row.prestige);
    // exact (hundredths arithmetic), not merely close
    expect(inLapDistance(row.d, route)).toBe(row.inLap);
    expect(barMaximum(row.d, route)).toBe(row.barMax);
    expect(lapPercentage(row.d, route)).toBeCloseTo(row.pct, 12);
    expect(blueFlowers(row.d, edition2025)).toBe(row.flowers);
    expect(distanceToNextFlower(row.d, edition2025)).toBe(row.next);
    expect(missionAt(row.d, route)?.id).toBe(row.mission);
  });

  it.each(table)('teamProgress(d = $d) gathers the same figures', (row) => {
    expect(teamProgress(row.d, edition2025)).toEqual({
      distanceKm: row.d,
      prestige: row.prestige,
      inLapDistance: row.inLap,
      barMaximum: row.barMax,
      lapPercentage: lapPercentage(row.d, route),
      blueFlowers: row.flowers,
      distanceToNextFlower: row.next,
      missionsCompleted: row.completed,
      mission: expect.objectContaining({ id: row.mission }),
    });
  });

  it('lap percentage is a fraction in [0, 1), not ×100', () => {
    expect(lapPercentage(946.5, route)).toBe(0.5);
    expect(lapPercentage(1892.99, route)).toBeLessThan(1);
  });

  it('handles distances with more than two decimals by plain floating point', () => {
    expect(prestige(1893.125, route)).toBe(1);
    expect(inLapDistance(1893.125, route)).toBeCloseTo(0.125, 10);
    expect(blueFlowers(7.005, edition2025)).toBe(2);
  });

  it.each([-1, -0.01, Number.NaN, Number.POSITIVE_INFINITY])('rejects the distance %s with INVALID_DISTANCE', (d) => {
    for (const f of [
      () => prestige(d, route),
      () => inLapDistance(d, route),
      () => barMaximum(d, route),
      () => lapPercentage(d, route),
      () => blueFlowers(d, edition2025),
      () => distanceToNextFlower(d, edition2025),
      () => missionAt(d, route),
      () => teamProgress(d, edition2025),
    ]) {
      expect(f).toThrow(DomainError);
      expect(f).toThrow('INVALID_DISTANCE');
    }
  });
});

describe('flower parameters come from the edition, not literals', () => {
  const mission = (id: number, start: number, end: number) => ({
    id,
    blueFlowerAmount: id === 2 ? 3 : 1,
    start,
    end,
    distance: end - start,
    name: { et: '', en: '' },
    description: { et: '', en: '' },
  });
  const custom: Edition = {
    ...edition2025,
    flowers: { base: 0, perPrestige: 10, fullLapBonus: 5, maxPerLapBase: 10, nextFlowerFallbackKm: 3 },
    route: { lapLength: 100, missions: [mission(1, 0, 20), mission(2, 20, 50)] },
  };

  it('uses base, perPrestige and each mission blueFlowerAmount', () => {
    expect(blueFlowers(0, custom)).toBe(0);
    expect(blueFlowers(20, custom)).toBe(1);
    expect(blueFlowers(50, custom)).toBe(4);
    expect(blueFlowers(250, custom)).toBe(24); // 2 laps ·10 + 1 + 3
  });

  it('falls back to nextFlowerFallbackKm when no mission ends beyond the in-lap distance', () => {
    expect(distanceToNextFlower(10, custom)).toBe(10);
    expect(distanceToNextFlower(60, custom)).toBe(3);
    expect(distanceToNextFlower(99.99, custom)).toBe(3);
    expect(missionAt(60, custom.route)).toBeUndefined();
    expect(teamProgress(60, custom).mission).toBeNull();
  });

  it('2025 uses 70 km as the fallback (spec §4)', () => {
    const gappy: Edition = { ...edition2025, route: { lapLength: 1893, missions: edition2025.route.missions.slice(0, 1) } };
    expect(distanceToNextFlower(100, gappy)).toBe(70);
  });
});
