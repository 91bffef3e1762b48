/**
 * The admin console's tables paged, sorted and searched on the server (contract
 * @sinilill/contracts pages.ts), administrators only (401 UNAUTHORIZED, 403 FORBIDDEN):
 *
 * - GET /admin/users, /admin/teams, /admin/entries?page&size&sort&order&q: `{ rows, total, page,
 *   size }`, each row exactly as GET /admin/userdata, /teamdata, /entrydata answer it (the row
 *   mappings below are the ones admin.ts uses);
 * - GET /admin/users.csv, /admin/teams.csv, /admin/entries.csv?sort&order&q: every matching row
 *   in that order, streamed as CSV from a cursor (table-pages.ts cursorChunks), one flat column per
 *   JSON field (the nested participant and team fields by their own names).
 *
 * Search (`q`, a case-insensitive substring): users over e-mail, name and team name; teams over
 * name and join code; entries over the member's name and the team's name. `edition` (four
 * digits, teams and entries): only that edition's teams and their entries; absent, every
 * edition's (the console spans the whole log). Sorting: see
 * table-pages.ts (NULLs last, ties by id in the same direction, names in Estonian order). A users
 * row's participant fields (full_name, team_name, is_paid, participant_created_at) are NULL for an
 * account without a live participant, as its row shows them.
 *
 * Speed at a million entries (read-model migration 2026-009 adds the indexes; measured by
 * tests/bench/table-pages.ts, every first page well under the 1 s target): the users and teams
 * tables are small (tens of thousands of rows) and are sorted whole; entries by created_at walk
 * an index; a search over entries first finds the members and teams whose names match (small
 * tables), then filters entries by participant or team id; a sort by the member's or team's name
 * walks the members (or teams) in name order and their entries (an index on each), with the
 * entries that have no named member (or no team) after them. `total` is a count(*) of the
 * matching rows, run beside the page's query; from REVERSE_FROM rows in it runs first, and a page
 * in the far half is read from the other end (the last page costs about what the first does;
 * pages in the middle of a million rows take a second or two).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql, type Kysely, type QueryCreator, type RawBuilder, type Selectable } from 'kysely';
import {
  ADMIN_PAGE_SIZE,
  DEFAULT_SORT,
  EntryExportQuery,
  EntryPageAnswer,
  EntryPageQuery,
  ErrorAnswer,
  TeamExportQuery,
  TeamPageAnswer,
  TeamPageQuery,
  UserExportQuery,
  UserPageAnswer,
  UserPageQuery,
  type AdminEntry,
  type AdminTeam,
  type AdminUser,
  type ENTRY_SORTS,
  type TEAM_SORTS,
  type USER_SORTS,
} from '@sinilill/contracts';
import { fromHundredths } from '@sinilill/domain';
import { requireAdmin, routeFile } from '@sinilill/http';
import type { AdminUsersTable, ReadModelDatabase } from '@sinilill/read-models';
import { direction, estonian, ilike, pageWindow, plainPageNumbers, searchPattern, sendCsv, type PageWindow, type SortKey, type SortOrder } from '../table-pages';
import type { RouteDependencies } from '../dependencies';

type ReadModels = QueryCreator<ReadModelDatabase>;
type UserSort = (typeof USER_SORTS)[number];
type TeamSort = (typeof TEAM_SORTS)[number];
type EntrySort = (typeof ENTRY_SORTS)[number];

// ---------------------------------------------------------------------------------------------
// Rows: one mapping per table, for the paged and the unpaged routes and the CSV.

/** A users-tab row from its admin_users row (spec §3 "User (admin view)"). */
export function toAdminUser(u: Selectable<AdminUsersTable>): AdminUser {
  return {
    id: u.user_id,
    email: u.email,
    is_approved: u.approved,
    role: u.role === 'ADMIN' ? 'ADMIN' : 'USER',
    participant_id: u.participant_id,
    created_at: u.created_at.toISOString(),
    // participant_created_at is set exactly while the account has a live participant.
    participant: u.participant_id === null || u.participant_created_at === null ? null : {
      id: u.participant_id,
      full_name: u.full_name,
      is_paid: u.is_paid,
      created_at: u.participant_created_at.toISOString(),
      team: u.team_id === null || u.team_name === null ? null : { id: u.team_id, team_name: u.team_name },
    },
  };
}

