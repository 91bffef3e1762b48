/**
 * The participant's Strava link, as the command API serves it: GET /api/me/strava (whether the site
 * has Strava at all, the connection, the activities waiting to be confirmed), POST
 * /api/me/strava/connect (Strava's authorize address, where the browser goes next), PUT
 * /api/me/strava (add automatically or confirm each), DELETE /api/me/strava (disconnect), and the
 * confirm / dismiss of a proposal (shapes: @sinilill/contracts strava.ts). Every call throws
 * ApiError with a catalogue code: UNAUTHORIZED, FORBIDDEN (not a participant), INVALID_REQUEST,
 * STRAVA_NOT_CONFIGURED (the site has no Strava app), STRAVA_NOT_CONNECTED (nothing to change),
 * STRAVA_UNAVAILABLE (Strava did not answer), NOT_FOUND (no such proposal), INVALID_ENTRY_TYPE (a
 * proposal without a type confirmed without one), and the entry codes of POST /api/entry for a
 * confirmation.
 */
import type {
  EntryAnswer, StravaConnectAnswer, StravaConnection, StravaConnectionAnswer, StravaMode, StravaProposal, StravaStatusAnswer,
} from '@sinilill/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiGet, apiPost, apiPut, apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-client';

export type { StravaConnection, StravaMode, StravaProposal };
/** GET /api/me/strava: `available` false when the site runs without a Strava app (then no section at all). */
export type StravaAnswer = StravaStatusAnswer;

/** GET /api/me/strava. */
export function getStrava(signal?: AbortSignal): Promise<StravaAnswer> {
  return apiGet<StravaAnswer>('/me/strava', signal ? { signal } : {});
}

/** POST /api/me/strava/connect → Strava's authorize URL (its `state` binds this user and `mode` for 10 min). */
export function connectStrava(mode: StravaMode): Promise<StravaConnectAnswer> {
  return apiPost<StravaConnectAnswer>('/me/strava/connect', { mode });
}

/** PUT /api/me/strava: the new mode; applies to the activities read from now on. */
export function setStravaMode(mode: StravaMode): Promise<StravaConnectionAnswer> {
  return apiPut<StravaConnectionAnswer>('/me/strava', { mode });
}

/** DELETE /api/me/strava: revokes our access at Strava and drops the tokens; entries already made stay. */
export function disconnectStrava(): Promise<StravaConnectionAnswer> {
  return apiRequest<StravaConnectionAnswer>('DELETE', '/me/strava');
}

/** Confirms a proposal as an entry, with `entryType` when the participant chose one (required when the proposal has none). */
export function confirmStravaProposal(activityId: number, entryType?: string): Promise<EntryAnswer> {
  return apiPost<EntryAnswer>(`/me/strava/proposals/${activityId}/confirm`, entryType === undefined ? {} : { entry_type: entryType });
}

/** Dismisses a proposal: no entry is made of that activity (a later update on Strava does not bring it back). */
export async function dismissStravaProposal(activityId: number): Promise<void> {
  await apiRequest<unknown>('DELETE', `/me/strava/proposals/${activityId}`);
}

/**
 * How often the page reads the link again while it is connected, ms: activities arrive by
 * Strava's webhook on the server, which the page does not otherwise hear of.
 */
export const STRAVA_REFRESH_MS = 5_000;

/**
 * The link, read on mount and again every STRAVA_REFRESH_MS while connected (and when the window
 * regains focus: the participant may come back from recording or from Strava's settings).
 */
export function useStrava(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.strava,
    queryFn: ({ signal }) => getStrava(signal),
    enabled,
    refetchInterval: (query) => (query.state.data?.connection?.status === 'connected' ? STRAVA_REFRESH_MS : false),
    refetchOnWindowFocus: true,
  });
}
