/**
 * The command API (Fastify): validates (TypeBox, strict), authenticates (JWT) and hands commands
 * to the CommandService and the AccountService (which decide and append). Routes only translate
 * HTTP: waking the projectors is an after-commit hook of the event store the services
 * were built on (withAfterCommit of @sinilill/commands; see server.ts), not the routes' job.
 */
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import { fingerprintKey, type AccountService, type CommandService } from '@sinilill/commands';
import { authPlugin, createApp, createMetricsRegistry, healthRoutes, metricsPlugin, type AuthOptions, type ReadinessCheck, type Registry } from '@sinilill/http';
import { apiDocs, apiSecurityHeaders, pressurePlugin } from '@sinilill/http';
import type { MediaStore } from '@sinilill/media';
import type { Queue, ReplayJob } from '@sinilill/messaging';
import { SandboxProvider, type PaymentProvider } from '@sinilill/payments';
import { LoginThrottle, RateLimitCounters, rateLimitsWith, type RateLimitRedis, type RateLimits } from './rate-limits';
import { accountRoutes, type RateLimitOptions } from './routes/accounts';
import type { Announcements } from './announcements';
import { announcementRoutes } from './routes/announcements';
import { activityFileRoutes } from './routes/activity-files';
import { adminRoutes } from './routes/admin';
import { drawRoutes } from './routes/draw';
import { entryRoutes } from './routes/entries';
import { meRoutes } from './routes/me';
import { moderationRoutes } from './routes/moderation';
import { operationsRoutes } from './routes/operations';
import { paymentRoutes } from './routes/payments';
import { sandboxRoutes } from './routes/sandbox';
import { sessionRoutes } from './routes/session';
import { teamRoutes } from './routes/team';

