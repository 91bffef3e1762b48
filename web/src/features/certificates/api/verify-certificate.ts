import type { CertificateAnswer } from '@sinilill/contracts';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/certificates/{code}, public: what the code certifies, recomputed
 * now. Throws ApiError: CERTIFICATE_NOT_VALID for a forged, mistyped or erased person's code.
 */
export function verifyCertificate(code: string, signal?: AbortSignal): Promise<CertificateAnswer> {
  return apiGet<CertificateAnswer>(`/certificates/${encodeURIComponent(code)}`, { signal });
}
