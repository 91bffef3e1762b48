import type { ChangePasswordBody, SuccessAnswer } from '@sinilill/contracts';
import { apiPut } from '../../../lib/api-client';

/**
 * PUT /api/account/changepassword (spec §7), authenticated. Throws ApiError, e.g. INVALID_PASSWORD
 * (the current password is wrong), PASSWORD_TOO_SHORT.
 */
export function changePassword(body: ChangePasswordBody): Promise<SuccessAnswer> {
  return apiPut<SuccessAnswer>('/account/changepassword', body);
}
