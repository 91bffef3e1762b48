/**
 * GET /api/stats for the pages that show it (home, participants): one fetcher and one hook, so
 * that features do not import each other (house style).
 */
import type { StatsAnswer } from '@sinilill/contracts';
import { apiGet } from './api-client';
import { queryKeys } from './query-client';
import { useFetched } from './use-fetched';

/** What a page shows when the stats cannot be loaded (spec §7: "failure resets to empty stats"). */
export const EMPTY_STATS: StatsAnswer = {
  teams: [],
  totalParticipants: 0,
  totalDistance: 0,
  totalBlueFlowers: 0,
  today: '',
};

/** GET /api/stats: every team's progress and the totals (spec §7). Throws ApiError. */
export function getStats(signal?: AbortSignal): Promise<StatsAnswer> {
  return apiGet<StatsAnswer>('/stats', { signal });
}

export type StatsState =
  | { status: 'loading'; stats: StatsAnswer }
  | { status: 'success'; stats: StatsAnswer }
  | { status: 'error'; stats: StatsAnswer; code: string };

/**
 * Reads the stats when the page mounts (a cached answer shows at once, read again behind it);
 * on failure the stats are empty and `code` says why.
 * `reload()` loads them again (a "try again" button), showing the loading state meanwhile.
 */
export function useStats(): StatsState & { reload: () => void } {
  const fetched = useFetched(queryKeys.stats, getStats);
  const { reload } = fetched;
  if (fetched.status === 'ready') return { status: 'success', stats: fetched.data, reload };
  if (fetched.status === 'error') return { status: 'error', stats: EMPTY_STATS, code: fetched.code, reload };
  return { status: 'loading', stats: EMPTY_STATS, reload };
}
