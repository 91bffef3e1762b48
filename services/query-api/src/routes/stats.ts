/**
 * GET /api/stats (spec §7): every team's public figures and the totals, plus totalBlueFlowers,
 * of the edition the site answers for (editions.ts: the current one; spec §7 knows no editions),
 * each team's blueFlowers and prestige, and its description (the participants table's expanding
 * rows). dailyDistance is the km performed on the clock's current local day (Europe/Tallinn).
 *
 * raised_cents: the money raised, EUR cents, overall and per team, from the
 * payments projection's tables joined here; raised_unknown_count says how many paid fees it lacks
 * (amount unknown), so that a client shows the figure as "at least".
 *
 * Public and the same for everyone: cached per position of the projections it reads (team-stats
 * and payments, so a payment refreshes it) and per local day (answer-cache.ts),
 * with an ETag and precompressed.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { StatsAnswer } from '@sinilill/contracts';
import { localDate } from '@sinilill/domain';
import { paymentsProjection, teamStatsProjection, type ReadModelDatabase } from '@sinilill/read-models';
import type { AnswerCache } from '../answer-cache';
import type { ReadModelEditions } from '../editions';
import { teamStatRows, toTeamStat } from './public-pages';
import { routeFile } from '@sinilill/http';
import type { RouteDependencies } from '../dependencies';

export interface StatsRouteOptions {
  db: Kysely<ReadModelDatabase>;
  now: () => Date;
  /** The process's cache of public answers. */
  answers: AnswerCache;
  editions: ReadModelEditions;
}

/**
 * The totals of edition `year`'s teams (team-stats) and its money raised (payments: a deleted
 * team's money included), summed over its rows: a few thousand rows at most.
 */
export async function editionTotals(db: Kysely<ReadModelDatabase>, year: number) {
  const rm = db.withSchema('rm');
  const [totals, money] = await Promise.all([
    rm.selectFrom('team_stats').where('edition', '=', year).select((eb) => [
      eb.fn.countAll<string>().as('teams'),
      eb.fn.coalesce(eb.fn.sum<string>('participants'), eb.lit(0)).as('participants'),
      eb.fn.coalesce(eb.fn.sum<string>('distance'), eb.lit(0)).as('distance'),
      eb.fn.coalesce(eb.fn.sum<string>('distance_hundredths'), eb.lit(0)).as('hundredths'),
      eb.fn.coalesce(eb.fn.sum<string>('blue_flowers'), eb.lit(0)).as('flowers'),
    ]).executeTakeFirstOrThrow(),
    rm.selectFrom('fundraising_teams').where('edition', '=', year).select((eb) => [
      eb.fn.coalesce(eb.fn.sum<string>('fees_cents'), eb.lit(0)).as('fees'),
      eb.fn.coalesce(eb.fn.sum<string>('donations_cents'), eb.lit(0)).as('donations'),
      eb.fn.coalesce(eb.fn.sum<string>('unknown_count'), eb.lit(0)).as('unknown'),
    ]).executeTakeFirstOrThrow(),
  ]);
  // Sums of integer and bigint columns: pg answers strings.
  return {
    teams: Number(totals.teams),
    participants: Number(totals.participants),
    distance: Number(totals.distance),
    distanceHundredths: Number(totals.hundredths),
    blueFlowers: Number(totals.flowers),
    raisedCents: Number(money.fees) + Number(money.donations),
    raisedUnknownCount: Number(money.unknown),
  };
}

/** GET /api/stats's answer for edition `year` on local day `today` ('YYYY-MM-DD'), from team-stats' and payments' tables. */
async function statsAnswer(db: Kysely<ReadModelDatabase>, year: number, today: string) {
  const rm = db.withSchema('rm');
  const [teams, totals] = await Promise.all([
    teamStatRows(rm, year, today).orderBy('t.distance', 'desc').orderBy('t.team_id').execute(),
    editionTotals(db, year),
  ]);
  return {
    teams: teams.map(toTeamStat),
    totalParticipants: totals.participants,
    totalDistance: totals.distance,
    totalBlueFlowers: totals.blueFlowers,
    raised_cents: totals.raisedCents,
    raised_unknown_count: totals.raisedUnknownCount,
    today,
  };
}

export const statsRoutes: FastifyPluginAsyncTypebox<StatsRouteOptions> = async (app, { db, now, answers, editions }) => {
  app.get('/stats', {
    config: { reads: [teamStatsProjection.name, paymentsProjection.name] },
    // Compressed by the cache, once per position.
    compress: false,
    schema: { response: { 200: StatsAnswer } },
  }, async (request, reply) => {
    const at = now();
    const edition = await editions.answering(at);
    const year = edition?.edition.year ?? -1;
    // The edition's own zone says which day's km are "today's" (Europe/Tallinn so far).
    const today = localDate(at.toISOString(), edition?.edition.timeZone ?? 'Europe/Tallinn');
    return answers.serve(request, reply, `stats:${year}:${today}`, () => statsAnswer(db, year, today));
  });
};

/** Served under /api by being in routes/ (route-files.ts). */
export default routeFile(statsRoutes, (deps: RouteDependencies) => ({ db: deps.db, now: deps.now, answers: deps.answers, editions: deps.editions }));