/** Every team with its join code (team-stats, team-directory), aliases t and c; unordered. */
export function adminTeamRows(rm: ReadModels) {
  return rm.selectFrom('team_stats as t')
    .leftJoin('team_join_codes as c', 'c.team_id', 't.team_id')
    .select(['t.team_id', 't.team_name', 't.icon', 't.description', 'c.join_code', 't.participants', 't.distance', 't.created_at']);
}
type AdminTeamRow = Awaited<ReturnType<ReturnType<typeof adminTeamRows>['executeTakeFirstOrThrow']>>;

/** A teams-tab row (spec §3 "Team"). */
export function toAdminTeam(t: AdminTeamRow): AdminTeam {
  return {
    id: t.team_id, team_name: t.team_name, icon: t.icon, description: t.description, join_code: t.join_code,
    participant_count: t.participants, distance: t.distance, created_at: t.created_at.toISOString(),
  };
}

/** Every entry with its member's and team's names (team-directory, team-stats), aliases e, m and t; unordered. */
export function adminEntryRows(rm: ReadModels) {
  return rm.selectFrom('team_entries as e')
    .leftJoin('team_members as m', 'm.participant_id', 'e.participant_id')
    .leftJoin('team_stats as t', 't.team_id', 'e.team_id')
    .select(['e.entry_id', 'e.team_id', 'e.participant_id', 'e.distance_hundredths', 'e.entry_type', 'e.performed_at', 'e.created_at', 'm.full_name', 't.team_name']);
}
type AdminEntryRow = Awaited<ReturnType<ReturnType<typeof adminEntryRows>['executeTakeFirstOrThrow']>>;

/** An entries-tab row (spec §3 "Entry" with the member's and team's names; km with two decimals). */
export function toAdminEntry(e: AdminEntryRow): AdminEntry {
  return {
    id: e.entry_id, team_id: e.team_id, participant_id: e.participant_id,
    distance: fromHundredths(e.distance_hundredths), entry_type: e.entry_type, performed_at: e.performed_at,
    created_at: e.created_at.toISOString(),
    participant: { full_name: e.full_name ?? null }, team: { team_name: e.team_name ?? null },
  };
}

/** The users CSV's columns: the row's fields, the participant's and its team's flattened. */
export const USER_CSV_COLUMNS = ['id', 'email', 'full_name', 'role', 'is_approved', 'participant_id', 'is_paid',
  'team_id', 'team_name', 'participant_created_at', 'created_at'] as const;
function userRecord(u: AdminUser): Record<(typeof USER_CSV_COLUMNS)[number], unknown> {
  const p = u.participant;
  return {
    id: u.id, email: u.email, full_name: p?.full_name ?? null, role: u.role, is_approved: u.is_approved,
    participant_id: u.participant_id, is_paid: p?.is_paid ?? null, team_id: p?.team?.id ?? null,
    team_name: p?.team?.team_name ?? null, participant_created_at: p?.created_at ?? null, created_at: u.created_at,
  };
}

/** The teams CSV's columns (the row's own fields). */
export const TEAM_CSV_COLUMNS = ['id', 'team_name', 'icon', 'description', 'join_code', 'participant_count', 'distance', 'created_at'] as const;

/** The entries CSV's columns: the row's fields, the member's and team's names flattened. */
export const ENTRY_CSV_COLUMNS = ['id', 'team_id', 'participant_id', 'full_name', 'team_name', 'distance', 'entry_type', 'performed_at', 'created_at'] as const;
function entryRecord(e: AdminEntry): Record<(typeof ENTRY_CSV_COLUMNS)[number], unknown> {
  return {
    id: e.id, team_id: e.team_id, participant_id: e.participant_id, full_name: e.participant.full_name,
    team_name: e.team.team_name, distance: e.distance, entry_type: e.entry_type, performed_at: e.performed_at, created_at: e.created_at,
  };
}

// ---------------------------------------------------------------------------------------------
// Users: admin_users (admin-directory), one row per account.

