/**
 * GET /stats/teams?page&size&sort&order&q (contract @sinilill/contracts pages.ts
 * PublicTeamPageQuery): the public participants table paged, sorted and searched on the server
 * (spec §2 "/participants": search on team name; sortable team name, distance, teammates, blue
 * flowers; 10 rows per page, default distance descending), the teams of the edition the site
 * answers for (editions.ts: the current one). Public, no authentication.
 *
 * Each row is a TeamStat exactly as GET /stats has it, dailyDistance the km performed on the
 * clock's current local day (Europe/Tallinn, the edition's time zone), as stats.ts computes it.
 * Sorting: see table-pages.ts (ties by team id in the same direction; names in Estonian order).
 * team_stats has one row per team (thousands at most): every query is a small one.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql, type Kysely, type QueryCreator, type RawBuilder } from 'kysely';
import {
  DEFAULT_SORT,
  ErrorAnswer,
  PUBLIC_PAGE_SIZE,
  PublicTeamPageAnswer,
  PublicTeamPageQuery,
  type PUBLIC_TEAM_SORTS,
  type TeamStat,
} from '@sinilill/contracts';
import { fromHundredths, localDate } from '@sinilill/domain';
import { paymentsProjection, teamStatsProjection, type ReadModelDatabase } from '@sinilill/read-models';
import type { AnswerCache } from '../answer-cache';
import type { ReadModelEditions } from '../editions';
import { direction, estonian, ilike, pageWindow, plainPageNumbers, type PageWindow } from '../table-pages';
import { routeFile } from '@sinilill/http';
import type { RouteDependencies } from '../dependencies';

type PublicTeamSort = (typeof PUBLIC_TEAM_SORTS)[number];

/**
 * Every team of edition `year` with its public figures, its km of local day `today` ('YYYY-MM-DD') and the money it
 * raised (EUR cents, fees + donations from the payments projection's fundraising_teams:
 * joined here, each projection keeping its own tables), aliases t, d and f; unordered.
 * The same columns as GET /stats reads (stats.ts). Routes using it read team-stats and payments.
 */
export function teamStatRows(rm: QueryCreator<ReadModelDatabase>, year: number, today: string) {
  return rm.selectFrom('team_stats as t')
    .where('t.edition', '=', year)
    .leftJoin('team_daily_distance as d', (join) => join.onRef('d.team_id', '=', 't.team_id').on('d.day', '=', sql<string>`${today}::date`))
    .leftJoin('fundraising_teams as f', 'f.team_id', 't.team_id')
    .select(['t.team_id', 't.team_name', 't.icon', 't.description', 't.distance', 't.participants', 't.prestige',
      't.in_lap_distance', 't.blue_flowers', 'd.distance_hundredths as daily'])
    .select(sql<string | number | null>`f.fees_cents + f.donations_cents`.as('raised'))
    .select('f.unknown_count as raised_unknown');
}
type TeamStatRow = Awaited<ReturnType<ReturnType<typeof teamStatRows>['executeTakeFirstOrThrow']>>;

/** A TeamStat (contracts stats.ts) from its row; dailyDistance in km with two decimals, 0 without entries that day. */
export function toTeamStat(t: TeamStatRow): TeamStat {
  return {
    team: { id: t.team_id, team_name: t.team_name, icon: t.icon, description: t.description },
    distance: t.distance,
    participants: t.participants,
    dailyDistance: fromHundredths(t.daily ?? 0),
    prestige: t.prestige,
    inLapDistance: t.in_lap_distance,
    blueFlowers: t.blue_flowers,
    // bigint: pg answers a string.
    raised_cents: Number(t.raised ?? 0),
    raised_unknown_count: t.raised_unknown ?? 0,
  };
}

const PUBLIC_TEAM_KEYS: Record<PublicTeamSort, RawBuilder<unknown>> = {
  team_name: estonian(sql.ref<string>('t.team_name')),
  distance: sql`t.distance`,
  participants: sql`t.participants`,
  blueFlowers: sql`t.blue_flowers`,
};

async function publicTeamPage(db: Kysely<ReadModelDatabase>, w: PageWindow<PublicTeamSort>, year: number, today: string) {
  const rm = db.withSchema('rm');
  const match = w.pattern === null ? sql<boolean>`true` : ilike(sql.ref('t.team_name'), w.pattern);
  const [rows, count] = await Promise.all([
    teamStatRows(rm, year, today).where(match)
      .orderBy(PUBLIC_TEAM_KEYS[w.sort], direction(w.order))
      .orderBy('t.team_id', direction(w.order))
      .limit(w.size).offset(w.offset).execute(),
    rm.selectFrom('team_stats as t').select((eb) => eb.fn.countAll<number>().as('n')).where('t.edition', '=', year).where(match).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toTeamStat), total: Number(count.n), page: w.page, size: w.size };
}

export interface PublicPageRouteOptions {
  db: Kysely<ReadModelDatabase>;
  /** The clock (simulated in tests): its local day is the one dailyDistance counts. */
  now: () => Date;
  /** The process's cache of public answers (answer-cache.ts): pages are cached like GET /api/stats. */
  answers: AnswerCache;
  /** The editions: the table shows the teams of the edition the site answers for. */
  editions: ReadModelEditions;
}

/** GET /stats/teams (module comment); registered next to statsRoutes (app.ts). */
export const publicPageRoutes: FastifyPluginAsyncTypebox<PublicPageRouteOptions> = async (app, { db, now, answers, editions }) => {
  app.get('/stats/teams', {
    // Reads team-stats and payments (the money raised); public and the same for everyone: cached per position, local day and
    // query, compressed by the cache.
    config: { reads: [teamStatsProjection.name, paymentsProjection.name] },
    compress: false,
    preValidation: plainPageNumbers,
    schema: { querystring: PublicTeamPageQuery, response: { 200: PublicTeamPageAnswer, 400: ErrorAnswer } },
  }, async (request, reply) => {
    const at = now();
    const edition = await editions.answering(at);
    const year = edition?.edition.year ?? -1;
    const today = localDate(at.toISOString(), edition?.edition.timeZone ?? 'Europe/Tallinn');
    const window = pageWindow<PublicTeamSort>(request.query, { ...DEFAULT_SORT.publicTeams, size: PUBLIC_PAGE_SIZE });
    const key = `stats-teams:${year}:${today}:${window.sort}:${window.order}:${window.size}:${window.page}:${window.pattern ?? ''}`;
    return answers.serve(request, reply, key, () => publicTeamPage(db, window, year, today));
  });
};

/** Served under /api by being in routes/ (route-files.ts). */
export default routeFile(publicPageRoutes, (deps: RouteDependencies) => ({ db: deps.db, now: deps.now, answers: deps.answers, editions: deps.editions }));
