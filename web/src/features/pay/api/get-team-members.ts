import type { TeamMembersAnswer } from '@sinilill/contracts';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/team/{teamId}/participants (spec §7; the team's members and administrators): the
 * members with their paid flags, for a captain choosing to pay their unpaid teammates' fees.
 * Throws ApiError.
 */
export function getTeamMembers(teamId: number, signal?: AbortSignal): Promise<TeamMembersAnswer> {
  return apiGet<TeamMembersAnswer>(`/team/${teamId}/participants`, { signal });
}
