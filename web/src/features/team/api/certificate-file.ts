import { API_BASE, ApiError } from '../../../lib/api-client';
import { toCatalogueCode } from '../../../lib/errors/catalogue';
import { filenameFromDisposition, saveBlob } from '../../../lib/download';
import { useSessionStore } from '../../../lib/session-store';

/** Whose certificate: the participant's own, or the team's (issue 19 item 3). */
export type CertificateOf = { kind: 'participant'; participantId: number } | { kind: 'team'; teamId: number };

/** The query API's address of the certificate's PDF. */
export function certificatePath(of: CertificateOf): string {
  return of.kind === 'team' ? `/team/${of.teamId}/certificate.pdf` : `/participant/${of.participantId}/certificate.pdf`;
}

/**
 * GET /api/participant/{id}/certificate.pdf or /api/team/{id}/certificate.pdf with the session's
 * token (a plain link cannot send it), as a Blob with the file name the server gives. A 401 first
 * renews the access token once (the session store's refresh, as the API client does).
 * @throws ApiError: CERTIFICATE_NOT_AVAILABLE_YET (409) before the results are final, FORBIDDEN,
 *   UNAUTHORIZED, GENERIC_ERROR (status 0) when the network failed.
 */
export async function downloadCertificate(of: CertificateOf): Promise<{ blob: Blob; fileName: string }> {
  const send = (token: string | null) => fetch(`${API_BASE}${certificatePath(of)}`, {
    headers: token ? { authorization: token, accept: 'application/pdf' } : { accept: 'application/pdf' },
  });
  let response: Response;
  try {
    const token = useSessionStore.getState().token;
    response = await send(token);
    if (response.status === 401 && token && (await useSessionStore.getState().refresh(token))) {
      response = await send(useSessionStore.getState().token);
    }
  } catch {
    throw new ApiError('GENERIC_ERROR', 0);
  }
  if (!response.ok) {
    const answer: unknown = await response.json().catch(() => undefined);
    throw new ApiError(toCatalogueCode((answer as { message?: unknown } | undefined)?.message, response.status), response.status);
  }
  const fileName = filenameFromDisposition(response.headers.get('content-disposition'), 'sinilill.pdf');
  return { blob: await response.blob(), fileName };
}

/** Saves `blob` as `fileName` (the browser's download). */
export const saveFile = saveBlob;
