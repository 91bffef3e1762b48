import { describe, expect, test } from 'vitest';
import { IdSet } from './projection';

describe('IdSet', () => {
  test('holds what was added and not deleted, growing past its first size', () => {
    const set = new IdSet();
    for (const id of [0, 1, 7, 8, 8191, 8192, 1_000_003]) set.add(id);
    set.delete(7);
    set.delete(5); // never added: nothing happens
    set.delete(50_000_000); // beyond its size: nothing happens
    expect([0, 1, 7, 8, 8191, 8192, 1_000_003, 5, 2, 1_000_002, 99_999_999].map((id) => set.has(id)))
      .toEqual([true, true, false, true, true, true, true, false, false, false, false]);
  });
});
