import type { ContributionAnswer } from '@sinilill/contracts';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/team/{teamId}/entries/{entryId}/contribution: what the entry's
 * latest event did to the team, folded from the event log. Throws ApiError (FORBIDDEN, NOT_FOUND).
 */
export function getContribution(teamId: number, entryId: number, signal?: AbortSignal): Promise<ContributionAnswer> {
  return apiGet<ContributionAnswer>(`/team/${teamId}/entries/${entryId}/contribution`, { signal });
}
