/**
 * The participant's Strava link, as the command API serves it: GET /api/me/strava (whether the site
 * has Strava at all, the connection, the activities waiting to be confirmed), POST
 * /api/me/strava/connect (Strava's authorize address, where the browser goes next), PUT
 * /api/me/strava (add automatically or confirm each), DELETE /api/me/strava (disconnect), and the
 * confirm / dismiss of a proposal. Every call throws ApiError with a catalogue code:
 * UNAUTHORIZED, FORBIDDEN, INVALID_REQUEST, STRAVA_NOT_CONFIGURED (the site has no Strava app),
 * STRAVA_NOT_CONNECTED (nothing to change or confirm), STRAVA_ACTIVITY_OUTSIDE_EDITION (a
 * proposal's day is outside the edition's entry days), and the entry codes of POST /api/entry for
 * a confirmation.
 */
import { useQuery } from '@tanstack/react-query';
import { apiGet, apiPost, apiPut, apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-client';

/** 'auto': each activity becomes an entry at once; 'confirm': it waits on the account page. */
export type StravaMode = 'auto' | 'confirm';

/**
 * 'connected': syncing; 'deauthorized': the athlete revoked our access on Strava's side;
 * 'disconnected': the participant disconnected here. In the last two the tokens are gone.
 */
export type StravaStatus = 'connected' | 'deauthorized' | 'disconnected';

export interface StravaConnection {
  /** Strava's athlete id. */
  athleteId: number;
  /** "Firstname Lastname" as Strava gave it at the connection. */
  athleteName: string;
  mode: StravaMode;
  status: StravaStatus;
  /** ISO-8601 instant. */
  connectedAt: string;
  /** ISO-8601 instant of the last activity read from Strava, or null. */
  lastSyncAt: string | null;
  /** The catalogue code of why the last skipped activity was skipped (STRAVA_ACTIVITY_OUTSIDE_EDITION, …), or null. */
  lastError: string | null;
  /** Activities skipped since connecting (outside the edition's days, without a distance). */
  skipped: number;
}

/** An activity of Strava waiting for the participant's confirmation (mode 'confirm'). */
export interface StravaProposal {
  /** Strava's activity id. */
  activityId: number;
  /** The activity's title on Strava. */
  name: string;
  /** Strava's sport_type, e.g. 'Run', 'VirtualRide'. */
  sportType: string;
  /** The entry type it maps to, or null (the participant chooses). */
  entryType: string | null;
  /** km, two decimals. */
  distance: number;
  /** YYYY-MM-DD: the activity's local start day. */
  performedAt: string;
  /** ISO-8601 instant. */
  startedAt: string;
}

/** GET /api/me/strava. */
export interface StravaAnswer {
  /** False when the site runs without a Strava app (STRAVA_CLIENT_ID/SECRET unset): no section at all. */
  available: boolean;
  connection: StravaConnection | null;
  proposals: StravaProposal[];
}

/** POST /api/me/strava/proposals/{activityId}/confirm: the entry made (its fields are not read here). */
export interface StravaConfirmAnswer {
  success: true;
  entry: unknown;
  /** The log position of the new entry (read-your-writes). */
  position: number;
}

export function getStrava(signal?: AbortSignal): Promise<StravaAnswer> {
  return apiGet<StravaAnswer>('/me/strava', signal ? { signal } : {});
}

/** POST /api/me/strava/connect → Strava's authorize URL (its `state` binds this user and `mode` for 10 min). */
export function connectStrava(mode: StravaMode): Promise<{ authorizeUrl: string }> {
  return apiPost<{ authorizeUrl: string }>('/me/strava/connect', { mode });
}

/** PUT /api/me/strava: the new mode; applies to the activities read from now on. */
export function setStravaMode(mode: StravaMode): Promise<{ connection: StravaConnection }> {
  return apiPut<{ connection: StravaConnection }>('/me/strava', { mode });
}

/** DELETE /api/me/strava: revokes our access at Strava and drops the tokens; entries already made stay. */
export function disconnectStrava(): Promise<{ connection: StravaConnection }> {
  return apiRequest<{ connection: StravaConnection }>('DELETE', '/me/strava');
}

/** Confirms a proposal as an entry, with `entryType` when the participant chose one (required when the proposal has none). */
export function confirmStravaProposal(activityId: number, entryType?: string): Promise<StravaConfirmAnswer> {
  return apiPost<StravaConfirmAnswer>(`/me/strava/proposals/${activityId}/confirm`, entryType === undefined ? {} : { entry_type: entryType });
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
