import type {
  AdminUsersAnswer,
  ENTRY_SORTS,
  EntryPageAnswer,
  TEAM_SORTS,
  TeamPageAnswer,
  USER_SORTS,
  UserPageAnswer,
} from '@sinilill/contracts';
import { pageQueryString, type PageQuery } from '../../../components/ui/data-table';
import { apiGet } from '../../../lib/api-client';
import { minPositionHeaders } from '../../../lib/read-your-writes';

/** Options of the admin reads: an abort signal and the position the answer must reflect. */
export interface AdminReadOptions {
  signal?: AbortSignal;
  /** A command's position: the query API answers once its read models have caught up (x-min-position). */
  minPosition?: number;
}

/** A sort key of the users tab (packages/contracts/src/pages.ts USER_SORTS). */
export type UserSort = (typeof USER_SORTS)[number];
/** A sort key of the teams tab (TEAM_SORTS). */
export type TeamSort = (typeof TEAM_SORTS)[number];
/** A sort key of the entries tab (ENTRY_SORTS). */
export type EntrySort = (typeof ENTRY_SORTS)[number];

function read<T>(path: string, options: AdminReadOptions): Promise<T> {
  return apiGet<T>(path, { signal: options.signal, headers: minPositionHeaders(options.minPosition) });
}

/**
 * GET /api/admin/userdata (spec §7): every live account with its participant and team, newest
 * participant first. The reset-password tab's picker and the history's e-mails use it; the users
 * tab reads pages (getUserPage). Throws ApiError (UNAUTHORIZED, FORBIDDEN).
 */
export function getUsers(options: AdminReadOptions = {}): Promise<AdminUsersAnswer> {
  return read<AdminUsersAnswer>('/admin/userdata', options);
}

/**
 * GET /api/admin/users?page&size&sort&order&q: one page of accounts, with the
 * total matching `q` (e-mail, full name, team name). Throws ApiError (UNAUTHORIZED, FORBIDDEN,
 * INVALID_REQUEST).
 */
export function getUserPage(query: PageQuery<UserSort>, options: AdminReadOptions = {}): Promise<UserPageAnswer> {
  return read<UserPageAnswer>(`/admin/users${pageQueryString(query)}`, options);
}

/** GET /api/admin/teams?page&size&sort&order&q: one page of teams (searched by name and join code). Throws ApiError. */
export function getTeamPage(query: PageQuery<TeamSort>, options: AdminReadOptions = {}): Promise<TeamPageAnswer> {
  return read<TeamPageAnswer>(`/admin/teams${pageQueryString(query)}`, options);
}

/**
 * GET /api/admin/entries?page&size&sort&order&q: one page of entries (km, performed_at
 * YYYY-MM-DD, with the person's and the team's name; searched by full name and team name).
 * Throws ApiError.
 */
export function getEntryPage(query: PageQuery<EntrySort>, options: AdminReadOptions = {}): Promise<EntryPageAnswer> {
  return read<EntryPageAnswer>(`/admin/entries${pageQueryString(query)}`, options);
}
