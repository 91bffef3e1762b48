import type { TeamEntriesAnswer } from '@sinilill/contracts';
import { apiGet } from '../../../lib/api-client';
import { minPositionHeaders } from '../../../lib/read-your-writes';
import type { ReadOptions } from './get-team';

/** GET /api/team/{id}/entries (spec §7): the team's entries. Throws ApiError. */
export function getEntries(id: number, options: ReadOptions = {}): Promise<TeamEntriesAnswer> {
  return apiGet<TeamEntriesAnswer>(`/team/${id}/entries`, { signal: options.signal, headers: minPositionHeaders(options.minPosition) });
}
