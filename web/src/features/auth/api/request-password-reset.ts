import type { RequestPasswordResetBody } from '@sinilill/contracts';
import { apiPost } from '../../../lib/api-client';

/**
 * POST /api/requestpasswordreset (spec §7): mails a reset link in `lang`. Throws ApiError, e.g.
 * INVALID_EMAIL, TOO_MANY_REQUESTS.
 */
export function requestPasswordReset(body: RequestPasswordResetBody): Promise<unknown> {
  return apiPost<unknown>('/requestpasswordreset', body);
}
