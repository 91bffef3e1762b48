/**
 * Tables paged, sorted and searched on the server: the admin console's users,
 * teams and entries tabs (spec §2 "Admin": 50 rows per page, page sizes 25/50/100, the default
 * sorts below) and the public participants table (spec §2 "/participants": 10 rows per page).
 * The unpaged calls of spec §7 (GET /admin/userdata, /admin/teamdata, /admin/entrydata, /stats)
 * stay as they are, for clients written from the spec.
 *
 * Every paged call takes the same query string:
 * - `page`: 1-based page number (default 1); a page past the end answers no rows (never an error);
 * - `size`: rows per page, one of PAGE_SIZES (default: the table's DEFAULT_PAGE_SIZE);
 * - `sort`: one of the table's sort keys (default: its DEFAULT_SORT); ties are broken by id;
 * - `order`: 'asc' | 'desc' (default: the table's DEFAULT_SORT order);
 * - `q`: search text (trimmed, at most SEARCH_MAX characters, case-insensitive substring) over the
 *   table's search columns; '' or absent: no filter.
 * Anything else (an unknown key, a size outside PAGE_SIZES, a longer q) answers 400
 * INVALID_REQUEST. Names sort by Estonian collation (š, z, ž, t, õ, ä, ö, ü after s; ICU `et`).
 *
 * The answer is `{ rows, total, page, size }`: `total` counts every row that matches `q`.
 *
 * CSV exports (`/admin/users.csv`, `/admin/teams.csv`, `/admin/entries.csv`) take `sort`, `order`
 * and `q` (not page or size), stream every matching row as UTF-8 CSV with a header line
 * (text/csv; charset=utf-8, attachment), and never hold the whole table in memory.
 */
import Type from 'typebox';
import { AdminEntry, AdminTeam, AdminUser } from './admin-queries';
import { TeamStat } from './stats';

/** Page sizes the console offers (spec §2 "default page sizes 25, 50, 100"), plus the public table's 10. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
/** Rows per page of the admin tabs (spec §2: 50). */
export const ADMIN_PAGE_SIZE = 50;
/** Rows per page of the public participants table (spec §2: 10). */
export const PUBLIC_PAGE_SIZE = 10;
/** Longest search text, characters. */
export const SEARCH_MAX = 100;

/** Sort keys of the users tab (spec §2 columns); default participant_created_at desc. */
export const USER_SORTS = ['full_name', 'email', 'team_name', 'is_paid', 'is_approved', 'participant_created_at', 'created_at'] as const;
/** Sort keys of the teams tab; default team_name asc. */
export const TEAM_SORTS = ['team_name', 'participant_count', 'distance', 'join_code', 'created_at'] as const;
/** Sort keys of the entries tab; default created_at desc. */
export const ENTRY_SORTS = ['full_name', 'team_name', 'distance', 'entry_type', 'performed_at', 'created_at'] as const;
/** Sort keys of the public participants table (spec §2: distance, teammates, blue flowers; name); default distance desc. */
export const PUBLIC_TEAM_SORTS = ['team_name', 'distance', 'participants', 'blueFlowers'] as const;

/** Each table's default sort (spec §2). */
export const DEFAULT_SORT = {
  users: { sort: 'participant_created_at', order: 'desc' },
  teams: { sort: 'team_name', order: 'asc' },
  entries: { sort: 'created_at', order: 'desc' },
  publicTeams: { sort: 'distance', order: 'desc' },
} as const;

const Order = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);
const Size = Type.Union(PAGE_SIZES.map((size) => Type.Literal(size)));

/**
 * `edition`: only the teams (and their entries) of that edition's year, four digits; absent,
 * every edition's (the administrators' tables span the whole log).
 */
const EDITION_FILTER = { edition: Type.Optional(Type.String({ pattern: '^[0-9]{4}$' })) };

function pageQuery<K extends readonly string[], E extends Type.TProperties = Record<never, never>>(sorts: K, extra?: E) {
  return Type.Object({
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    size: Type.Optional(Size),
    sort: Type.Optional(Type.Union(sorts.map((key) => Type.Literal(key)))),
    order: Type.Optional(Order),
    q: Type.Optional(Type.String({ maxLength: SEARCH_MAX })),
    ...(extra ?? ({} as E)),
  }, { additionalProperties: false });
}

function exportQuery<K extends readonly string[], E extends Type.TProperties = Record<never, never>>(sorts: K, extra?: E) {
  return Type.Object({
    sort: Type.Optional(Type.Union(sorts.map((key) => Type.Literal(key)))),
    order: Type.Optional(Order),
    q: Type.Optional(Type.String({ maxLength: SEARCH_MAX })),
    ...(extra ?? ({} as E)),
  }, { additionalProperties: false });
}

function pageAnswer<T extends Type.TSchema>(row: T) {
  return Type.Object({
    rows: Type.Array(row),
    /** Rows matching `q` over all pages. */
    total: Type.Integer(),
    page: Type.Integer(),
    size: Type.Integer(),
  });
}

/** GET /api/admin/users?page&size&sort&order&q: search over e-mail, full name and team name. */
export const UserPageQuery = pageQuery(USER_SORTS);
export type UserPageQuery = Type.Static<typeof UserPageQuery>;
export const UserPageAnswer = pageAnswer(AdminUser);
export type UserPageAnswer = Type.Static<typeof UserPageAnswer>;
/** GET /api/admin/users.csv?sort&order&q */
export const UserExportQuery = exportQuery(USER_SORTS);

/** GET /api/admin/teams?page&size&sort&order&q&edition: search over team name and join code. */
export const TeamPageQuery = pageQuery(TEAM_SORTS, EDITION_FILTER);
export type TeamPageQuery = Type.Static<typeof TeamPageQuery>;
export const TeamPageAnswer = pageAnswer(AdminTeam);
export type TeamPageAnswer = Type.Static<typeof TeamPageAnswer>;
/** GET /api/admin/teams.csv?sort&order&q&edition */
export const TeamExportQuery = exportQuery(TEAM_SORTS, EDITION_FILTER);

/** GET /api/admin/entries?page&size&sort&order&q&edition: search over full name and team name (spec §2). */
export const EntryPageQuery = pageQuery(ENTRY_SORTS, EDITION_FILTER);
export type EntryPageQuery = Type.Static<typeof EntryPageQuery>;
export const EntryPageAnswer = pageAnswer(AdminEntry);
export type EntryPageAnswer = Type.Static<typeof EntryPageAnswer>;
/** GET /api/admin/entries.csv?sort&order&q&edition */
export const EntryExportQuery = exportQuery(ENTRY_SORTS, EDITION_FILTER);

/**
 * GET /api/stats/teams?page&size&sort&order&q (public): the participants table's rows (spec §2
 * "/participants": search on team name; sortable distance, teammates, blue flowers), each a
 * TeamStat as in GET /api/stats. Ranks are not part of a row: the table numbers rows by
 * (page - 1) * size + index.
 */
export const PublicTeamPageQuery = pageQuery(PUBLIC_TEAM_SORTS);
export type PublicTeamPageQuery = Type.Static<typeof PublicTeamPageQuery>;
export const PublicTeamPageAnswer = pageAnswer(TeamStat);
export type PublicTeamPageAnswer = Type.Static<typeof PublicTeamPageAnswer>;
