/**
 * The query API (Fastify): reads the read models, never the event store, except for the
 * administrators' history, which reads the log itself (an audit, docs/decisions/0016). Every route lives
 * under /api; a request carrying `x-min-position` first waits (bounded) for the projections its
 * route reads (route config `reads`), woken by the process's change listener.
 * The public answers (GET /api/stats, GET /api/settings) are cached per position with an ETag and
 * precompressed (answer-cache.ts); every other answer is compressed per request
 * by @fastify/compress (br or gzip by Accept-Encoding, from 1 KB).
 * Bearer tokens are verified here too (authPlugin, same secret as the command API); the actor's
 * team comes from the read models (team-access.ts). The team page's live stream listens through
 * a change feed the caller owns (live.ts): one per process, started and closed by the caller.
 */
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import Type from 'typebox';
import { CompiledQuery, type Kysely } from 'kysely';
import type { BankTransferConfig } from '@sinilill/config';
import { MIN_POSITION_HEADER, PROJECTED_POSITION_HEADER } from '@sinilill/contracts';
import { authPlugin, createApp, createMetricsRegistry, healthRoutes, metricsPlugin, type ReadinessCheck, type Registry } from '@sinilill/http';
import { apiDocs, apiSecurityHeaders, pressurePlugin } from '@sinilill/http';
import { postgresStreamReader, type EventStore } from '@sinilill/event-store';
import type { MediaStore } from '@sinilill/media';
import { projectedPosition, projections, readCheckpoints, type ReadModelDatabase } from '@sinilill/read-models';
import { AnswerCache, type AnswerCacheOptions } from './answer-cache';
import { isProjectionPositions, waitForProjections, type ProjectionPositions, type TeamChangeFeed } from './live';
import { statsRoutes } from './routes/stats';
import { publicPageRoutes } from './routes/public-pages';
import { settingsRoutes } from './routes/settings';
import { teamRoutes } from './routes/team';
import { imageRoutes } from './routes/images';
import { newsRoutes, type NewsOptions } from './routes/news';
import { historyRoutes } from './routes/history';
import { contributionRoutes } from './routes/contributions';
import { adminRoutes } from './routes/admin';
import { reviewRoutes } from './routes/review';
import { paymentRoutes } from './routes/payments';
import { certificateRoutes } from './routes/certificates';
import { HistoryReader } from './history-query';
import { myDataRoutes } from './routes/my-data';
import { drawRoutes } from './routes/draw';
import { resolveActorFromReadModels } from './team-access';

export interface QueryApiDependencies {
  db: Kysely<ReadModelDatabase>;
  now: () => Date;
  readYourWritesTimeoutMs: number;
  /**
   * While a query waits for `x-min-position` on notifications, how often it re-reads the
   * checkpoints anyway (the safety net for a notification lost while the listener reconnects),
   * ms; default 250.
   */
  readYourWritesRecheckMs?: number;
  /** HS256 secret of the session tokens (the command API's; config.jwtSecret). */
  jwtSecret: string;
  /** Lifetime the auth plugin signs access tokens with, seconds (tests); default 15 minutes. */
  accessTokenSeconds?: number;
  /**
   * Committed read-model changes per team, for GET /team/{id}/live: a started
   * ReadModelChangeListener (live.ts); the caller closes it after the app.
   */
  changes: TeamChangeFeed;
  /**
   * The projections' positions as the process's change listener hears them:
   * what wakes a query waiting for `x-min-position` and what a cached public answer is valid
   * for. Default: `changes` when it keeps them (a ReadModelChangeListener). Without them a
   * waiting query polls the checkpoints every 15 ms and public answers are not cached.
   */
  positions?: ProjectionPositions;
  /** Bounds of the public answers' cache (answer-cache.ts); default 16 MiB, 1000 entries. */
  answerCache?: Omit<AnswerCacheOptions, 'positions'>;
  /** Interval of the live stream's keep-alive comment, ms; default 15 000. */
  liveKeepAliveMs?: number;
  /** Stored images (team icons) for GET /api/images/{name}, public; without it that route is not served. */
  media?: MediaStore;
  /** Where POST /api/strapi/story reads stories: Strapi when strapiUrl is set; default infra/content/news. */
  news?: NewsOptions;
  /**
   * The event store with personal-data protection (withPersonalDataProtection), on either engine,
   * for the routes that read the log: the administrators' history (GET /admin/history…, docs/decisions/0016),
   * "what this did", my data and the draw; without it those routes are not served.
   */
  history?: EventStore;
  /**
   * The manual bank transfer's details (GET /api/payment/banktransfer): the
   * configuration's bankTransferConfig(); default DEVELOPMENT_BANK_TRANSFER (made-up, flagged as
   * an example).
   */
  bankTransfer?: BankTransferConfig;
  /**
   * The site's address (config.publicUrl, PUBLIC_URL): the start of the certificates' QR codes and
   * of the share page's og:image. Default: each request's own origin.
   */
  publicUrl?: string;
  logger?: FastifyServerOptions['logger'];
  /**
   * The proxies whose X-Forwarded-For is believed (Fastify's trustProxy; config TRUST_PROXY): the
   * gateway's address, so that `request.ip` is the client's (docs/decisions/0024). Default: createApp's
   * TRUSTED_PROXIES (loopback).
   */
  trustProxy?: FastifyServerOptions['trustProxy'];
  /**
   * The process's metrics registry, served at GET /metrics with the request
   * durations. Default: a registry of this app's own without the process metrics (tests).
   */
  metrics?: Registry;
  /** Conditions of GET /health/ready besides not closing (server.ts: PostgreSQL and migrations). */
  readinessChecks?: readonly ReadinessCheck[];
}

