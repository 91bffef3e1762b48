import type { TeamMembersAnswer } from '@sinilill/contracts';
import { apiGet } from '../../../lib/api-client';
import { minPositionHeaders } from '../../../lib/read-your-writes';
import type { ReadOptions } from './get-team';

/** GET /api/team/{id}/participants (spec §7): the members table. Throws ApiError. */
export function getParticipants(id: number, options: ReadOptions = {}): Promise<TeamMembersAnswer> {
  return apiGet<TeamMembersAnswer>(`/team/${id}/participants`, { signal: options.signal, headers: minPositionHeaders(options.minPosition) });
}
