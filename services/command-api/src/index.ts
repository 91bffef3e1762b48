/** The command API's building blocks (for tests). */
export { buildCommandApi, DEFAULT_RATE_LIMITS, type CommandApiDependencies } from './app';
export type { RateLimitOptions } from './routes/accounts';
export { slowDownMs, type Limit, type RateLimitRedis, type RateLimits } from './rate-limits';
export { readModelLookups, type ReadModelLookups } from './read-model-lookups';
export { redisSharedCache, type SharedCacheRedis } from './shared-cache';
export { onActivityFileRead, ACTIVITY_FILE_WORKER_HEAP_MB, type ActivityFileReading } from './activity-file-parser';
export { withAppendMetrics, APPEND_DURATION_BUCKETS } from './append-metrics';
export { Announcements, MAIL_ATTEMPTS, MAIL_RATE_PER_SECOND, type AnnouncementsOptions } from './announcements';
export { activityFileTokenKey, signActivityFileToken, ACTIVITY_FILE_TOKEN_SECONDS, type ActivityFileClaims, type ActivityFilePartClaims } from './activity-file-token';
export type { StravaRouteDependencies } from './dependencies';
export { StravaThrottle, ensureStravaSubscription, startStravaWorker, type StravaWorkerOptions } from './strava-worker';
export { derivedVerifyToken, signStravaState, stravaStateKey, verifyStravaState, STRAVA_STATE_SECONDS } from './strava-state';
export { commandSide, sessionChangeListener, type CommandSide, type CommandSideOptions } from './command-side';
export { teamDayFiguresOn } from './read-model-lookups';
