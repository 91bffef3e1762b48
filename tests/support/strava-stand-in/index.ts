/**
 * A Strava of our own for tests (README.md beside this file): start it with startStravaStandIn(),
 * point STRAVA_API_URL at `apiUrl` and STRAVA_OAUTH_URL at `oauthUrl`, and give the application
 * its clientId/clientSecret.
 */
export { startStravaStandIn, summaryOf, activityTypeOf, type StravaStandIn, type StravaStandInOptions } from './server';
export type { StravaLimits } from './rate-limits';
export * from './types';
