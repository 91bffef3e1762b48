import type { LoginAnswer, LoginBody } from '@sinilill/contracts';
import { apiPost } from '../../../lib/api-client';

/**
 * POST /api/login (spec §7): the token whose claims are the session identity. Throws ApiError,
 * e.g. INVALID_CREDENTIALS, USER_NOT_APPROVED (the confirmation mail is sent again),
 * TOO_MANY_REQUESTS.
 */
export function login(body: LoginBody): Promise<LoginAnswer> {
  return apiPost<LoginAnswer>('/login', body);
}
