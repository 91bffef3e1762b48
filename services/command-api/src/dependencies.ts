/**
 * What the command API is built from (buildCommandApi), and what its route files draw their
 * options from (RouteDependencies: these plus what app.ts makes of them once for all routes).
 */
import type { FastifyServerOptions } from 'fastify';
import type { AccountService, CommandService, StravaConnections, StravaSync } from '@sinilill/commands';
import type { AuthOptions, ReadinessCheck, Registry } from '@sinilill/http';
import type { MediaStore } from '@sinilill/media';
import type { Queue, ReplayJob, StravaJob } from '@sinilill/messaging';
import type { PaymentProvider, SharedCache } from '@sinilill/payments';
import type { Announcements } from './announcements';
import type { Limit, RateLimitCounters, RateLimitRedis, RateLimits } from './rate-limits';

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
  rateLimit?: Limit;
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
  payments?: { provider: PaymentProvider; publicUrl: string; answers?: SharedCache };
  /**
   * Where the answers of keyed requests whose effects leave no event (the returning members'
   * invitations) are kept for their retries, shared by every process (Redis, server.ts);
   * default: this process's memory.
   */
  keptAnswers?: SharedCache;
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
  /**
   * Strava sync (docs/decisions/0095; routes/strava.ts). Without it (STRAVA_CLIENT_ID or
   * STRAVA_CLIENT_SECRET unset) GET /me/strava answers `available: false` and the other Strava
   * routes STRAVA_NOT_CONFIGURED.
   */
  strava?: StravaRouteDependencies | null;
}

/** What the Strava routes use (server.ts builds it when Strava is configured). */
export interface StravaRouteDependencies {
  sync: StravaSync;
  connections: StravaConnections;
  /** Strava's authorize page for a redirect URI, state and scope (StravaClient.authorizeUrl). */
  authorizeUrl: (redirectUri: string, state: string, scope: string) => string;
  /** The site's address without a trailing slash (PUBLIC_URL): the redirect URI and the return page are under it. */
  publicUrl: string;
  /** The webhook subscription's hub.verify_token. */
  verifyToken: string;
  /** Queues a job of the `strava` queue under its job id (enqueueStravaJob). */
  enqueue: (job: StravaJob) => Promise<void>;
}

/**
 * What every route file of routes/ is given (routeFile of @sinilill/http): the app's dependencies,
 * the rate limits in force and their counters, made once so that the login routes of
 * routes/accounts.ts and routes/me.ts count in the same place.
 */
export interface RouteDependencies extends CommandApiDependencies {
  rateLimits: RateLimits;
  counters: RateLimitCounters;
}
