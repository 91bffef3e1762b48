import { describe, expect, it } from 'vitest';
import { validateRoute } from './index';
import { edition2025 } from './seed';
import type { Route } from './types';

describe('edition 2025', () => {
  it('carries the spec §9 constants', () => {
    expect(edition2025).toMatchObject({
      year: 2025,
      timeZone: 'Europe/Tallinn',
      startDate: '2025-04-01',
      endDate: '2025-04-30',
      lateEntriesUntil: '2025-05-03',
      limits: { emailMax: 264, fullNameMax: 32, joinCodeMax: 64, teamNameMax: 50, descriptionMax: 256, birthYearMin: 1901, birthYearMax: 2023 },
      flowers: { base: 1, perPrestige: 100, fullLapBonus: 100, maxPerLapBase: 101, nextFlowerFallbackKm: 70 },
    });
  });

  it('has a valid 24-mission route of 1893 km, first end 7, last end 1893', () => {
    const { route } = edition2025;
    expect(validateRoute(route)).toEqual([]);
    expect(route.missions).toHaveLength(24);
    expect(route.lapLength).toBe(1893);
    expect(route.missions[0]?.end).toBe(7);
    expect(route.missions.at(-1)?.end).toBe(1893);
    expect(route.missions.map((m) => m.end)).toEqual([
      7, 27, 39, 133, 251, 593, 663, 799, 871, 949, 1045, 1057, 1165, 1273, 1285, 1363, 1483, 1537, 1637, 1685, 1733,
      1813, 1833, 1893,
    ]);
    expect(route.missions.reduce((sum, m) => sum + m.blueFlowerAmount, 0)).toBe(24);
  });

  it('is frozen, so nobody changes the running rules by accident', () => {
    expect(Object.isFrozen(edition2025)).toBe(true);
    expect(Object.isFrozen(edition2025.route.missions[0])).toBe(true);
    expect(() => {
      (edition2025.flowers as { base: number }).base = 2;
    }).toThrow(TypeError);
  });
});

describe('validateRoute', () => {
  const mission = (id: number, start: number, end: number, distance = end - start) => ({
    id,
    blueFlowerAmount: 1,
    start,
    end,
    distance,
    name: { et: `m${id}`, en: `m${id}` },
    description: { et: '', en: '' },
  });
  const route = (lapLength: number, ...missions: ReturnType<typeof mission>[]): Route => ({ lapLength, missions });

  it('accepts a contiguous route ending at the lap length', () => {
    expect(validateRoute(route(30, mission(1, 0, 10), mission(2, 10, 30)))).toEqual([]);
  });
  it('accepts decimal lengths without float drift', () => {
    expect(validateRoute(route(0.3, mission(1, 0, 0.1, 0.1), mission(2, 0.1, 0.3, 0.2)))).toEqual([]);
  });
  it('rejects a first mission not starting at 0', () => {
    expect(validateRoute(route(30, mission(1, 1, 30)))).toEqual([expect.stringContaining('starts at 1, expected 0')]);
  });
  it('rejects a gap or overlap between missions', () => {
    expect(validateRoute(route(30, mission(1, 0, 10), mission(2, 11, 30)))).toEqual([
      expect.stringContaining('starts at 11, expected 10'),
    ]);
  });
  it('rejects a distance that is not end - start', () => {
    expect(validateRoute(route(30, mission(1, 0, 30, 29)))).toEqual([expect.stringContaining('distance is 29')]);
  });
  it('rejects a last end other than the lap length', () => {
    expect(validateRoute(route(31, mission(1, 0, 30)))).toEqual([expect.stringContaining('lapLength is 31')]);
  });
  it('rejects an empty route, a non-positive lap, an empty mission, duplicate ids and odd flower amounts', () => {
    expect(validateRoute(route(10))).toEqual(['the route has no missions']);
    expect(validateRoute(route(0, mission(1, 0, 0)))).toEqual([
      expect.stringContaining('lapLength must be a positive'),
      expect.stringContaining('end 0 is not after start 0'),
    ]);
    expect(validateRoute(route(20, mission(1, 0, 10), mission(1, 10, 20)))).toEqual([expect.stringContaining('duplicate id')]);
    expect(validateRoute(route(10, { ...mission(1, 0, 10), blueFlowerAmount: 0.5 }))).toEqual([
      expect.stringContaining('blueFlowerAmount'),
    ]);
  });
});
