/**
 * The query API (Fastify): reads the read models, never the event store. Every route lives
 * under /api; a request carrying `x-min-position` first waits for the projections (bounded).
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import Type from 'typebox';
import type { Kysely } from 'kysely';
import { MIN_POSITION_HEADER, PROJECTED_POSITION_HEADER } from '@sinilill/contracts';
import { createApp } from '@sinilill/http';
import type { ReadModelDatabase } from '@sinilill/read-models';
import { projectedPosition, waitForPosition } from './read-your-writes';
import { statsRoutes } from './routes/stats';
import { settingsRoutes } from './routes/settings';
import { teamRoutes } from './routes/team';

export interface QueryApiDependencies {
  db: Kysely<ReadModelDatabase>;
  now: () => Date;
  readYourWritesTimeoutMs: number;
  logger?: FastifyServerOptions['logger'];
}

const POSITION = /^(0|[1-9][0-9]{0,15})$/;

/** Builds the query API (not listening yet). */
export function buildQueryApi(deps: QueryApiDependencies): FastifyInstance {
  const app = createApp({ logger: deps.logger ?? false });
  app.addHook('preHandler', async (request, reply) => {
    const raw = request.headers[MIN_POSITION_HEADER];
    if (raw === undefined) return;
    if (typeof raw !== 'string' || !POSITION.test(raw)) {
      return reply.status(400).send({ message: 'INVALID_REQUEST' });
    }
    const result = await waitForPosition(deps.db, Number(raw), deps.readYourWritesTimeoutMs);
    reply.header(PROJECTED_POSITION_HEADER, String(result.position));
    if (!result.reached) reply.header('x-read-your-writes', 'timeout');
  });
  app.register(async (api) => {
    await api.register(statsRoutes, { db: deps.db, now: deps.now });
    await api.register(teamRoutes, { db: deps.db });
    await api.register(settingsRoutes, { db: deps.db, now: deps.now });
    api.get('/health', { schema: { response: { 200: Type.Object({ status: Type.String(), position: Type.Integer() }) } } },
      async () => ({ status: 'ok', position: await projectedPosition(deps.db) }));
  }, { prefix: '/api' });
  return app;
}
