import type { FundraisingAnswer } from '@sinilill/contracts';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/fundraising (public): the money raised from succeeded payments, fees and donations, in
 * EUR (numbers with at most two decimals), overall and per team. Throws ApiError.
 */
export function getFundraising(signal?: AbortSignal): Promise<FundraisingAnswer> {
  return apiGet<FundraisingAnswer>('/fundraising', { signal });
}
