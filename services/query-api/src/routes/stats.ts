/**
 * GET /api/stats (spec §7): every team's public figures and the totals, plus totalBlueFlowers,
 * each team's blueFlowers and prestige, and its description (the participants table's expanding
 * rows). dailyDistance is the km performed on the clock's current local day (Europe/Tallinn).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql, type Kysely } from 'kysely';
import { StatsAnswer } from '@sinilill/contracts';
import { currentEdition, fromHundredths, localDate } from '@sinilill/domain';
import type { ReadModelDatabase } from '@sinilill/read-models';

export interface StatsRouteOptions {
  db: Kysely<ReadModelDatabase>;
  now: () => Date;
}

export const statsRoutes: FastifyPluginAsyncTypebox<StatsRouteOptions> = async (app, { db, now }) => {
  app.get('/stats', { schema: { response: { 200: StatsAnswer } } }, async () => {
    const today = localDate(now().toISOString(), currentEdition.timeZone);
    const rm = db.withSchema('rm');
    const [teams, totals] = await Promise.all([
      rm.selectFrom('team_stats as t')
        .leftJoin('team_daily_distance as d', (join) => join.onRef('d.team_id', '=', 't.team_id').on('d.day', '=', sql<string>`${today}::date`))
        .select(['t.team_id', 't.team_name', 't.icon', 't.description', 't.distance', 't.participants', 't.prestige',
          't.in_lap_distance', 't.blue_flowers', 'd.distance_hundredths as daily'])
        .orderBy('t.distance', 'desc').orderBy('t.team_id')
        .execute(),
      rm.selectFrom('stats_totals').selectAll().where('id', '=', 1).executeTakeFirst(),
    ]);
    return {
      teams: teams.map((t) => ({
        team: { id: t.team_id, team_name: t.team_name, icon: t.icon, description: t.description },
        distance: t.distance,
        participants: t.participants,
        dailyDistance: fromHundredths(t.daily ?? 0),
        prestige: t.prestige,
        inLapDistance: t.in_lap_distance,
        blueFlowers: t.blue_flowers,
      })),
      totalParticipants: totals?.participants ?? 0,
      totalDistance: totals?.distance ?? 0,
      totalBlueFlowers: totals?.blue_flowers ?? 0,
      today,
    };
  });
};
