/**
 * The bench's memory: each `npm run bench` keeps its table in `docs/bench/runs/{ISO time}.json`
 * with the machine it ran on (cores, memory, load average before and after, Node, git commit),
 * and prints every figure beside the same line of the last kept run. A figure worse than its kept
 * one by more than REGRESSION_THRESHOLD is marked REGRESSED, so a slowdown is seen the day it
 * lands rather than sessions later (POST /api/entry once fell from ~1 000 to ~150 req/s unseen).
 *
 * Only a line's headline is compared: the numbers before its first "(" or ";" (for example
 * "20.7 / 37.8 ms" of the lag, "1 234 req/s" of "1 234 req/s (1 100–1 300)"), pairwise, with the
 * unit saying which way is better: a rate ("/s", "×") is better higher, a time or a size ("ms",
 * "s", "MB", "KB") better lower. Lines without numbers, or whose unit or count changed, are shown
 * without a verdict. A bench prints, never throws: a regression is a finding, not a failure.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Row } from './report';

/** Worse than the kept figure by more than this share (0.2 = 20 %) is REGRESSED. */
export const REGRESSION_THRESHOLD = 0.2;

/** What a kept run records besides its rows. */
export interface MachineNote {
  cores: number;
  /** GiB of memory, one decimal. */
  memoryGib: number;
  /** 1-minute load average when the bench began and when it ended. */
  loadBefore: number;
  loadAfter: number;
  node: string;
  /** The commit measured (`git rev-parse --short HEAD`), or "unknown". */
  commit: string;
}

/** One kept run: `docs/bench/runs/{at with ':' as '-'}.json`. */
export interface KeptRun {
  /** ISO-8601 UTC of the run's end. */
  at: string;
  machine: MachineNote;
  rows: Row[];
}

/** The numbers and unit a line's result starts with. */
export interface Headline {
  values: number[];
  /** The unit after the last number, e.g. "events/s", "ms", "MB"; "" when none. */
  unit: string;
  /** Which way is better for this unit, or null when the unit does not say. */
  better: 'higher' | 'lower' | null;
}

// Numbers as report.ts writes them: thousands grouped by single spaces ("20 000"), a decimal point.
const NUMBER = /-?\d{1,3}(?: \d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?/g;

/** The headline of a result string, or null when it has no number (e.g. "skipped: …"). */
export function headlineOf(result: string): Headline | null {
  const head = result.split(/\s\(|;/)[0]!;
  const matches = [...head.matchAll(NUMBER)];
  if (matches.length === 0) return null;
  const last = matches.at(-1)!;
  const unit = head.slice(last.index! + last[0].length).trim().split(/\s+/)[0] ?? '';
  const better = /\/s$|×$/.test(unit) ? 'higher' : /^(ms|s|MB|KB|GB)$/.test(unit) ? 'lower' : null;
  return { values: matches.map((m) => Number(m[0].replace(/ /g, ''))), unit, better };
}

/** How a line compares with its kept line. */
export interface Comparison {
  /** What the extra column shows: the kept headline and the change, e.g. "1 000 req/s → −15 %". */
  text: string;
  regressed: boolean;
}

/**
 * Compares a line's result with the kept one's: the largest worsening among its numbers decides.
 * @returns null when there is nothing to compare (no kept line, no numbers, another unit or count).
 */
export function compareResult(now: string, kept: string | undefined): Comparison | null {
  if (kept === undefined) return null;
  const a = headlineOf(now);
  const b = headlineOf(kept);
  if (!a || !b || a.unit !== b.unit || a.values.length !== b.values.length) return null;
  const keptHead = kept.split(/\s\(|;/)[0]!.trim();
  if (a.better === null) return { text: `was ${keptHead}`, regressed: false };
  let worst = -Infinity;
  let change = 0;
  a.values.forEach((value, i) => {
    const before = b.values[i]!;
    if (before === 0) return;
    const relative = (value - before) / Math.abs(before);
    const worsening = a.better === 'higher' ? -relative : relative;
    if (worsening > worst) {
      worst = worsening;
      change = relative;
    }
  });
  if (worst === -Infinity) return { text: `was ${keptHead}`, regressed: false };
  const regressed = worst > REGRESSION_THRESHOLD;
  const sign = change >= 0 ? '+' : '−';
  return { text: `was ${keptHead} (${sign}${Math.abs(change * 100).toFixed(0)} %)${regressed ? ' REGRESSED' : ''}`, regressed };
}

/** The rows with each one's comparison with the kept run (by the same `measure`), for printTable. */
export function compareRows(rows: readonly Row[], kept: KeptRun | null): { rows: Row[]; regressions: string[] } {
  const keptByMeasure = new Map((kept?.rows ?? []).map((row) => [row.measure, row.result]));
  const regressions: string[] = [];
  const compared = rows.map((row) => {
    const comparison = compareResult(row.result, keptByMeasure.get(row.measure));
    if (comparison?.regressed) regressions.push(`${row.measure}: ${row.result.split(/\s\(|;/)[0]} — ${comparison.text}`);
    return { ...row, previous: comparison?.text ?? (keptByMeasure.has(row.measure) ? `was ${keptByMeasure.get(row.measure)}` : 'new') };
  });
  return { rows: compared, regressions };
}

/** The newest kept run in `dir` (file names sort by time), or null when none is kept yet. */
export function lastKeptRun(dir: string): KeptRun | null {
  if (!existsSync(dir)) return null;
  const newest = readdirSync(dir).filter((name) => name.endsWith('.json')).sort().at(-1);
  return newest ? (JSON.parse(readFileSync(join(dir, newest), 'utf8')) as KeptRun) : null;
}

/** The machine as it is now; `loadBefore` is the caller's reading from when the bench began. */
export function machineNote(loadBefore: number, repoRoot: string): MachineNote {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout (a copied tree): the run is still kept
  }
  return {
    cores: cpus().length,
    memoryGib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadBefore: Math.round(loadBefore * 100) / 100,
    loadAfter: Math.round(loadavg()[0]! * 100) / 100,
    node: process.version,
    commit,
  };
}

/** Writes the run into `dir` and returns its path. */
export function keepRun(dir: string, run: KeptRun): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${run.at.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')}.json`);
  writeFileSync(path, `${JSON.stringify(run, null, 2)}\n`);
  return path;
}
