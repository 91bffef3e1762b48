/**
 * Following a replay from the operations tab (issue 6, docs D17): POST /api/admin/replay answers
 * a job id, GET /api/admin/replay/{jobId} its state, progress and, once completed, the totals
 * of spec §2 before and after (contracts/operations.ts).
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
