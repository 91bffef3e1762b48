/**
 * The review queue of flagged entries: GET /api/admin/review lists a page
 * (filters: status, rule, team, performed-at date), POST /api/admin/review approves or rejects
 * entries with one note (throws ApiError: UNAUTHORIZED, FORBIDDEN, NOT_FOUND,
 * ENTRY_NOT_UNDER_REVIEW, VALUE_TOO_LONG, INVALID_REQUEST).
 */
import type { ReviewDecisionAnswer, ReviewDecisionBody, ReviewQueueAnswer, ReviewQueueQuery } from '@sinilill/contracts';
import { apiGet, apiPost } from '../../../lib/api-client';
import { minPositionHeaders } from '../../../lib/read-your-writes';

/** One page of the queue; `minPosition` waits for a decision just made to be projected. */
export function getReviewQueue(query: ReviewQueueQuery, options: { signal?: AbortSignal; minPosition?: number } = {}): Promise<ReviewQueueAnswer> {
  const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== '') as [string, string][]);
  const search = params.toString();
  return apiGet<ReviewQueueAnswer>(`/admin/review${search ? `?${search}` : ''}`, {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(minPositionHeaders(options.minPosition) ? { headers: minPositionHeaders(options.minPosition)! } : {}),
  });
}

export function decideReview(body: ReviewDecisionBody): Promise<ReviewDecisionAnswer> {
  return apiPost<ReviewDecisionAnswer>('/admin/review', body);
}
