/**
 * The command API (Fastify): validates (TypeBox, strict), authenticates (JWT) and hands commands
 * to the CommandService and the AccountService (which decide and append). Routes only translate
 * HTTP: waking the projectors is an after-commit hook of the event store the services
 * were built on (withAfterCommit of @sinilill/commands; see server.ts), not the routes' job.
 */
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import { fingerprintKey } from '@sinilill/commands';
import { authPlugin, createApp, createMetricsRegistry, healthRoutes, metricsPlugin, registerRouteFiles, type AuthOptions } from '@sinilill/http';
import { apiDocs, apiSecurityHeaders, pressurePlugin, rateLimitPlugin } from '@sinilill/http';
import type { CommandApiDependencies, RouteDependencies } from './dependencies';
import { RateLimitCounters, rateLimitsWith } from './rate-limits';
import { importRouteFiles } from './route-files';

export type { CommandApiDependencies, RouteDependencies } from './dependencies';

/** Without accounts or sessions there is no session to check: every token is refused. */
const NO_SESSIONS: AuthOptions['sessions'] = {
  session: async () => null,
  account: async () => ({ exists: false, deleted: false, role: 'USER', approved: false }),
};

export { DEFAULT_RATE_LIMITS } from './rate-limits';

/** Query parameters that carry signed tokens (the provider's return, the sandbox's checkout). */
const TOKEN_QUERY = /([?&](?:order-token|session)=)[^&]*/g;

/**
 * The request as logged: Fastify's default fields, with token-carrying query values cut out, so
 * that no payment token reaches the log.
 */
export function redactedRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: request.url.replace(TOKEN_QUERY, '$1[redacted]'),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The logger option with the redacting request serializer added. */
function withRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...options.serializers, req: redactedRequest } };
}

/**
 * Builds the command API (not listening yet): the routes under /api, and GET /health/live and
 * GET /health/ready (healthRoutes: 503 once the app starts to close, or while one of
 * `readinessChecks` fails), and GET /metrics (metricsPlugin, `deps.metrics`).
 */
export function buildCommandApi(deps: CommandApiDependencies): FastifyInstance {
  const app = createApp({ logger: withRedaction(deps.logger), ...(deps.trustProxy !== undefined ? { trustProxy: deps.trustProxy } : {}) });
  // Security headers, load shedding (503 SERVICE_UNAVAILABLE) and the OpenAPI document at
  // /api/docs/command.json; the documentation first sees every route registered after it.
  app.register(apiSecurityHeaders);
  app.register(pressurePlugin);
  app.register(apiDocs, { api: 'command' });
  // Request fingerprints are keyed (command-request.ts): a body's secrets never lie in the log as a plain hash.
  app.decorate('fingerprintKey', fingerprintKey(deps.jwtSecret));
  app.register(healthRoutes, { checks: deps.readinessChecks ?? [] });
  app.register(metricsPlugin, { registry: deps.metrics ?? createMetricsRegistry('command-api', { defaultMetrics: false }) });
  app.register(authPlugin, {
    secret: deps.jwtSecret,
    resolveActor: (actor) => deps.commands.resolveActor(actor),
    sessions: deps.sessions ?? deps.accounts ?? NO_SESSIONS,
    ...(deps.accessTokenSeconds !== undefined ? { accessTokenSeconds: deps.accessTokenSeconds } : {}),
  });
  // The rate limits' counters (rate-limits.ts), and @fastify/rate-limit for every route whose
  // config names a limit (rateLimitPlugin of @sinilill/http: the draft's RateLimit headers).
  const counters = new RateLimitCounters({
    redis: deps.redis ?? null,
    prefix: deps.rateLimitPrefix ?? 'sinilill:rate-limit:',
    ...(deps.rateLimitClock ? { now: deps.rateLimitClock } : {}),
    onRedisState: (state, error) => (state === 'unavailable'
      ? app.log.warn({ err: error }, 'rate limits: Redis does not answer; each process counts alone until it does')
      : app.log.info('rate limits: Redis answers again; counting there')),
  });
  app.register(rateLimitPlugin, { counters });
  // Every route file of routes/ is registered by being there (route-files.ts), in file-name order,
  // with the dependencies below; each decides from them whether it is served.
  app.register(async (api) => {
    const routeDeps: RouteDependencies = { ...deps, rateLimits: rateLimitsWith(deps.rateLimits, deps.rateLimit), counters };
    await registerRouteFiles(api, await importRouteFiles(), routeDeps);
  }, { prefix: '/api' });
  return app;
}
