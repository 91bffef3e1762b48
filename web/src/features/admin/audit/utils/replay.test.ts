import { describe, expect, it } from 'vitest';
import {
  changedTotals, checksumDifferences, checksumSummary, checksumVerdict, isReplayFinished, liveColumnsDiffer, replayPercent, totalsEqual,
} from './replay';

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

describe('read-model checksums', () => {
  const same = { table: 'team_stats', rows: 1205, rebuilt: 'a1b2c3d4e5f60718', liveRows: 1205, live: 'a1b2c3d4e5f60718', match: true };
  const drifted = { ...same, table: 'team_members', liveRows: 1204, live: 'ffff000011112222', match: false };
  const changedOnly = { ...same, table: 'entries', live: '0000000000000001', match: false };
  const missing = { ...same, table: 'payment_orders', liveRows: null, live: null, match: false };
  const columns = { ...same, table: 'settings', liveRows: -1, live: 'columns differ', match: false };

  it('given a live side, the verdict is the worker\'s match; without one, not compared', () => {
    expect([same, drifted, missing, columns].map(checksumVerdict)).toEqual(['match', 'differ', 'not-compared', 'differ']);
  });

  it('names the sides that differ, none for a match or a table not compared', () => {
    expect(checksumDifferences(same)).toEqual({ rows: false, checksum: false });
    expect(checksumDifferences(drifted)).toEqual({ rows: true, checksum: true });
    expect(checksumDifferences(changedOnly)).toEqual({ rows: false, checksum: true });
    expect(checksumDifferences(missing)).toEqual({ rows: false, checksum: false });
    expect(checksumDifferences(columns)).toEqual({ rows: false, checksum: true });
  });

  it('tells a live table without the rebuilt columns from one with figures', () => {
    expect([same, drifted, missing, columns].map(liveColumnsDiffer)).toEqual([false, false, false, true]);
  });

  it('summarizes: all match, the tables that differ, the tables not compared', () => {
    expect(checksumSummary([same, { ...same, table: 'teams' }])).toEqual({ tables: 2, matching: 2, differing: [], notCompared: [] });
    expect(checksumSummary([changedOnly, same, missing, drifted])).toEqual({
      tables: 4, matching: 1, differing: ['entries', 'team_members'], notCompared: ['payment_orders'],
    });
    expect(checksumSummary([])).toEqual({ tables: 0, matching: 0, differing: [], notCompared: [] });
  });
});
