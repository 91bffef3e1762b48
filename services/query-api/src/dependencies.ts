/**
 * What the query API is built from (buildQueryApi), and what its route files draw their options
 * from (RouteDependencies: these plus the public answers' cache app.ts makes once for all routes).
 */
import type { FastifyServerOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { BankTransferConfig } from '@sinilill/config';
import type { EventStore } from '@sinilill/event-store';
import type { Limit, RateLimitCounters, RateLimitRedis, ReadinessCheck, Registry, SessionAuthority } from '@sinilill/http';
import type { MediaStore } from '@sinilill/media';
import type { ReadModelDatabase } from '@sinilill/read-models';
import type { AnswerCache, AnswerCacheOptions } from './answer-cache';
import type { ReadModelEditions } from './editions';
import type { AccountParticipants } from './team-access';
import type { ProjectionPositions, TeamChangeFeed } from './live';
import type { NewsOptions } from './news-source';
import type { QueryRateLimits } from './rate-limits';

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
   * Where the session check asks (server.ts: a SessionCache over sqlSessionAuthority, kept coherent
   * by its LISTEN). Default: sqlSessionAuthority over `db` and the log, asked on every request.
   */
  sessions?: SessionAuthority;
  /**
   * Committed read-model changes per team, for GET /team/{id}/live: a started
   * ReadModelChangeListener (live.ts); the caller closes it after the app.
   */
  changes: TeamChangeFeed;
  /**
   * The projections' positions as the process's change listener hears them (answer-cache.ts, live.ts):
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
  /**
   * The public routes' rate limits (rate-limits.ts, docs/decisions/0108), each default of
   * DEFAULT_QUERY_RATE_LIMITS replaced by what is given here.
   */
  rateLimits?: Partial<QueryRateLimits>;
  /** A shortcut for tests: every limit becomes this one before `rateLimits` applies. */
  rateLimit?: Limit;
  /**
   * Where the rate-limit counters live, shared by every query-API process (an ioredis client with
   * a short commandTimeout and no offline queue); without it each process counts alone.
   */
  redis?: RateLimitRedis | null;
  /** Key prefix of the counters in Redis, one per copy of the app (default `sinilill:rate-limit:`). */
  rateLimitPrefix?: string;
}

/** What every route file of routes/ is given (routeFile of @sinilill/http). */
export interface RouteDependencies extends QueryApiDependencies {
  /** The public answers' cache (stats, settings, public pages), one per app. */
  answers: AnswerCache;
  /** The editions of the read models (editions.ts), one per app: which edition the routes answer for. */
  editions: ReadModelEditions;
  /** Every participant of an account (team-access.ts), from the log; absent without `history`. */
  accountParticipants?: AccountParticipants;
  /** The public routes' rate limits in force (defaults with the app's overrides). */
  limits: QueryRateLimits;
  /** Their counters (Redis shared by every process, or this process's memory), one per app. */
  counters: RateLimitCounters;
}
