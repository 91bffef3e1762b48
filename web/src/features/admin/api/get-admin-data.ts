import type { AdminEntriesAnswer, AdminTeamsAnswer, AdminUsersAnswer } from '@sinilill/contracts';
import { apiGet } from '../../../lib/api-client';
import { minPositionHeaders } from '../../../lib/read-your-writes';

/** Options of the admin reads: an abort signal and the position the answer must reflect. */
export interface AdminReadOptions {
  signal?: AbortSignal;
  /** A command's position: the query API answers once its read models have caught up (x-min-position). */
  minPosition?: number;
}

function read<T>(path: string, options: AdminReadOptions): Promise<T> {
  return apiGet<T>(path, { signal: options.signal, headers: minPositionHeaders(options.minPosition) });
}

/**
 * GET /api/admin/userdata (spec §7): every live account with its participant and team, newest
 * participant first. Throws ApiError (UNAUTHORIZED, FORBIDDEN).
 */
export function getUsers(options: AdminReadOptions = {}): Promise<AdminUsersAnswer> {
  return read<AdminUsersAnswer>('/admin/userdata', options);
}

/** GET /api/admin/teamdata (spec §7): every live team (distance in rounded km), by name. Throws ApiError. */
export function getTeams(options: AdminReadOptions = {}): Promise<AdminTeamsAnswer> {
  return read<AdminTeamsAnswer>('/admin/teamdata', options);
}

/**
 * GET /api/admin/entrydata (spec §7): every live entry (km, performed_at YYYY-MM-DD) with its
 * person's and team's name, newest first. Throws ApiError.
 */
export function getEntries(options: AdminReadOptions = {}): Promise<AdminEntriesAnswer> {
  return read<AdminEntriesAnswer>('/admin/entrydata', options);
}