export interface CommandApiDependencies {
  commands: CommandService;
  /**
   * The account commands (registration, login, password reset and change, confirmation). Without
   * it the account routes and the admin routes (/admin/*, which approve, reset passwords and
   * switch settings through it) are not served (tests of other routes).
   */
  accounts?: AccountService;
  /**
   * Where uploaded team icons are stored (PUT /team/{id}/publicattributes). Without it an icon
   * upload is refused with INVALID_REQUEST; descriptions and icon removal still work.
   */
  media?: MediaStore;
  jwtSecret: string;
  /** Heap of the worker that reads one activity file, MB (ACTIVITY_FILE_HEAP_MB, docs/decisions/0046). */
  activityFileHeapMb?: number;
  /** Lifetime of access tokens, seconds; default ACCESS_TOKEN_SECONDS (15 minutes). */
  accessTokenSeconds?: number;
  /**
   * Where every authenticated request checks its session (the account's session version, the
   * token's session) and an ADMIN claim against the account; default `accounts`.
   * Tests of other routes, built without `accounts`, pass an AccountService (or anything answering
   * the same two lookups) here. With neither, every authenticated route answers 401.
   */
  sessions?: AuthOptions['sessions'];
  /**
   * The account routes' rate limits (docs/decisions/0024), each default of DEFAULT_RATE_LIMITS
   * (rate-limits.ts) replaced by what is given here.
   */
  rateLimits?: Partial<RateLimits>;
  /**
   * A shortcut for tests: every limit of `rateLimits` becomes this one (`max` per `timeWindowMs`),
   * before `rateLimits` applies. Tests of other things pass a high `max` to stay out of the way.
   */
  rateLimit?: RateLimitOptions;
  /**
   * Where the rate-limit counters live, shared by every command-API process (an ioredis client with
   * a short commandTimeout and no offline queue; docs/decisions/0024). Without it (tests) each process counts
   * alone; while it does not answer, each process counts alone too (never a 500).
   */
  redis?: RateLimitRedis | null;
  /** Key prefix of the counters in Redis, one per copy of the app (default `sinilill:rate-limit:`). */
  rateLimitPrefix?: string;
  /** The clock of the in-process rate-limit counters, epoch ms (tests without Redis; default Date.now). */
  rateLimitClock?: () => number;
  logger?: FastifyServerOptions['logger'];
  /**
   * The proxies whose X-Forwarded-For is believed (Fastify's trustProxy; config TRUST_PROXY): the
   * gateway's address, so that `request.ip`, which the rate limits count, is the client's (docs/decisions/0024).
   * Default: createApp's TRUSTED_PROXIES (loopback).
   */
  trustProxy?: FastifyServerOptions['trustProxy'];
  /**
   * The replay queue (POST /admin/replay, GET /admin/replay/{jobId}; docs/decisions/0017). Without it those
   * routes and the queue board are not served (tests of other routes).
   */
  replayQueue?: Queue<ReplayJob>;
  /** Every queue the board at /api/admin/queues shows (projection queues and replay). */
  boardQueues?: readonly Queue[];
  /**
   * The payment provider and the site's address (/payment/*; the sandbox's test bank
   * when the provider is the sandbox). Without it the payment routes are not served.
   */
  payments?: { provider: PaymentProvider; publicUrl: string };
  /**
   * The process's metrics registry (request durations here, the appends through
   * withAppendMetrics in server.ts), served at GET /metrics. Default: a registry of this app's
   * own without the process metrics (tests).
   */
  metrics?: Registry;
  /** Conditions of GET /health/ready besides not closing (server.ts: PostgreSQL, migrations, Redis). */
  readinessChecks?: readonly ReadinessCheck[];
  /** Announcements and unsubscribing (announcements.ts); without it those routes are not served. */
  announcements?: Announcements;
}

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
  app.register(async (api) => {
    await api.register(entryRoutes, { commands: deps.commands });
    await api.register(moderationRoutes, { commands: deps.commands });
    await api.register(drawRoutes, { commands: deps.commands });
    await api.register(activityFileRoutes, { commands: deps.commands, jwtSecret: deps.jwtSecret, ...(deps.activityFileHeapMb ? { heapMb: deps.activityFileHeapMb } : {}) });
    await api.register(teamRoutes, { commands: deps.commands, ...(deps.media ? { media: deps.media } : {}) });
    if (deps.accounts) {
      const counters = new RateLimitCounters({
        redis: deps.redis ?? null,
        prefix: deps.rateLimitPrefix ?? 'sinilill:rate-limit:',
        ...(deps.rateLimitClock ? { now: deps.rateLimitClock } : {}),
        onRedisState: (state, error) => (state === 'unavailable'
          ? app.log.warn({ err: error }, 'rate limits: Redis does not answer; each process counts alone until it does')
          : app.log.info('rate limits: Redis answers again; counting there')),
      });
      await api.register(accountRoutes, {
        accounts: deps.accounts, counters, keySecret: deps.jwtSecret,
        rateLimits: rateLimitsWith(deps.rateLimits, deps.rateLimit),
      });
      await api.register(adminRoutes, { commands: deps.commands, accounts: deps.accounts, ...(deps.media ? { media: deps.media } : {}) });
      await api.register(sessionRoutes, { accounts: deps.accounts });
      await api.register(meRoutes, { commands: deps.commands, accounts: deps.accounts, throttle: new LoginThrottle(counters, rateLimitsWith(deps.rateLimits, deps.rateLimit), deps.jwtSecret) });
    }
    if (deps.announcements) await api.register(announcementRoutes, { announcements: deps.announcements });
    if (deps.payments) {
      await api.register(paymentRoutes, { commands: deps.commands, ...deps.payments });
      if (deps.payments.provider instanceof SandboxProvider) await api.register(sandboxRoutes, { sandbox: deps.payments.provider });
    }
    if (deps.replayQueue) {
      await api.register(operationsRoutes, { replayQueue: deps.replayQueue, ...(deps.boardQueues ? { boardQueues: deps.boardQueues } : {}) });
    }
  }, { prefix: '/api' });
  return app;
}