/** The account has a live participant (toAdminUser's `participant` is not null). */
const LIVE_PARTICIPANT = sql`participant_id IS NOT NULL AND participant_created_at IS NOT NULL`;

/** Each users sort key over admin_users: what the row shows in that column. */
const USER_KEYS: Record<UserSort, SortKey> = {
  full_name: { expr: estonian(sql<string | null>`(CASE WHEN ${LIVE_PARTICIPANT} THEN full_name END)`), nullable: true },
  email: { expr: estonian(sql.ref<string | null>('email')), nullable: true },
  team_name: { expr: estonian(sql<string | null>`(CASE WHEN ${LIVE_PARTICIPANT} AND team_id IS NOT NULL THEN team_name END)`), nullable: true },
  is_paid: { expr: sql`(CASE WHEN ${LIVE_PARTICIPANT} THEN is_paid END)`, nullable: true },
  is_approved: { expr: sql`approved`, nullable: false },
  participant_created_at: { expr: sql`(CASE WHEN participant_id IS NOT NULL THEN participant_created_at END)`, nullable: true },
  created_at: { expr: sql`created_at`, nullable: false },
};

function userMatch(pattern: string | null): RawBuilder<boolean> {
  if (pattern === null) return sql<boolean>`true`;
  return sql<boolean>`(${ilike(sql.ref('email'), pattern)} OR ${ilike(sql.ref('full_name'), pattern)} OR ${ilike(sql.ref('team_name'), pattern)})`;
}

function orderedUsers(rm: ReadModels, match: RawBuilder<boolean>, sort: UserSort, order: SortOrder) {
  const key = USER_KEYS[sort];
  return rm.selectFrom('admin_users').selectAll().where(match)
    .orderBy(key.expr, direction(order, key.nullable))
    .orderBy(sql`user_id COLLATE "C"`, direction(order));
}

async function userPage(rm: ReadModels, w: PageWindow<UserSort>) {
  const match = userMatch(w.pattern);
  const [rows, count] = await Promise.all([
    orderedUsers(rm, match, w.sort, w.order).limit(w.size).offset(w.offset).execute(),
    rm.selectFrom('admin_users').select((eb) => eb.fn.countAll<number>().as('n')).where(match).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toAdminUser), total: Number(count.n), page: w.page, size: w.size };
}

// ---------------------------------------------------------------------------------------------
// Teams: team_stats (team-stats) with team_join_codes (team-directory).

const TEAM_KEYS: Record<TeamSort, SortKey> = {
  team_name: { expr: estonian(sql.ref<string>('t.team_name')), nullable: false },
  participant_count: { expr: sql`t.participants`, nullable: false },
  distance: { expr: sql`t.distance`, nullable: false },
  join_code: { expr: estonian(sql.ref<string | null>('c.join_code')), nullable: true },
  created_at: { expr: sql`t.created_at`, nullable: false },
};

/** An `edition` query parameter (four digits) as a year; null when absent (every edition). */
function editionOf(query: { edition?: string }): number | null {
  return query.edition === undefined ? null : Number(query.edition);
}

function teamMatch(pattern: string | null, edition: number | null = null): RawBuilder<boolean> {
  const ofEdition = edition === null ? sql<boolean>`true` : sql<boolean>`t.edition = ${edition}`;
  if (pattern === null) return ofEdition;
  return sql<boolean>`(${ilike(sql.ref('t.team_name'), pattern)} OR ${ilike(sql.ref('c.join_code'), pattern)}) AND ${ofEdition}`;
}

function orderedTeams(rm: ReadModels, match: RawBuilder<boolean>, sort: TeamSort, order: SortOrder) {
  const key = TEAM_KEYS[sort];
  return adminTeamRows(rm).where(match)
    .orderBy(key.expr, direction(order, key.nullable))
    .orderBy('t.team_id', direction(order));
}

async function teamPage(rm: ReadModels, w: PageWindow<TeamSort>, edition: number | null) {
  const match = teamMatch(w.pattern, edition);
  const [rows, count] = await Promise.all([
    orderedTeams(rm, match, w.sort, w.order).limit(w.size).offset(w.offset).execute(),
    rm.selectFrom('team_stats as t').leftJoin('team_join_codes as c', 'c.team_id', 't.team_id')
      .select((eb) => eb.fn.countAll<number>().as('n')).where(match).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toAdminTeam), total: Number(count.n), page: w.page, size: w.size };
}

