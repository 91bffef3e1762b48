import type { Unsubscribed } from '@sinilill/contracts';
import { apiPost } from '../../../lib/api-client';

/**
 * POST /api/unsubscribe {token} (no login): the participant the mailed link
 * /unsubscribe/{token} names gets no more newsletter mails. Throws ApiError, e.g.
 * INVALID_UNSUBSCRIBE_LINK for a forged link or an erased person.
 */
export function unsubscribe(token: string): Promise<Unsubscribed> {
  return apiPost<Unsubscribed>('/unsubscribe', { token });
}
