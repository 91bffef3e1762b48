/**
 * "My data" (issue 19 item 6): the download of everything the app holds about the caller
 * (GET /api/me/data, JSON or CSV) and their own erasure (POST /api/me/erase). The download answers
 * only with the session's token, so a plain link (no Authorization header) will not do: the file
 * is fetched and handed to the browser as a Blob through an `<a download>`.
 */
import { myDataFileName, type EraseMyAccountAnswer } from '@sinilill/contracts';
import { API_BASE, ApiError, apiPost } from '../../../lib/api-client';
import { toCatalogueCode } from '../../../lib/errors/catalogue';
import { filenameFromDisposition, saveBlob } from '../../../lib/download';
import { useSessionStore } from '../../../lib/session-store';

export type MyDataFormat = 'json' | 'csv';

/**
 * Fetches the caller's data as `format` with the session's token and saves it as the file the
 * server names (sinilill-minu-andmed-YYYY-MM-DD.json|csv).
 * @throws ApiError with the answer's catalogue code (a 401 or 403 clears the session, spec §4);
 *   GENERIC_ERROR (status 0) when the network failed or the download broke off.
 */
export async function downloadMyData(format: MyDataFormat): Promise<void> {
  const send = () => {
    const token = useSessionStore.getState().token;
    return fetch(`${API_BASE}/me/data${format === 'csv' ? '.csv' : ''}`, { headers: token ? { authorization: token } : {}, cache: 'no-store' });
  };
  let response: Response;
  try {
    const stale = useSessionStore.getState().token;
    response = await send();
    // An expired access token: refreshed once with the cookie (issue 13), as the API client does.
    if (response.status === 401 && stale && (await useSessionStore.getState().refresh(stale))) response = await send();
  } catch {
    throw new ApiError('GENERIC_ERROR', 0);
  }
  if (!response.ok) {
    if ((response.status === 401 || response.status === 403) && useSessionStore.getState().isAuthenticated) useSessionStore.getState().clear();
    const body: unknown = await response.json().catch(() => undefined);
    throw new ApiError(toCatalogueCode((body as { message?: unknown } | undefined)?.message, response.status), response.status);
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    // The stream broke off midway: no half file is saved.
    throw new ApiError('GENERIC_ERROR', response.status);
  }
  const today = new Date().toISOString().slice(0, 10);
  saveBlob(blob, filenameFromDisposition(response.headers.get('content-disposition'), myDataFileName(today, format)));
}

/**
 * POST /api/me/erase: erases the caller's account after their password (issue 19 item 6).
 * @throws ApiError INVALID_PASSWORD, TOO_MANY_REQUESTS, FORBIDDEN (an administrator account).
 */
export function eraseMyAccount(password: string): Promise<EraseMyAccountAnswer> {
  return apiPost<EraseMyAccountAnswer>('/me/erase', { password });
}