// ---------------------------------------------------------------------------------------------
// Entries: team_entries (team-directory), about a million rows; names from team_members and team_stats.

/** The entries' own sort keys, over team_entries as e (none NULL, so both directions walk one index). */
const ENTRY_OWN_KEYS: Record<Exclude<EntrySort, 'full_name' | 'team_name'>, RawBuilder<unknown>> = {
  distance: sql`e.distance_hundredths`,
  entry_type: estonian(sql.ref<string>('e.entry_type')),
  performed_at: sql`e.performed_at`,
  created_at: sql`e.created_at`,
};

/** The sorts by a name of another table: the member's (team_members) or the team's (team_stats). */
const ENTRY_NAME_KEYS = {
  full_name: { table: 'rm.team_members', key: 'participant_id', column: 'full_name', joined: 'm.full_name' },
  team_name: { table: 'rm.team_stats', key: 'team_id', column: 'team_name', joined: 't.team_name' },
} as const;

/**
 * The condition on team_entries as e for a search: entries of the members whose name matches or
 * of the teams whose name matches, found first in those small tables; `false` when none match.
 */
async function entryMatch(rm: ReadModels, pattern: string | null, edition: number | null = null): Promise<RawBuilder<boolean>> {
  if (edition !== null) {
    // The entries of the edition's teams (an entry is its team's edition's).
    const ofEdition = sql<boolean>`e.team_id IN (SELECT team_id FROM rm.team_stats WHERE edition = ${edition})`;
    return sql<boolean>`(${await entryMatch(rm, pattern)} AND ${ofEdition})`;
  }
  if (pattern === null) return sql<boolean>`true`;
  const [members, teams] = await Promise.all([
    rm.selectFrom('team_members').select('participant_id').where(ilike(sql.ref('full_name'), pattern)).execute(),
    rm.selectFrom('team_stats').select('team_id').where(ilike(sql.ref('team_name'), pattern)).execute(),
  ]);
  const conditions: RawBuilder<boolean>[] = [];
  if (members.length > 0) conditions.push(sql<boolean>`e.participant_id = ANY(${members.map((m) => m.participant_id)}::int[])`);
  if (teams.length > 0) conditions.push(sql<boolean>`e.team_id = ANY(${teams.map((t) => t.team_id)}::int[])`);
  return conditions.length === 0 ? sql<boolean>`false` : sql<boolean>`(${sql.join(conditions, sql` OR `)})`;
}

/**
 * A run of the entries listing, in the listing's order, readable in either direction: the ids of
 * `limit` rows from `offset` sorted by `order`, and how many rows it has.
 */
interface EntrySegment {
  ids(order: SortOrder, limit: number, offset: number): Promise<number[]>;
  count(): Promise<number>;
}

/** A page this deep or deeper first counts the rows, to read it from the nearer end. */
const REVERSE_FROM = 5000;

const flip = (order: SortOrder): SortOrder => (order === 'asc' ? 'desc' : 'asc');
const keyword = (order: SortOrder) => sql.raw(order === 'desc' ? 'DESC' : 'ASC');

/**
 * The entries matching `match` sorted by `sort`, as runs: one for the entries' own keys; for a
 * sort by a name, the entries of named members (or of teams) in name order — an inner join the
 * planner walks from the name's index (migration 2026-009) — then those without one, by id
 * (NULLs last in either direction).
 */
