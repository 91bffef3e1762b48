/** fairShare and leasesToRelease: how many projections each live projector process aims to hold, and which it gives back. */
import { describe, expect, test } from 'vitest';
import { fairShare, leasesToRelease } from './leases';

describe('fairShare', () => {
  test('five projections: all for one process, 3 + 2 for two, 2 + 2 + 1 for three, 1 each for five or more', () => {
    expect([1, 2, 3, 4, 5, 6].map((members) => fairShare(5, members))).toEqual([5, 3, 2, 2, 1, 1]);
  });

  test('no member counted (not yet registered) is one process alone: every projection', () => {
    expect(fairShare(5, 0)).toBe(5);
  });

  test('the shares of the live processes always cover every projection', () => {
    for (let projections = 1; projections <= 12; projections++) {
      for (let members = 1; members <= 12; members++) expect(fairShare(projections, members) * members).toBeGreaterThanOrEqual(projections);
    }
  });
});

describe('leasesToRelease', () => {
  const all = ['team-stats', 'team-directory', 'settings', 'admin-directory', 'payments'];

  test('nothing while a process holds its share or less', () => {
    expect(leasesToRelease(all, 5)).toEqual([]);
    expect(leasesToRelease(['settings'], 2)).toEqual([]);
  });

  test('a second process joining: every other one goes, so team-stats and team-directory part', () => {
    expect(leasesToRelease(all, 3)).toEqual(['team-directory', 'admin-directory']);
  });

  test('more to give back than every other: then the newest of the rest', () => {
    expect(leasesToRelease(all, 1)).toEqual(['team-directory', 'admin-directory', 'payments', 'settings']);
    expect(leasesToRelease(['team-stats', 'settings', 'payments'], 2)).toEqual(['settings']);
  });

  test('what stays plus what goes is what was held', () => {
    for (let share = 0; share <= all.length; share++) {
      const released = leasesToRelease(all, share);
      expect(released).toHaveLength(all.length - share);
      expect(new Set(released).size).toBe(released.length);
      for (const name of released) expect(all).toContain(name);
    }
  });
});
