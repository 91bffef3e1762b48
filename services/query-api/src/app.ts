/**
 * The query API (Fastify): reads the read models, never the event store, except for the
 * administrators' history, which reads the log itself (an audit, D16). Every route lives
 * under /api; a request carrying `x-min-position` first waits for the projections (bounded).
 * Bearer tokens are verified here too (authPlugin, same secret as the command API); the actor's
 * team comes from the read models (team-access.ts). The team page's live stream listens through
 * a change feed the caller owns (live.ts): one per process, started and closed by the caller.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import Type from 'typebox';
import { CompiledQuery, type Kysely } from 'kysely';
import type { BankTransferConfig } from '@sinilill/config';
import { MIN_POSITION_HEADER, PROJECTED_POSITION_HEADER } from '@sinilill/contracts';
import { authPlugin, createApp, healthRoutes } from '@sinilill/http';
import type { EventStore } from '@sinilill/event-store';
import type { MediaStore } from '@sinilill/media';
import { projectedPosition, waitForPosition, type ReadModelDatabase } from '@sinilill/read-models';
import type { TeamChangeFeed } from './live';
import { statsRoutes } from './routes/stats';
import { settingsRoutes } from './routes/settings';
import { teamRoutes } from './routes/team';
import { imageRoutes } from './routes/images';
import { newsRoutes, type NewsOptions } from './routes/news';
import { historyRoutes } from './routes/history';
import { adminRoutes } from './routes/admin';
import { paymentRoutes } from './routes/payments';
import { HistoryReader } from './history-query';
import { resolveActorFromReadModels } from './team-access';

export interface QueryApiDependencies {
  db: Kysely<ReadModelDatabase>;
  now: () => Date;
  readYourWritesTimeoutMs: number;
  /** HS256 secret of the session tokens (the command API's; config.jwtSecret). */
  jwtSecret: string;
  /** Lifetime the auth plugin signs access tokens with, seconds (tests); default 15 minutes. */
  accessTokenSeconds?: number;
  /**
   * Committed read-model changes per team, for GET /team/{id}/live: a started
   * ReadModelChangeListener (live.ts); the caller closes it after the app.
   */
  changes: TeamChangeFeed;
  /** Interval of the live stream's keep-alive comment, ms; default 15 000. */
  liveKeepAliveMs?: number;
  /** Stored images (team icons) for GET /api/images/{name}, public; without it that route is not served. */
  media?: MediaStore;
  /** Where POST /api/strapi/story reads stories: Strapi when strapiUrl is set; default infra/content/news. */
  news?: NewsOptions;
  /**
   * The event store with personal-data protection (withPersonalDataProtection), over the same
   * database as `db`, for the administrators' history (GET /admin/history…, D16); without it
   * those routes are not served.
   */
  history?: EventStore;
  /**
   * The manual bank transfer's details (GET /api/payment/banktransfer; issue 14 item 3): the
   * configuration's bankTransferConfig(); default DEVELOPMENT_BANK_TRANSFER (made-up, flagged as
   * an example).
   */
  bankTransfer?: BankTransferConfig;
  logger?: FastifyServerOptions['logger'];
}

const POSITION = /^(0|[1-9][0-9]{0,15})$/;

/**
 * Builds the query API (not listening yet): the routes under /api, and GET /health/live and
 * GET /health/ready (healthRoutes: 503 once the app starts to close, when the live streams end).
 */
export function buildQueryApi(deps: QueryApiDependencies): FastifyInstance {
  const app = createApp({ logger: deps.logger ?? false });
  app.register(healthRoutes);
  app.register(authPlugin, {
    secret: deps.jwtSecret,
    resolveActor: (actor) => resolveActorFromReadModels(deps.db, actor),
    // Sessions and accounts are read from the same database (issue 13: app.account_sessions,
    // app.session_families, the account's stream), so a session the command API ends is refused
    // here on the next request.
    sessions: { sql: (text, values) => deps.db.executeQuery(CompiledQuery.raw(text, [...values])) },
    ...(deps.accessTokenSeconds !== undefined ? { accessTokenSeconds: deps.accessTokenSeconds } : {}),
  });
  // onRequest, before the routes' authentication: the wait then covers the actor's team too (a
  // member who just joined and sends the position back is found in team_members).
  app.addHook('onRequest', async (request, reply) => {
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
    await api.register(teamRoutes, { db: deps.db, changes: deps.changes, keepAliveMs: deps.liveKeepAliveMs });
    await api.register(settingsRoutes, { db: deps.db, now: deps.now });
    if (deps.media) await api.register(imageRoutes, { media: deps.media });
    await api.register(newsRoutes, deps.news ?? {});
    await api.register(adminRoutes, { db: deps.db });
    await api.register(paymentRoutes, { db: deps.db, ...(deps.bankTransfer ? { bankTransfer: deps.bankTransfer } : {}) });
    if (deps.history) {
      await api.register(historyRoutes, { reader: new HistoryReader(deps.db, deps.history), store: deps.history, now: deps.now });
    }
    api.get('/health', { schema: { response: { 200: Type.Object({ status: Type.String(), position: Type.Integer() }) } } },
      async () => ({ status: 'ok', position: await projectedPosition(deps.db) }));
  }, { prefix: '/api' });
  return app;
}