function entrySegments(db: Kysely<ReadModelDatabase>, sort: EntrySort, match: RawBuilder<boolean>, total: () => Promise<number>): EntrySegment[] {
  const entries = sql.table('rm.team_entries');
  const ids = async (query: RawBuilder<{ entry_id: number }>) => (await query.execute(db)).rows.map((r) => r.entry_id);
  if (sort !== 'full_name' && sort !== 'team_name') {
    const key = ENTRY_OWN_KEYS[sort];
    return [{
      ids: (order, limit, offset) => ids(sql`SELECT e.entry_id FROM ${entries} e WHERE ${match}
        ORDER BY ${key} ${keyword(order)}, e.entry_id ${keyword(order)} LIMIT ${limit} OFFSET ${offset}`),
      count: total,
    }];
  }
  const name = ENTRY_NAME_KEYS[sort];
  const [table, key, column] = [sql.table(name.table), sql.raw(name.key), sql.raw(name.column)];
  const named = sql`FROM ${table} p JOIN ${entries} e ON e.${key} = p.${key} WHERE p.${column} IS NOT NULL AND ${match}`;
  const unnamed = sql`FROM ${entries} e WHERE ${match} AND NOT EXISTS (SELECT 1 FROM ${table} p WHERE p.${key} = e.${key} AND p.${column} IS NOT NULL)`;
  const count = async (from: RawBuilder<unknown>) => Number((await sql<{ n: number }>`SELECT count(*) AS n ${from}`.execute(db)).rows[0]?.n ?? 0);
  return [
    {
      ids: (order, limit, offset) => ids(sql`SELECT e.entry_id ${named}
        ORDER BY ${estonian(sql`p.${column}`)} ${keyword(order)}, e.entry_id ${keyword(order)} LIMIT ${limit} OFFSET ${offset}`),
      count: () => count(named),
    },
    {
      ids: (order, limit, offset) => ids(sql`SELECT e.entry_id ${unnamed} ORDER BY e.entry_id ${keyword(order)} LIMIT ${limit} OFFSET ${offset}`),
      count: () => count(unnamed),
    },
  ];
}

/** `limit` ids from `offset` over the runs in turn; a run's count is read only when the page starts past it. */
async function pageOver(segments: readonly EntrySegment[], order: SortOrder, limit: number, offset: number): Promise<number[]> {
  const ids: number[] = [];
  let skip = offset;
  for (const [index, segment] of segments.entries()) {
    const got = await segment.ids(order, limit - ids.length, skip);
    ids.push(...got);
    if (ids.length === limit || index === segments.length - 1) break;
    if (got.length > 0) skip = 0;
    else if (skip > 0) skip = Math.max(0, skip - await segment.count());
  }
  return ids;
}

/**
 * The ids of one page of entries matching `match`, in the page's order. With `total` known (a deep
 * page), a page in the far half is read from the other end, in the reverse order, and turned
 * round: the last page costs what the first does.
 */
async function entryPageIds(
  db: Kysely<ReadModelDatabase>, w: PageWindow<EntrySort>, match: RawBuilder<boolean>, total: number | null, count: () => Promise<number>,
): Promise<number[]> {
  const segments = entrySegments(db, w.sort, match, count);
  if (total === null || w.offset <= total / 2) return pageOver(segments, w.order, w.size, w.offset);
  if (w.offset >= total) return [];
  const end = Math.min(w.offset + w.size, total);
  return (await pageOver([...segments].reverse(), flip(w.order), end - w.offset, total - end)).reverse();
}

