/**
 * The projector's readiness by lag and the replay ratio, without servers;
 * the lag itself is read from PostgreSQL (tests/int/metrics.int.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { lagCheck } from './http';
import { progressRatio, type ProjectionLag } from './metrics';

const row = (projection: string, events: number): ProjectionLag => ({ projection, position: 100 - events, head: 100, events, seconds: events > 0 ? 2 : 0 });

describe('lagCheck', () => {
  test('passes while every projection is within the bound, the bound included', async () => {
    await lagCheck(async () => [row('team-stats', 10), row('settings', 0)], 10).check();
  });

  test('fails naming each projection past the bound with its lag', async () => {
    const check = lagCheck(async () => [row('team-stats', 3000), row('settings', 0), row('payments', 11)], 10);
    expect(check.name).toBe('lag');
    await expect(check.check()).rejects.toThrow('more than 10 events behind: team-stats 3000, payments 11');
  });
});

describe('progressRatio', () => {
  test("a replay job's progress (ReplayJobProgress or a bare percentage) as 0–1", () => {
    expect(progressRatio({ projection: 'team-stats', position: 50, head: 200, read: 50, percent: 25 })).toBe(0.25);
    expect(progressRatio(100)).toBe(1);
    expect(progressRatio({ percent: 140 })).toBe(1);
    expect(progressRatio({})).toBe(0);
    expect(progressRatio('half')).toBe(0);
    expect(progressRatio(null)).toBe(0);
  });
});
