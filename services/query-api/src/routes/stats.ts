/**
 * GET /api/stats (spec §7): every team's public figures and the totals, plus totalBlueFlowers,
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
import { currentEdition, localDate } from '@sinilill/domain';
import { paymentsProjection, teamStatsProjection, type ReadModelDatabase } from '@sinilill/read-models';
import type { AnswerCache } from '../answer-cache';
import { teamStatRows, toTeamStat } from './public-pages';

export interface StatsRouteOptions {
  db: Kysely<ReadModelDatabase>;
  now: () => Date;
  /** The process's cache of public answers. */
  answers: AnswerCache;
}

/**
 * The clock's local day in the edition's time zone ('YYYY-MM-DD'), worked out once a minute (a
 * time zone's days begin on whole minutes): the key of every request, kept off its hot path.
 */
function localDayOf(now: () => Date): () => string {
  let minute = NaN;
  let day = '';
  return () => {
    const at = now();
    const current = Math.floor(at.getTime() / 60_000);
    if (current !== minute) {
      day = localDate(at.toISOString(), currentEdition.timeZone);
      minute = current;
    }
    return day;
  };
}

/** GET /api/stats's answer for local day `today` ('YYYY-MM-DD'), from team-stats' and payments' tables. */
async function statsAnswer(db: Kysely<ReadModelDatabase>, today: string) {
  const rm = db.withSchema('rm');
  const [teams, totals, money] = await Promise.all([
    teamStatRows(rm, today).orderBy('t.distance', 'desc').orderBy('t.team_id').execute(),
    rm.selectFrom('stats_totals').selectAll().where('id', '=', 1).executeTakeFirst(),
    rm.selectFrom('fundraising_totals').select(['fees_cents', 'donations_cents', 'unknown_count']).where('id', '=', 1).executeTakeFirst(),
  ]);
  return {
    teams: teams.map(toTeamStat),
    totalParticipants: totals?.participants ?? 0,
    totalDistance: totals?.distance ?? 0,
    totalBlueFlowers: totals?.blue_flowers ?? 0,
    // bigint columns: pg answers strings.
    raised_cents: Number(money?.fees_cents ?? 0) + Number(money?.donations_cents ?? 0),
    raised_unknown_count: money?.unknown_count ?? 0,
    today,
  };
}

export const statsRoutes: FastifyPluginAsyncTypebox<StatsRouteOptions> = async (app, { db, now, answers }) => {
  const localDay = localDayOf(now);
  app.get('/stats', {
    config: { reads: [teamStatsProjection.name, paymentsProjection.name] },
    // Compressed by the cache, once per position.
    compress: false,
    schema: { response: { 200: StatsAnswer } },
  }, async (request, reply) => {
    const today = localDay();
    return answers.serve(request, reply, `stats:${today}`, () => statsAnswer(db, today));
  });
};
