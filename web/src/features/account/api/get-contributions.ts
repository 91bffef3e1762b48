import type { ParticipantContributionsAnswer } from '@sinilill/contracts';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/participant/{id}/contributions: the participant's live entries, newest
 * first, each with what its latest event did to the team. Throws ApiError (FORBIDDEN, NOT_FOUND).
 */
export function getContributions(participantId: number, signal?: AbortSignal): Promise<ParticipantContributionsAnswer> {
  return apiGet<ParticipantContributionsAnswer>(`/participant/${participantId}/contributions`, { signal });
}
