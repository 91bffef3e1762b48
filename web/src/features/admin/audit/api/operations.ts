/**
 * The operations tab's calls: the global switches (spec §4; PUT /api/admin/settings in
 * the command API, GET /api/settings in the query API), the replay (contracts/operations.ts,
 * docs/decisions/0017), the queue board's session and the parked events (contracts/parked.ts). Admin calls answer 401/403 to anyone else; failures
 * throw ApiError with a catalogue code.
 */
import type {
  AdminSettingsBody,
  AdminSuccessAnswer,
  ParkedEventsAnswer,
  ParkedSkipBody,
  QUEUE_BOARD_PATH as ContractBoardPath,
  QueueBoardSession,
  ReplayStarted,
  ReplayStatus,
  SettingsAnswer,
} from '@sinilill/contracts';
import { apiGet, apiPost, apiPut } from '../../../../lib/api-client';
import { minPositionHeaders } from '../../../../lib/read-your-writes';

/**
 * Where the queue board (Bull Board) is served. Spelled here rather than imported as a value,
 * which would bundle the contracts' schema library; the type ties it to the contract.
 */
export const QUEUE_BOARD_PATH: typeof ContractBoardPath = '/api/admin/queues';

/**
 * GET /api/settings: the switches as the read model holds them. With `minPosition` (a PUT's
 * answer) the answer waits until the read model has caught up with it (x-min-position).
 */
export function getSettings(minPosition?: number, signal?: AbortSignal): Promise<SettingsAnswer> {
  return apiGet<SettingsAnswer>('/settings', { signal, headers: minPositionHeaders(minPosition) });
}

/** PUT /api/admin/settings: turns the given switches on or off; answers the event's position. */
export function changeSettings(body: AdminSettingsBody): Promise<AdminSuccessAnswer> {
  return apiPut<AdminSuccessAnswer>('/admin/settings', body);
}

/**
 * POST /api/admin/replay: enqueues a rebuild of every read model and answers its job id.
 * CONCURRENCY_CONFLICT (409) while another replay is waiting or running.
 */
export function startReplay(): Promise<ReplayStarted> {
  return apiPost<ReplayStarted>('/admin/replay', undefined);
}

/**
 * GET /api/admin/replay/{jobId}: the job's state (waiting, active, completed, failed), its
 * progress (null until the worker reports) and, once completed, the totals before and after.
 * NOT_FOUND for an unknown or expired job (kept a day).
 */
export function getReplayStatus(jobId: string, signal?: AbortSignal): Promise<ReplayStatus> {
  return apiGet<ReplayStatus>(`/admin/replay/${encodeURIComponent(jobId)}`, { signal });
}

/**
 * POST /api/admin/queues/session: sets the HttpOnly cookie (15 minutes, path /api/admin/queues)
 * that lets this browser open the queue board, which a new tab cannot send a token to.
 */
export function openQueueBoardSession(): Promise<QueueBoardSession> {
  return apiPost<QueueBoardSession>('/admin/queues/session', undefined);
}

/**
 * GET /api/admin/parked: the events the projections parked and are waiting for a decision, and
 * the count per projection. With `minPosition` (a decision's answer) it waits until the
 * projections have acted on the decision (x-min-position).
 */
export function getParkedEvents(minPosition?: number, signal?: AbortSignal): Promise<ParkedEventsAnswer> {
  return apiGet<ParkedEventsAnswer>('/admin/parked', { signal, headers: minPositionHeaders(minPosition) });
}

/**
 * POST /api/admin/parked/{position}/retry: asks `projection` to apply the parked event again
 * (after its cause was fixed); answers the position of the recorded decision.
 */
export function retryParkedEvent(position: number, projection: string): Promise<AdminSuccessAnswer> {
  return apiPost<AdminSuccessAnswer>(`/admin/parked/${position}/retry`, { projection });
}

/**
 * POST /api/admin/parked/{position}/skip: `projection` passes over the parked event for good;
 * the decision and its reason are recorded in the event log. VALUE_TOO_LONG over 500 characters.
 */
export function skipParkedEvent(position: number, projection: string, reason: string): Promise<AdminSuccessAnswer> {
  const body: ParkedSkipBody = { projection, reason };
  return apiPost<AdminSuccessAnswer>(`/admin/parked/${position}/skip`, body);
}
