import {
  ACTIVITY_FILE_BODY_LIMIT,
  ACTIVITY_FILE_NAME_HEADER,
  type ActivityFileProposalAnswer,
  type ConfirmActivityFileBody,
  type EntryAnswer,
} from '@sinilill/contracts';
import { API_BASE, ApiError, IDEMPOTENCY_KEY_HEADER, apiPost } from '../../../lib/api-client';
import { toCatalogueCode } from '../../../lib/errors/catalogue';
import { useSessionStore } from '../../../lib/session-store';

/**
 * POST /api/team/{teamId}/activity-files (issue 19 item 1): one GPX, TCX or FIT file's raw bytes
 * → its proposal (km, day, type, track, whether it counts already, a signed token). Nothing is
 * stored. A file over 20 MiB is refused here without sending it. The API client sends JSON only,
 * so this call sends the bytes itself, with the session's token (refreshed once on a 401).
 * Throws ApiError: ACTIVITY_FILE_TOO_LARGE, ACTIVITY_FILE_NOT_SUPPORTED, ACTIVITY_FILE_UNREADABLE,
 * ACTIVITY_FILE_EMPTY, REQUEST_TOO_LARGE (a front door's 413), FORBIDDEN; GENERIC_ERROR with
 * status 0 when the network failed.
 */
export async function uploadActivityFile(teamId: number, file: File, signal?: AbortSignal): Promise<ActivityFileProposalAnswer> {
  if (file.size > ACTIVITY_FILE_BODY_LIMIT) throw new ApiError('ACTIVITY_FILE_TOO_LARGE', 413);
  const send = (token: string | null) => fetch(`${API_BASE}/team/${teamId}/activity-files`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/octet-stream',
      [ACTIVITY_FILE_NAME_HEADER]: encodeURIComponent(file.name),
      ...(token ? { authorization: token } : {}),
    },
    body: file,
    ...(signal ? { signal } : {}),
  });
  let response: Response;
  try {
    const token = useSessionStore.getState().token;
    response = await send(token);
    if (response.status === 401 && token && (await useSessionStore.getState().refresh(token))) {
      response = await send(useSessionStore.getState().token);
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('GENERIC_ERROR', 0);
  }
  const answer: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    // A front door's own 413 (REQUEST_TOO_LARGE) means the same to the member.
    const message = response.status === 413 ? 'ACTIVITY_FILE_TOO_LARGE' : (answer as { message?: unknown } | undefined)?.message;
    throw new ApiError(toCatalogueCode(message, response.status), response.status);
  }
  return answer as ActivityFileProposalAnswer;
}

/**
 * POST /api/team/{teamId}/activity-files/confirm: the proposal becomes the member's entry (its
 * source the file). `idempotencyKey`: made once per proposal, so a retried confirmation adds the
 * entry once. Throws ApiError: ACTIVITY_FILE_ALREADY_USED, INVALID_ENTRY_TYPE,
 * INVALID_PERFORMED_AT, ENTRY_INSERTION_DISABLED, ENTRY_DEADLINE_PASSED, INVALID_REQUEST (the
 * proposal expired: upload again).
 */
export function confirmActivityFile(teamId: number, body: ConfirmActivityFileBody, idempotencyKey: string): Promise<EntryAnswer> {
  return apiPost<EntryAnswer>(`/team/${teamId}/activity-files/confirm`, body, { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } });
}
