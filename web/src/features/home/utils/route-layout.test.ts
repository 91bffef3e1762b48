import { describe, expect, it } from 'vitest';
import { edition2025 } from '@sinilill/domain/seed';
import { barPercent, missionBar, percentOfLap, percentOfSpan, teamDotPosition } from './route-layout';

const rule = { percentPerParticipant: 5, maxParticipants: 13 };
/** Four equal missions of a 1893 km lap: no segment needs widening. */
const even = missionBar(
  [0, 1, 2, 3].map((i) => ({ start: (1893 / 4) * i, end: (1893 / 4) * (i + 1) })),
  3,
);

describe('percentOfLap', () => {
  it('is the share of the lap', () => {
    expect(percentOfLap(0, 1893)).toBe(0);
    expect(percentOfLap(1893, 1893)).toBe(100);
    expect(percentOfLap(946.5, 1893)).toBeCloseTo(50);
  });

  it('stays on the bar', () => {
    expect(percentOfLap(-5, 1893)).toBe(0);
    expect(percentOfLap(2000, 1893)).toBe(100);
    expect(percentOfLap(10, 0)).toBe(0);
  });
});

describe('missionBar', () => {
  it('makes each segment as wide as its share of the km when none is too short', () => {
    expect(missionBar([{ start: 0, end: 30 }, { start: 30, end: 100 }], 10).segments).toEqual([
      { left: 0, width: 30 },
      { left: 30, width: 70 },
    ]);
  });

  it('widens short missions to the minimum and shares the rest in proportion', () => {
    const { segments } = missionBar([{ start: 0, end: 1 }, { start: 1, end: 31 }, { start: 31, end: 91 }], 10);
    expect(segments[0]).toEqual({ left: 0, width: 10 });
    expect(segments[1]!.width).toBeCloseTo(30);
    expect(segments[2]!.width).toBeCloseTo(60);
    expect(segments[2]!.left + segments[2]!.width).toBeCloseTo(100);
  });

  it('gives the 2025 route no segment under 28 px on a 900 px bar, the long ones still longer', () => {
    const { segments } = missionBar(edition2025.route.missions, (28 / 900) * 100);
    expect(segments).toHaveLength(24);
    for (const segment of segments) expect((segment.width / 100) * 900).toBeGreaterThanOrEqual(28 - 1e-9);
    expect(segments.reduce((sum, segment) => sum + segment.width, 0)).toBeCloseTo(100);
    // Mission 6 (342 km) stays the widest.
    expect(Math.max(...segments.map((s) => s.width))).toBe(segments[5]!.width);
  });

  it('makes every segment equally wide when the minimum leaves no room', () => {
    expect(missionBar([{ start: 0, end: 1 }, { start: 1, end: 100 }], 60).segments).toEqual([
      { left: 0, width: 50 },
      { left: 50, width: 50 },
    ]);
  });
});

describe('barPercent', () => {
  const bar = missionBar([{ start: 0, end: 1 }, { start: 1, end: 31 }, { start: 31, end: 91 }], 10);

  it('places km inside its mission segment in proportion', () => {
    expect(barPercent(0, bar)).toBe(0);
    expect(barPercent(0.5, bar)).toBeCloseTo(5);
    expect(barPercent(1, bar)).toBeCloseTo(10);
    expect(barPercent(16, bar)).toBeCloseTo(25);
    expect(barPercent(61, bar)).toBeCloseTo(70);
  });

  it('stays on the bar', () => {
    expect(barPercent(-5, bar)).toBe(0);
    expect(barPercent(91, bar)).toBe(100);
    expect(barPercent(500, bar)).toBe(100);
    expect(barPercent(3, missionBar([], 10))).toBe(0);
  });
});

describe('teamDotPosition', () => {
  it('places the dot by in-lap distance and 5 % up per member', () => {
    expect(teamDotPosition({ inLapDistance: 1893 / 4, participants: 4 }, even, rule)).toEqual({ leftPercent: 25, bottomPercent: 20 });
  });

  it('counts at most 13 members', () => {
    expect(teamDotPosition({ inLapDistance: 0, participants: 13 }, even, rule).bottomPercent).toBe(65);
    expect(teamDotPosition({ inLapDistance: 0, participants: 41 }, even, rule).bottomPercent).toBe(65);
  });

  it('puts a team without members on the bar', () => {
    expect(teamDotPosition({ inLapDistance: 0, participants: 0 }, even, rule).bottomPercent).toBe(0);
  });
});

describe('percentOfSpan', () => {
  it('is the position inside one mission', () => {
    expect(percentOfSpan(133, { start: 133, end: 251 })).toBe(0);
    expect(percentOfSpan(192, { start: 133, end: 251 })).toBeCloseTo(50);
  });
});