const POSITION = /^(0|[1-9][0-9]{0,15})$/;

/** Every projection's name: what a route that declares no `reads` waits for. */
const EVERY_PROJECTION_NAME: readonly string[] = projections.map((p) => p.name);

/**
 * What the routes of other modules read, where it is not every projection (their files declare no
 * `reads`): the images (media.images), the news (Strapi or files), the health checks and the
 * metrics read no read model, so `x-min-position` never holds them up.
 */
const READS_NOTHING_PROJECTED: ReadonlySet<string> = new Set(['/api/images/:name', '/api/strapi/story', '/health/live', '/health/ready', '/metrics']);

/**
 * Builds the query API (not listening yet): the routes under /api, and GET /health/live and
 * GET /health/ready (healthRoutes: 503 once the app starts to close, when the live streams end,
 * or while one of `readinessChecks` fails), and GET /metrics (metricsPlugin, `deps.metrics`).
 */
export function buildQueryApi(deps: QueryApiDependencies): FastifyInstance {
  const app = createApp({ logger: deps.logger ?? false, ...(deps.trustProxy !== undefined ? { trustProxy: deps.trustProxy } : {}) });
  // Security headers, load shedding (503 SERVICE_UNAVAILABLE), the OpenAPI document at
  // /api/docs/query.json and the documentation's UI at /api/docs (both APIs' documents); the
  // documentation first sees every route registered after it.
  app.register(apiSecurityHeaders);
  app.register(pressurePlugin);
  app.register(apiDocs, { api: 'query', ui: true });
  const positions = deps.positions ?? (isProjectionPositions(deps.changes) ? deps.changes : undefined);
  const answers = new AnswerCache({ ...deps.answerCache, ...(positions ? { positions } : {}) });
  // Every route's `reads`: its own declaration, checked against the projections
  // (a misspelt name would wait for ever, until the bound), else the default above.
  app.addHook('onRoute', (route) => {
    const declared = route.config?.reads;
    const unknown = declared?.filter((name) => !EVERY_PROJECTION_NAME.includes(name)) ?? [];
    if (unknown.length > 0) throw new Error(`route ${route.url} reads unknown projections: ${unknown.join(', ')}`);
    const reads = declared ?? (READS_NOTHING_PROJECTED.has(route.url) ? [] : EVERY_PROJECTION_NAME);
    route.config = { ...route.config, reads };
  });
  app.register(healthRoutes, { checks: deps.readinessChecks ?? [] });
  app.register(metricsPlugin, { registry: deps.metrics ?? createMetricsRegistry('query-api', { defaultMetrics: false }) });
  const runSql = (text: string, values: readonly unknown[]) => deps.db.executeQuery(CompiledQuery.raw(text, [...values]));
  const history = deps.history;
  app.register(authPlugin, {
    secret: deps.jwtSecret,
    resolveActor: (actor) => resolveActorFromReadModels(deps.db, actor),
    // Sessions are read from the same database (app.account_sessions, app.session_families) and
    // accounts from the log (the account's stream), so a session the command API ends is refused
    // here on the next request. Without `history` (tests that wire no log) the PostgreSQL log is
    // read in the same database.
    sessions: {
      sql: runSql,
      readStream: history ? (stream) => history.readStream(stream) : postgresStreamReader(runSql),
    },
    ...(deps.accessTokenSeconds !== undefined ? { accessTokenSeconds: deps.accessTokenSeconds } : {}),
  });
  // onRequest, before the routes' authentication: the wait then covers the actor's team too (a
  // member who just joined and sends the position back is found in team_members; the routes
  // behind a login list team-directory in their `reads`). Only the route's projections are
  // waited for; x-projected-position is the lowest of their checkpoints (the position asked for
  // when the route reads none).
  // Callback style: the request without the header, nearly all of them, costs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.headers[MIN_POSITION_HEADER];
    if (raw === undefined) {
      done();
      return;
    }
    if (typeof raw !== 'string' || !POSITION.test(raw)) {
      void reply.status(400).send({ message: 'INVALID_REQUEST' });
      return;
    }
    waitForProjections({
      projections: request.routeOptions.config.reads ?? EVERY_PROJECTION_NAME,
      position: Number(raw),
      timeoutMs: deps.readYourWritesTimeoutMs,
      read: () => readCheckpoints(deps.db),
      ...(deps.readYourWritesRecheckMs !== undefined ? { recheckMs: deps.readYourWritesRecheckMs } : {}),
      ...(positions ? { positions } : {}),
    }).then((result) => {
      reply.header(PROJECTED_POSITION_HEADER, String(result.position));
      if (!result.reached) reply.header('x-read-your-writes', 'timeout');
      done();
    }, done);
  });
  // Answers compressed per request (br or gzip, from 1 KB). The cached public answers come
  // compressed already (their routes say `compress: false`); the live stream is not compressed.
  // Request bodies are not decompressed (globalDecompression: the APIs take none compressed).
  app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024, globalDecompression: false });
  app.register(async (api) => {
    await api.register(statsRoutes, { db: deps.db, now: deps.now, answers });
    await api.register(publicPageRoutes, { db: deps.db, now: deps.now, answers });
    await api.register(teamRoutes, { db: deps.db, changes: deps.changes, keepAliveMs: deps.liveKeepAliveMs });
    await api.register(settingsRoutes, { db: deps.db, now: deps.now, answers });
    if (deps.media) await api.register(imageRoutes, { media: deps.media });
    await api.register(newsRoutes, { ...deps.news, now: deps.now });
    await api.register(adminRoutes, { db: deps.db });
    await api.register(reviewRoutes, { db: deps.db });
    await api.register(paymentRoutes, { db: deps.db, ...(deps.bankTransfer ? { bankTransfer: deps.bankTransfer } : {}) });
    await api.register(certificateRoutes, { db: deps.db, now: deps.now, secret: deps.jwtSecret, ...(deps.publicUrl ? { publicUrl: deps.publicUrl } : {}) });
    if (deps.history) {
      await api.register(historyRoutes, { reader: new HistoryReader(deps.history), store: deps.history, now: deps.now });
      await api.register(contributionRoutes, { db: deps.db, log: deps.history }); // "what this did" reads the log too
    }
    if (deps.history) await api.register(myDataRoutes, { db: deps.db, store: deps.history, now: deps.now });
    if (deps.history) await api.register(drawRoutes, { db: deps.db, store: deps.history });
    api.get('/health', { schema: { response: { 200: Type.Object({ status: Type.String(), position: Type.Integer() }) } } },
      async () => ({ status: 'ok', position: await projectedPosition(deps.db) }));
  }, { prefix: '/api' });
  return app;
}
