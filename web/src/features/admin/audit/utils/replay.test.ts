import { describe, expect, it } from 'vitest';
import { changedTotals, isReplayFinished, replayPercent, totalsEqual } from './replay';

const totals = { teams: 120, participants: 900, distance: 196445, blueFlowers: 2400 };

describe('isReplayFinished', () => {
  it('is true for completed and failed only', () => {
    expect(['waiting', 'active', 'completed', 'failed'].map((s) => isReplayFinished(s as never))).toEqual([false, false, true, true]);
  });
});

describe('replayPercent', () => {
  const progress = (percent: number) => ({ projection: 'team-stats', position: 10, head: 20, read: 10, percent });

  it('is 0 before the worker reports and 100 once completed', () => {
    expect(replayPercent({ state: 'waiting', progress: null })).toBe(0);
    expect(replayPercent({ state: 'completed', progress: progress(99.4) })).toBe(100);
  });

  it('rounds and bounds the reported percent', () => {
    expect(replayPercent({ state: 'active', progress: progress(45.6) })).toBe(46);
    expect(replayPercent({ state: 'active', progress: progress(140) })).toBe(100);
    expect(replayPercent({ state: 'active', progress: progress(Number.NaN) })).toBe(0);
  });
});

describe('totalsEqual, changedTotals', () => {
  it('compares every total', () => {
    expect(totalsEqual(totals, { ...totals })).toBe(true);
    expect(changedTotals(totals, { ...totals })).toEqual([]);
    const after = { ...totals, distance: 196450, blueFlowers: 2401 };
    expect(totalsEqual(totals, after)).toBe(false);
    expect(changedTotals(totals, after)).toEqual(['distance', 'blueFlowers']);
  });
});
