/**
 * "My data": the download of everything the app holds about the caller
 * (GET /api/me/data, JSON or CSV) and their own erasure (POST /api/me/erase). The download answers
 * only with the session's token, so a plain link (no Authorization header) will not do: the file
 * is fetched and handed to the browser as a Blob through an `<a download>`.
 */
import { myDataFileName, type EraseMyAccountAnswer } from '@sinilill/contracts';
import { ApiError, apiFetch, apiPost } from '../../../lib/api-client';
import { filenameFromDisposition, saveBlob } from '../../../lib/download';
import type { StoredLang } from '../../../lib/language';

export type MyDataFormat = 'json' | 'csv';

/**
 * Fetches the caller's data as `format` with the session's token and saves it as the file the
 * server names in the page's language `lang` (sinilill-minu-andmed-… / sinilill-my-data-…
 * YYYY-MM-DD.json|csv).
 * @throws ApiError with the answer's catalogue code (a 401 or 403 clears the session, spec §4);
 *   GENERIC_ERROR (status 0) when the network failed or the download broke off.
 */
export async function downloadMyData(format: MyDataFormat, lang: StoredLang): Promise<void> {
  const response = await apiFetch('GET', `/me/data${format === 'csv' ? '.csv' : ''}?lang=${lang}`, { accept: format === 'csv' ? 'text/csv' : 'application/json' });
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    // The stream broke off midway: no half file is saved.
    throw new ApiError('GENERIC_ERROR', response.status);
  }
  const today = new Date().toISOString().slice(0, 10);
  saveBlob(blob, filenameFromDisposition(response.headers.get('content-disposition'), myDataFileName(today, format, lang)));
}

/**
 * POST /api/me/erase: erases the caller's account after their password.
 * @throws ApiError INVALID_PASSWORD, TOO_MANY_REQUESTS, FORBIDDEN (an administrator account).
 */
export function eraseMyAccount(password: string): Promise<EraseMyAccountAnswer> {
  return apiPost<EraseMyAccountAnswer>('/me/erase', { password });
}
