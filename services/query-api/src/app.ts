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
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { CompiledQuery } from 'kysely';
import { MIN_POSITION_HEADER, PROJECTED_POSITION_HEADER } from '@sinilill/contracts';
import { authPlugin, createApp, createMetricsRegistry, healthRoutes, metricsPlugin, registerRouteFiles } from '@sinilill/http';
import { apiDocs, apiSecurityHeaders, errorBody, pressurePlugin, RateLimitCounters, rateLimitPlugin } from '@sinilill/http';
import { postgresStreamReader } from '@sinilill/event-store';
import { projectedPosition, projections, readCheckpoints } from '@sinilill/read-models';
import { AnswerCache } from './answer-cache';
import { ReadModelEditions } from './editions';
import type { QueryApiDependencies, RouteDependencies } from './dependencies';
import { isProjectionPositions, waitForProjections } from './live';
import { importRouteFiles } from './route-files';
import { queryRateLimitsWith } from './rate-limits';
import { accountParticipantsFromLog, resolveActorFromReadModels } from './team-access';

export type { QueryApiDependencies, RouteDependencies } from './dependencies';

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
  const editions = new ReadModelEditions(deps.db, positions);
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
    sessions: deps.sessions ?? {
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
      void reply.status(400).send(errorBody('INVALID_REQUEST'));
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
  // The public routes' rate limits (rate-limits.ts), counted in Redis across processes; each
  // limited route names its rule in its config (perAddress of @sinilill/http).
  const counters = new RateLimitCounters({
    redis: deps.redis ?? null,
    prefix: deps.rateLimitPrefix ?? 'sinilill:rate-limit:',
    onRedisState: (state, error) => (state === 'unavailable'
      ? app.log.warn({ err: error }, 'rate limits: Redis does not answer; each process counts alone until it does')
      : app.log.info('rate limits: Redis answers again; counting there')),
  });
  app.register(rateLimitPlugin, { counters });
  const limits = queryRateLimitsWith(deps.rateLimits, deps.rateLimit);
  // Every route file of routes/ is registered by being there (route-files.ts), in file-name order;
  // each decides from the dependencies whether it is served.
  app.register(async (api) => {
    await registerRouteFiles(api, await importRouteFiles(), { ...deps, answers, editions, limits, counters, ...(history ? { accountParticipants: accountParticipantsFromLog(history) } : {}) } satisfies RouteDependencies);
    api.get('/health', { schema: { response: { 200: Type.Object({ status: Type.String(), position: Type.Integer() }) } } },
      async () => ({ status: 'ok', position: await projectedPosition(deps.db) }));
  }, { prefix: '/api' });
  return app;
}
