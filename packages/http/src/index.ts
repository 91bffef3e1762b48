/**
 * Fastify pieces both APIs share (re-exports only): the app factory with strict validation and the
 * one error handler (app.ts), authentication, health routes, API documentation, load shedding,
 * security headers, correlation ids, graceful shutdown and metrics, each in its own module.
 */
export {
  clientErrorHandler,
  createApp,
  errorAnswer,
  errorBody,
  frameworkErrors,
  isDatabaseUnavailable,
  refuseExpectations,
  statusOf,
  DEFAULT_BODY_LIMIT,
  IDEMPOTENCY_KEY_PATTERN,
  ID_PATTERN,
  TRUSTED_PROXIES,
} from './app';
export { authPlugin, requireAdmin, type AuthOptions } from './auth';
export { SessionCache, SESSION_CHANGES_CHANNEL, SESSION_LISTENER_NAME, sessionListenerUrl, type SessionCacheOptions, type SessionListenerHooks, type SqlClient } from './session-cache';
export { sqlSessionAuthority, type AccountStanding, type SessionAuthority, type SessionStanding, type SqlRunner, type StreamReader } from './session-authority';
export { healthRoutes, migrationsCheck, postgresCheck, redisCheck, withTimeout, READINESS_CHECK_TIMEOUT_MS, type HealthOptions, type Readiness, type ReadinessCheck } from './health';
export { earlyLog, type EarlyLog } from './early-log';
export { apiDocs, apiDocumentPath, asOpenApi31, codesOfStatus, API_DOCS_PATH, BEARER_SCHEME, DOCS_PAGE_CSP, type ApiDocsOptions } from './api-docs';
export { API_OPERATIONS, API_TAGS, REFRESH_COOKIE_SCHEME, operationIdOf, operationKey, type OperationText } from './api-operations';
export { pressurePlugin, PRESSURE_DEFAULTS, type PressureOptions } from './pressure';
export { apiSecurityHeaders, siteSecurityHeaders, siteCspDirectives, cspHeader, inlineScriptHashes, API_CSP, OPERATOR_PAGE_CSP, type CspDirectives, type SiteSecurityHeadersOptions } from './security-headers';
export { CORRELATION_HEADER, CORRELATION_ID_PATTERN, correlationIdOf, correlationOptions, echoCorrelationId } from './correlation';
export { installGracefulShutdown, installShutdown, SHUTDOWN_DELAY_MS, type Shutdown, type ShutdownLog, type ShutdownOptions } from './shutdown';
export { Counter, Gauge, Histogram, Registry, HTTP_DURATION_BUCKETS, HTTP_REQUEST_DURATION, UNMATCHED_ROUTE, createMetricsRegistry, metricsPlugin, registeredMetric, registerPoolMetrics, type MetricsOptions, type PoolCounters } from './metrics';
export { registerRouteFiles, routeFile, routeFileNames, ROUTE_FILE_PATTERN, type RouteFile } from './route-folder';
export {
  RateLimitCounters,
  RATE_LIMIT_HEADERS,
  addressKey,
  perAddress,
  rateLimitPlugin,
  rateLimitPolicy,
  writeRateLimitHeaders,
  type Count,
  type Limit,
  type RateLimitCountersOptions,
  type RateLimitPluginOptions,
  type RateLimitRedis,
} from './rate-limit';
