import type { JoinCodeAnswer } from '@sinilill/contracts';
import { apiGet } from '../../../lib/api-client';

/** GET /api/team/{id}/joincode (spec §7): the code members join with. Throws ApiError. */
export function getJoinCode(id: number, signal?: AbortSignal): Promise<JoinCodeAnswer> {
  return apiGet<JoinCodeAnswer>(`/team/${id}/joincode`, { signal });
}

/**
 * GET /api/team/{id}/newcode (spec §7, §4 "Join code regeneration invalidates the old code"): a
 * new code and when it was made; the old one stops working. Throws ApiError.
 */
export function newJoinCode(id: number): Promise<JoinCodeAnswer> {
  return apiGet<JoinCodeAnswer>(`/team/${id}/newcode`);
}
