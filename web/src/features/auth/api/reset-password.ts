import type { ResetPasswordBody, SuccessAnswer } from '@sinilill/contracts';
import { apiPost } from '../../../lib/api-client';

/**
 * POST /api/resetpassword (spec §7) with the token and user id of the mailed link
 * /passwordreset/{token}/{id}. Throws ApiError, e.g. INVALID_RESET_TOKEN, PASSWORD_TOO_SHORT.
 */
export function resetPassword(body: ResetPasswordBody): Promise<SuccessAnswer> {
  return apiPost<SuccessAnswer>('/resetpassword', body);
}
