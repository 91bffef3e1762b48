/**
 * GET /api/stats/teams?page&size&sort&order&q (packages/contracts/src/pages.ts):
 * one page of the participants table, searched by team name and sorted by name, distance,
 * teammates or blue flowers, with the total matching the search.
 *
 * The contract's constants are spelled here rather than imported as values, which would bundle
 * the contracts' schema library into this public page; their types tie them to the contract, so
 * a change there fails `tsc -b` (as lib/read-your-writes.ts does for its header).
 */
import type {
  DEFAULT_SORT as ContractDefaultSort,
  PUBLIC_PAGE_SIZE as ContractPageSize,
  PUBLIC_TEAM_SORTS as ContractTeamSorts,
  PublicTeamPageAnswer,
  SEARCH_MAX as ContractSearchMax,
} from '@sinilill/contracts';
import { pageQueryString, type PageQuery } from '../../../components/ui/data-table';
import { apiGet } from '../../../lib/api-client';

/** Rows per page (spec §2 "Participants": 10). */
export const PUBLIC_PAGE_SIZE: typeof ContractPageSize = 10;
/** Longest search text the server takes. */
export const SEARCH_MAX: typeof ContractSearchMax = 100;
/** The table's sort keys (its sortable columns' ids). */
export const TEAM_SORTS: typeof ContractTeamSorts = ['team_name', 'distance', 'participants', 'blueFlowers'];
/** A sort key of the table. */
export type TeamSort = (typeof ContractTeamSorts)[number];
/** The default sort: most km first (spec §2). */
export const DEFAULT_TEAM_SORT: (typeof ContractDefaultSort)['publicTeams'] = { sort: 'distance', order: 'desc' };

/** Reads one page of teams (public: no session needed). Throws ApiError (INVALID_REQUEST; GENERIC_ERROR offline). */
export function getTeamPage(query: PageQuery<TeamSort>, signal?: AbortSignal): Promise<PublicTeamPageAnswer> {
  return apiGet<PublicTeamPageAnswer>(`/stats/teams${pageQueryString(query)}`, { signal });
}
