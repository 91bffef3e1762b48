/**
 * Downloads for the audit (the history export). The export answers only an
 * administrator, so a plain link, which carries no Authorization header, will not do: the file
 * is fetched with the session's token and handed to the browser as a Blob through an
 * `<a download>`. A local helper rather than part of lib/api-client, whose calls all read JSON.
 */
import { API_BASE, ApiError } from '../../../../lib/api-client';
import { toCatalogueCode } from '../../../../lib/errors/catalogue';
import { useSessionStore } from '../../../../lib/session-store';
import { filenameFromDisposition } from '../../../../lib/download';

export { saveBlob } from '../../../../lib/download';

/** A fetched file: its content and the name the server gave it (else the fallback). */
export interface FetchedFile {
  blob: Blob;
  filename: string;
}

/**
 * GET `API_BASE + path` with the session's Authorization and answer the body as a Blob.
 * Failures as lib/api-client: ApiError with the answer's catalogue code (status 0 for a network
 * failure); a 401 or 403 clears the session (spec §4); an abort rethrows.
 */
export async function fetchFile(path: string, fallbackName: string, signal?: AbortSignal): Promise<FetchedFile> {
  const session = useSessionStore.getState();
  const headers: Record<string, string> = {};
  if (session.token) headers.authorization = session.token;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, { method: 'GET', headers, signal, cache: 'no-store' });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('GENERIC_ERROR', 0);
  }
  if (!response.ok) {
    if ((response.status === 401 || response.status === 403) && useSessionStore.getState().isAuthenticated) {
      useSessionStore.getState().clear();
    }
    const body: unknown = await response.json().catch(() => undefined);
    throw new ApiError(toCatalogueCode((body as { message?: unknown } | undefined)?.message, response.status), response.status);
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch (error) {
    // The stream broke off midway (the server logs a failed export): no half file is saved.
    if (signal?.aborted) throw error;
    throw new ApiError('GENERIC_ERROR', response.status);
  }
  return { blob, filename: filenameFromDisposition(response.headers.get('content-disposition'), fallbackName) };
}
