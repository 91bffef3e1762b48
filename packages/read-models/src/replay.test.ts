import { describe, expect, test } from 'vitest';
import { replayPercent } from './replay';

describe('replayPercent', () => {
  test('splits the work evenly over the projections, each reading the whole log', () => {
    expect(replayPercent(0, 4, 0, 1000)).toBe(0);
    expect(replayPercent(0, 4, 500, 1000)).toBe(12.5);
    expect(replayPercent(1, 4, 0, 1000)).toBe(25);
    expect(replayPercent(3, 4, 1000, 1000)).toBe(100);
  });

  test('never passes 100: events appended during the rebuild go beyond the head read at its start', () => {
    expect(replayPercent(3, 4, 1500, 1000)).toBe(100);
  });

  test('an empty log or no projections count as done', () => {
    expect(replayPercent(0, 2, 0, 0)).toBe(50);
    expect(replayPercent(0, 0, 0, 0)).toBe(100);
  });
});
