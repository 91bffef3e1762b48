import { describe, expect, test } from 'vitest';
import { EVERY_PROJECTION } from './changes';
import { replayPercent } from './replay';

describe('replayPercent', () => {
  test('follows the one pass over the log up to 95, every projection built at once', () => {
    expect(replayPercent('team-stats, settings', 0, 1000)).toBe(0);
    expect(replayPercent('team-stats, settings', 500, 1000)).toBe(47.5);
    expect(replayPercent('team-stats, settings', 1000, 1000)).toBe(95);
  });

  test('the last step (indexes, checksums, swap) is 95; completion alone makes 100', () => {
    expect(replayPercent(EVERY_PROJECTION, 10, 1000)).toBe(95);
  });

  test('never passes 95 in the pass: events appended during the rebuild go beyond the head read at its start', () => {
    expect(replayPercent('team-stats', 1500, 1000)).toBe(95);
  });

  test('an empty log counts as read', () => {
    expect(replayPercent('team-stats', 0, 0)).toBe(95);
  });
});
