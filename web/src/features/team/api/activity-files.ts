import {
  ACTIVITY_FILE_BODY_LIMIT,
  ACTIVITY_FILE_NAME_HEADER,
  type ActivityFileProposalAnswer,
  type ConfirmActivityFileAnswer,
  type ConfirmActivityFileBody,
} from '@sinilill/contracts';
import { ApiError, IDEMPOTENCY_KEY_HEADER, apiFetch, apiPost } from '../../../lib/api-client';

/**
 * POST /api/team/{teamId}/activity-files: one GPX, TCX or FIT file's raw bytes
 * → its proposal (its parts, each with km, day or null, type, track; whether it counts already; a
 * signed token). Nothing is stored. A file over 20 MiB is refused here without sending it.
 * Throws ApiError: ACTIVITY_FILE_TOO_LARGE, ACTIVITY_FILE_NOT_SUPPORTED, ACTIVITY_FILE_UNREADABLE,
 * ACTIVITY_FILE_EMPTY, ACTIVITY_FILE_IS_ROUTE, REQUEST_TOO_LARGE (a front door's 413), FORBIDDEN; GENERIC_ERROR with
 * status 0 when the network failed.
 */
export async function uploadActivityFile(teamId: number, file: File, signal?: AbortSignal): Promise<ActivityFileProposalAnswer> {
  if (file.size > ACTIVITY_FILE_BODY_LIMIT) throw new ApiError('ACTIVITY_FILE_TOO_LARGE', 413);
  try {
    const response = await apiFetch('POST', `/team/${teamId}/activity-files`, {
      accept: 'application/json', contentType: 'application/octet-stream', body: file,
      headers: { [ACTIVITY_FILE_NAME_HEADER]: encodeURIComponent(file.name) },
      ...(signal ? { signal } : {}),
    });
    return await response.json() as ActivityFileProposalAnswer;
  } catch (error) {
    // A front door's own 413 (REQUEST_TOO_LARGE) means the same to the member.
    if (error instanceof ApiError && error.status === 413) throw new ApiError('ACTIVITY_FILE_TOO_LARGE', 413);
    throw error;
  }
}

/**
 * POST /api/team/{teamId}/activity-files/confirm: every part of the proposal becomes the member's
 * entry (their source the file), all or none; `entries` in the parts' order. `idempotencyKey`:
 * made once per proposal, so a retried confirmation adds the entries once. Throws ApiError: ACTIVITY_FILE_ALREADY_USED, INVALID_ENTRY_TYPE,
 * INVALID_PERFORMED_AT, ENTRY_INSERTION_DISABLED, ENTRY_DEADLINE_PASSED, INVALID_REQUEST (the
 * proposal expired: upload again).
 */
export function confirmActivityFile(teamId: number, body: ConfirmActivityFileBody, idempotencyKey: string): Promise<ConfirmActivityFileAnswer> {
  return apiPost<ConfirmActivityFileAnswer>(`/team/${teamId}/activity-files/confirm`, body, { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } });
}
