/** Strava sync on the write side (docs/decisions/0095, 0096): the HTTP client, the connections and proposals, the jobs. */
export {
  StravaClient,
  StravaHttpError,
  StravaRateLimitedError,
  StravaUnauthorizedError,
  rateLimitsOf,
  waitForLimits,
  type StravaActivity,
  type StravaAthleteSummary,
  type StravaClientOptions,
  type StravaRateLimits,
  type StravaSubscription,
  type StravaTokenAnswer,
} from './client';
export {
  REFRESH_MARGIN_MS,
  StravaConnections,
  type Sealer,
  type StravaConnection,
  type StravaConnectionView,
  type StravaMode,
  type StravaProposal,
  type StravaStatus,
} from './connections';
export { BACKFILL_PAGE_SIZE, STRAVA_SCOPE, StravaSync, startOfLocalDay, type StravaFollowUp, type StravaOutcome, type StravaSyncOptions } from './sync';
