import { describe, expect, it } from 'vitest';
import { restartDelay } from './supervisor';

describe('restartDelay: back-off between restarts of a crashed service', () => {
  it('starts at half a second and doubles', () => {
    expect([0, 1, 2, 3].map(restartDelay)).toEqual([500, 1000, 2000, 4000]);
  });
  it('never waits more than 15 s, however often it crashed', () => {
    expect(restartDelay(5)).toBe(15_000);
    expect(restartDelay(1000)).toBe(15_000);
  });
});
