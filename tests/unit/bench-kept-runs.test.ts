/**
 * The bench's comparison with its last kept run (tests/bench/kept-runs.ts): the headline's
 * numbers and unit, which way is better, REGRESSED past 20 %, and the runs kept on disk.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compareResult, compareRows, headlineOf, keepRun, lastKeptRun, type KeptRun } from '../bench/kept-runs';

describe('headlineOf', () => {
  test('reads grouped thousands and the unit before the spread', () => {
    expect(headlineOf('1 234 req/s (1 100–1 300)')).toEqual({ values: [1234], unit: 'req/s', better: 'higher' });
    expect(headlineOf('20.7 / 37.8 ms')).toEqual({ values: [20.7, 37.8], unit: 'ms', better: 'lower' });
    expect(headlineOf('0.46 s; reader 99 MB; API peak 297 MB')).toEqual({ values: [0.46], unit: 's', better: 'lower' });
    expect(headlineOf('282 MB')?.better).toBe('lower');
    expect(headlineOf('0.91×')?.better).toBe('higher');
    expect(headlineOf('skipped: nginx is not installed here')).toBeNull();
  });
});

describe('compareResult', () => {
  test('a rate that fell by more than 20 % regressed; by less, it did not', () => {
    expect(compareResult('150 req/s (140–160)', '1 000 req/s (900–1 100)')).toEqual({ text: 'was 1 000 req/s (−85 %) REGRESSED', regressed: true });
    expect(compareResult('850 req/s', '1 000 req/s')).toEqual({ text: 'was 1 000 req/s (−15 %)', regressed: false });
    expect(compareResult('1 300 req/s', '1 000 req/s')?.regressed).toBe(false);
  });

  test('a time that grew by more than 20 % regressed, and the worst of several numbers decides', () => {
    expect(compareResult('130 ms', '100 ms')?.regressed).toBe(true);
    expect(compareResult('70 ms', '100 ms')?.regressed).toBe(false);
    expect(compareResult('20 / 90 ms', '20 / 60 ms')).toEqual({ text: 'was 20 / 60 ms (+50 %) REGRESSED', regressed: true });
  });

  test('no verdict across another unit or count, or without a kept line', () => {
    expect(compareResult('100 ms', '1 s')).toBeNull();
    expect(compareResult('20 / 30 ms', '20 ms')).toBeNull();
    expect(compareResult('100 ms', undefined)).toBeNull();
  });
});

describe('kept runs', () => {
  test('the newest kept run is what a new run is compared with', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-runs-'));
    try {
      expect(lastKeptRun(dir)).toBeNull();
      const machine = { cores: 2, memoryGib: 24, loadBefore: 0.5, loadAfter: 1.5, node: 'v24.0.0', commit: 'abc1234' };
      const older: KeptRun = { at: '2026-12-01T10:00:00.000Z', machine, rows: [{ measure: 'POST /api/entry', result: '2 000 req/s', ratio: '', target: '' }] };
      const newer: KeptRun = { at: '2026-12-05T10:00:00.000Z', machine, rows: [{ measure: 'POST /api/entry', result: '1 000 req/s', ratio: '', target: '' }] };
      keepRun(dir, newer);
      keepRun(dir, older);
      writeFileSync(join(dir, 'README.md'), 'not a run');
      const kept = lastKeptRun(dir);
      expect(kept?.at).toBe(newer.at);
      const { rows, regressions } = compareRows([
        { measure: 'POST /api/entry', result: '700 req/s', ratio: '', target: '' },
        { measure: 'a new line', result: '5 ms', ratio: '', target: '' },
      ], kept);
      expect(rows.map((row) => row.previous)).toEqual(['was 1 000 req/s (−30 %) REGRESSED', 'new']);
      expect(regressions).toEqual(['POST /api/entry: 700 req/s — was 1 000 req/s (−30 %) REGRESSED']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
