import type { TeamAnswer } from '@sinilill/contracts';
import { apiGet } from '../../../lib/api-client';
import { minPositionHeaders } from '../../../lib/read-your-writes';

/** Options of the team page's reads: an abort signal and the position the answer must reflect. */
export interface ReadOptions {
  signal?: AbortSignal;
  /** A command's (or live event's) position: the query API answers once it has caught up. */
  minPosition?: number;
}

/** GET /api/team/{id} (spec §7): the team's card data and progress. Throws ApiError (NOT_FOUND, FORBIDDEN). */
export function getTeam(id: number, options: ReadOptions = {}): Promise<TeamAnswer> {
  return apiGet<TeamAnswer>(`/team/${id}`, { signal: options.signal, headers: minPositionHeaders(options.minPosition) });
}