async function entryPage(db: Kysely<ReadModelDatabase>, w: PageWindow<EntrySort>, edition: number | null) {
  const rm = db.withSchema('rm');
  const match = await entryMatch(rm, w.pattern, edition);
  const counting = sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table('rm.team_entries')} e WHERE ${match}`.execute(db)
    .then((result) => Number(result.rows[0]?.n ?? 0));
  // The count runs beside the page's query, or first for a deep page (to read it from the nearer end).
  counting.catch(() => undefined);
  const total = w.offset >= REVERSE_FROM ? await counting : null;
  const [ids, matching] = await Promise.all([entryPageIds(db, w, match, total, () => counting), counting]);
  const rows = ids.length === 0 ? [] : await adminEntryRows(rm).where('e.entry_id', '=', sql<number>`ANY(${ids}::int[])`).execute();
  const byId = new Map(rows.map((row) => [row.entry_id, row]));
  // An entry deleted between the two reads is left out.
  const page = ids.flatMap((id) => { const row = byId.get(id); return row ? [toAdminEntry(row)] : []; });
  return { rows: page, total: matching, page: w.page, size: w.size };
}

function orderedEntries(rm: ReadModels, match: RawBuilder<boolean>, sort: EntrySort, order: SortOrder) {
  const [expr, nullable] = sort === 'full_name' || sort === 'team_name'
    ? [estonian(sql.ref<string | null>(ENTRY_NAME_KEYS[sort].joined)), true] as const
    : [ENTRY_OWN_KEYS[sort], false] as const;
  return adminEntryRows(rm).where(match).orderBy(expr, direction(order, nullable)).orderBy('e.entry_id', direction(order));
}

// ---------------------------------------------------------------------------------------------

export interface AdminPageRouteOptions {
  db: Kysely<ReadModelDatabase>;
}

const refusals = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer };

/** The paged tables and CSV downloads (module comment). */
export const adminPageRoutes: FastifyPluginAsyncTypebox<AdminPageRouteOptions> = async (app, { db }) => {
  const rm = db.withSchema('rm');
  const onRequest = [app.authenticate, requireAdmin];
  const exportOrder = <S extends string>(query: { sort?: S; order?: SortOrder }, defaults: { sort: S; order: SortOrder }) =>
    ({ sort: query.sort ?? defaults.sort, order: query.order ?? defaults.order });

  app.get('/admin/users', { onRequest, config: { reads: ['admin-directory', 'team-directory'] }, preValidation: plainPageNumbers, schema: { querystring: UserPageQuery, response: { 200: UserPageAnswer, ...refusals } } },
    async (request) => userPage(rm, pageWindow<UserSort>(request.query, { ...DEFAULT_SORT.users, size: ADMIN_PAGE_SIZE })));

  app.get('/admin/teams', { onRequest, config: { reads: ['team-stats', 'team-directory'] }, preValidation: plainPageNumbers, schema: { querystring: TeamPageQuery, response: { 200: TeamPageAnswer, ...refusals } } },
    async (request) => teamPage(rm, pageWindow<TeamSort>(request.query, { ...DEFAULT_SORT.teams, size: ADMIN_PAGE_SIZE }), editionOf(request.query)));

  app.get('/admin/entries', { onRequest, config: { reads: ['team-directory', 'team-stats'] }, preValidation: plainPageNumbers, schema: { querystring: EntryPageQuery, response: { 200: EntryPageAnswer, ...refusals } } },
    async (request) => entryPage(db, pageWindow<EntrySort>(request.query, { ...DEFAULT_SORT.entries, size: ADMIN_PAGE_SIZE }), editionOf(request.query)));

  // No response schema on the downloads: the body is a stream; refusals go through the shared error handler.
  app.get('/admin/users.csv', { onRequest, schema: { querystring: UserExportQuery } }, async (request, reply) => {
    const { sort, order } = exportOrder<UserSort>(request.query, DEFAULT_SORT.users);
    const query = orderedUsers(rm, userMatch(searchPattern(request.query.q)), sort, order).compile();
    return sendCsv(db, reply, { filename: 'users.csv', columns: USER_CSV_COLUMNS, query, record: (row) => userRecord(toAdminUser(row)) });
  });

  app.get('/admin/teams.csv', { onRequest, schema: { querystring: TeamExportQuery } }, async (request, reply) => {
    const { sort, order } = exportOrder<TeamSort>(request.query, DEFAULT_SORT.teams);
    const query = orderedTeams(rm, teamMatch(searchPattern(request.query.q), editionOf(request.query)), sort, order).compile();
    return sendCsv(db, reply, { filename: 'teams.csv', columns: TEAM_CSV_COLUMNS, query, record: toAdminTeam });
  });

  app.get('/admin/entries.csv', { onRequest, schema: { querystring: EntryExportQuery } }, async (request, reply) => {
    const { sort, order } = exportOrder<EntrySort>(request.query, DEFAULT_SORT.entries);
    const match = await entryMatch(rm, searchPattern(request.query.q), editionOf(request.query));
    const query = orderedEntries(rm, match, sort, order).compile();
    return sendCsv(db, reply, { filename: 'entries.csv', columns: ENTRY_CSV_COLUMNS, query, record: (row) => entryRecord(toAdminEntry(row)) });
  });
};

/** Served under /api by being in routes/ (route-files.ts). */
export default routeFile(adminPageRoutes, (deps: RouteDependencies) => ({ db: deps.db }));
