import type { ConfirmAccountBody, SuccessAnswer } from '@sinilill/contracts';
import { apiPost } from '../../../lib/api-client';

/**
 * POST /api/confirmaccount (spec §7) with the token and id of the mailed link
 * /confirm/account/{token}/{id}. Throws ApiError, e.g. INVALID_ACCOUNT_TOKEN.
 */
export function confirmAccount(body: ConfirmAccountBody): Promise<SuccessAnswer> {
  return apiPost<SuccessAnswer>('/confirmaccount', body);
}
