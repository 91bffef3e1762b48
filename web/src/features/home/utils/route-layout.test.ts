import { describe, expect, it } from 'vitest';
import { percentOfLap, percentOfSpan, teamDotPosition } from './route-layout';

const rule = { percentPerParticipant: 5, maxParticipants: 13 };

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

describe('teamDotPosition', () => {
  it('places the dot by in-lap distance and 5 % up per member', () => {
    expect(teamDotPosition({ inLapDistance: 1893 / 4, participants: 4 }, 1893, rule)).toEqual({ leftPercent: 25, bottomPercent: 20 });
  });

  it('counts at most 13 members', () => {
    expect(teamDotPosition({ inLapDistance: 0, participants: 13 }, 1893, rule).bottomPercent).toBe(65);
    expect(teamDotPosition({ inLapDistance: 0, participants: 41 }, 1893, rule).bottomPercent).toBe(65);
  });

  it('puts a team without members on the bar', () => {
    expect(teamDotPosition({ inLapDistance: 0, participants: 0 }, 1893, rule).bottomPercent).toBe(0);
  });
});

describe('percentOfSpan', () => {
  it('is the position inside one mission', () => {
    expect(percentOfSpan(133, { start: 133, end: 251 })).toBe(0);
    expect(percentOfSpan(192, { start: 133, end: 251 })).toBeCloseTo(50);
  });
});
