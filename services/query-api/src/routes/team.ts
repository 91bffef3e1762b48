/** GET /api/team/{id} (spec §7): one team's card data and progress; 404 NOT_FOUND when unknown. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import Type from 'typebox';
import { ErrorAnswer, TeamAnswer } from '@sinilill/contracts';
import { DomainError } from '@sinilill/domain';
import { ID_PATTERN } from '@sinilill/http';
import type { ReadModelDatabase } from '@sinilill/read-models';

export const teamRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<ReadModelDatabase> }> = async (app, { db }) => {
  app.get('/team/:id', {
    schema: {
      params: Type.Object({ id: Type.String({ pattern: ID_PATTERN }) }),
      response: { 200: TeamAnswer, 404: ErrorAnswer },
    },
  }, async (request) => {
    const row = await db.withSchema('rm').selectFrom('team_stats').selectAll()
      .where('team_id', '=', Number(request.params.id)).executeTakeFirst();
    if (!row) throw new DomainError('NOT_FOUND', `team ${request.params.id}`);
    return {
      id: row.team_id,
      team_name: row.team_name,
      icon: row.icon,
      description: row.description,
      participant_count: row.participants,
      distance: row.distance,
      created_at: row.created_at.toISOString(),
      prestige: row.prestige,
      inLapDistance: row.in_lap_distance,
      blueFlowers: row.blue_flowers,
    };
  });
};
