import { describe, expect, test } from 'vitest';
import { checksumLines } from './replay';

describe('checksumLines', () => {
  const match = { table: 'team_stats', rows: 121, rebuilt: 'a1b2c3d4e5f60718', liveRows: 121, live: 'a1b2c3d4e5f60718', match: true };

  test('one line per table with both sides, and a summary that all match', () => {
    const lines = checksumLines([match, { ...match, table: 'team_members', rows: 1005, liveRows: 1005, rebuilt: 'ffff000011112222', live: 'ffff000011112222' }]);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/team_stats +rebuilt +121 rows a1b2c3d4e5f60718 +live +121 rows a1b2c3d4e5f60718 +match$/);
    expect(lines[2]).toBe('checksums: 2 of 2 tables compared, all match');
  });

  test('names the tables that differ, and a table without a live side as not compared', () => {
    const lines = checksumLines([
      { ...match, live: '0000000000000000', match: false },
      { ...match, table: 'new_table', liveRows: null, live: null, match: false },
    ]);
    expect(lines[0]).toMatch(/DIFFERS$/);
    expect(lines[1]).toMatch(/no live table to compare$/);
    expect(lines[2]).toBe('checksums: 1 of 1 compared tables differ from the live ones: team_stats');
  });
});
