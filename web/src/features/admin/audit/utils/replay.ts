/**
 * Following a replay from the operations tab (docs/decisions/0017): POST /api/admin/replay answers
 * a job id, GET /api/admin/replay/{jobId} its state, progress and, once completed, the totals
 * of spec §2 before and after and each read-model table's checksums compared before the swap
 * (contracts/operations.ts).
 */
import type { ReplayResultAnswer, ReplayState, ReplayStatus } from '@sinilill/contracts';

/** How often a running replay is asked about, ms. */
export const REPLAY_POLL_MS = 500;

/** The totals a replay compares (ReplayTotalsAnswer's fields), in their order on screen. */
export const REPLAY_TOTALS = ['teams', 'participants', 'distance', 'blueFlowers'] as const;
export type ReplayTotals = ReplayResultAnswer['before'];

/** The name the worker reports for its last step (swapping the rebuilt read models in). */
export const FINAL_STEP = '*';

/** True once the job will not change any more (completed or failed). */
export function isReplayFinished(state: ReplayState): boolean {
  return state === 'completed' || state === 'failed';
}

/**
 * The whole percent to show, 0..100: the worker's percent (0 before it reports), 100 once
 * completed. Never NaN.
 */
export function replayPercent(status: Pick<ReplayStatus, 'state' | 'progress'>): number {
  if (status.state === 'completed') return 100;
  const percent = status.progress?.percent ?? 0;
  if (!Number.isFinite(percent)) return 0;
  return Math.min(100, Math.max(0, Math.round(percent)));
}

/** True when every total is the same before and after (a replay of an unchanged route). */
export function totalsEqual(before: ReplayTotals, after: ReplayTotals): boolean {
  return REPLAY_TOTALS.every((field) => before[field] === after[field]);
}

/** The totals that differ between before and after. */
export function changedTotals(before: ReplayTotals, after: ReplayTotals): (typeof REPLAY_TOTALS)[number][] {
  return REPLAY_TOTALS.filter((field) => before[field] !== after[field]);
}

/** One read-model table compared before the swap: rebuilt vs live. */
export type ReplayChecksum = NonNullable<ReplayResultAnswer['checksums']>[number];

/** A table's comparison: the same rows, different ones, or no live side to compare with. */
export type ChecksumVerdict = 'match' | 'differ' | 'not-compared';

/** A checksum as the worker writes it: 16 lowercase hex digits (read-models/checksums.ts). */
const CHECKSUM = /^[0-9a-f]{16}$/;

/**
 * The verdict of one table: 'not-compared' when the live side is null (no live table, or the
 * live tables were too far behind), else the worker's `match`.
 */
export function checksumVerdict(row: ReplayChecksum): ChecksumVerdict {
  if (row.live === null) return 'not-compared';
  return row.match ? 'match' : 'differ';
}

/**
 * True when the live table lacked some of the rebuilt table's columns: the worker then records
 * no checksum (the text "columns differ") and rows -1, so there are no live figures to show.
 */
export function liveColumnsDiffer(row: ReplayChecksum): boolean {
  return row.live !== null && (!CHECKSUM.test(row.live) || row.liveRows === null || row.liveRows < 0);
}

/**
 * Which figures of a compared table differ, rebuilt vs live: both false for a match or a table
 * not compared; a live table without the rebuilt columns differs in its checksum only (its row
 * count is not known).
 */
export function checksumDifferences(row: ReplayChecksum): { rows: boolean; checksum: boolean } {
  if (row.live === null || row.liveRows === null) return { rows: false, checksum: false };
  if (liveColumnsDiffer(row)) return { rows: false, checksum: true };
  return { rows: row.liveRows !== row.rows, checksum: row.live !== row.rebuilt };
}

/** The checksums in one line: how many tables, and which differ or could not be compared. */
export interface ChecksumSummary {
  tables: number;
  /** Tables compared and equal. */
  matching: number;
  /** Names of the tables that differ, in the worker's order (by name). */
  differing: string[];
  /** Names of the tables with no live side to compare with. */
  notCompared: string[];
}

/** Counts the verdicts of a replay's checksums (ReplayResultAnswer.checksums). */
export function checksumSummary(rows: readonly ReplayChecksum[]): ChecksumSummary {
  const summary: ChecksumSummary = { tables: rows.length, matching: 0, differing: [], notCompared: [] };
  for (const row of rows) {
    const verdict = checksumVerdict(row);
    if (verdict === 'match') summary.matching += 1;
    else if (verdict === 'differ') summary.differing.push(row.table);
    else summary.notCompared.push(row.table);
  }
  return summary;
}
