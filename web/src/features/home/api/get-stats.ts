import type { StatsAnswer } from '@sinilill/contracts';
import { useEffect, useState } from 'react';
import { apiGet } from '../../../lib/api-client';

/** What the page shows when the stats cannot be loaded (spec §7: "failure resets to empty stats"). */
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

/** Loads the stats once per mount; on failure the stats are empty and `code` says why. */
export function useStats(): StatsState {
  const [state, setState] = useState<StatsState>({ status: 'loading', stats: EMPTY_STATS });
  useEffect(() => {
    const controller = new AbortController();
    getStats(controller.signal).then(
      (stats) => setState({ status: 'success', stats }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const code = error instanceof Error ? error.message : 'GENERIC_ERROR';
        setState({ status: 'error', stats: EMPTY_STATS, code });
      },
    );
    return () => controller.abort();
  }, []);
  return state;
}
