import { ApiError, apiFetch } from '../../../lib/api-client';
import { filenameFromDisposition, saveBlob } from '../../../lib/download';

/** Whose certificate: the participant's own, or the team's. */
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
  const response = await apiFetch('GET', certificatePath(of), { accept: 'application/pdf' });
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    throw new ApiError('GENERIC_ERROR', response.status); // the download broke off: no half file
  }
  return { blob, fileName: filenameFromDisposition(response.headers.get('content-disposition'), 'sinilill.pdf') };
}

/** Saves `blob` as `fileName` (the browser's download). */
export const saveFile = saveBlob;
