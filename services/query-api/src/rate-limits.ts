/**
 * The query API's rate limits (docs/decisions/0108): its public routes that cost work or could be
 * guessed at, each counted per client address (`request.ip`, the gateway's X-Forwarded-For
 * believed from TRUST_PROXY only) in Redis, shared by every query-API process (RateLimitCounters
 * of @sinilill/http). A request past a limit answers 429 TOO_MANY_REQUESTS with Retry-After.
 */
import type { PublicRateLimitConfig } from '@sinilill/config';
import type { Limit } from '@sinilill/http';

/** The limits of the query API's public routes; see DEFAULT_QUERY_RATE_LIMITS for the values and reasons. */
export interface QueryRateLimits {
  /** GET /certificates/{code}: a code could be guessed at (HMAC-checked, then read models). */
  certificateChecks: Limit;
  /** GET /draw: folds the edition's draw stream and the entries from the log. */
  drawReads: Limit;
  /** GET /team/{id}/share.png and /share/team/{id}: a PNG rendered per team and language (cached). */
  shareRenders: Limit;
  /** GET /images/{name}: team icons from the database (a statistics page shows one per team). */
  images: Limit;
  /** POST /strapi/story: may ask Strapi. */
  newsReads: Limit;
}

const MINUTE = 60_000;

/**
 * The limits the query API runs with unless told otherwise (RATE_LIMIT_* of @sinilill/config):
 * - certificate checks: 60 per address in 10 minutes (a person checks a few certificates; a
 *   guesser of codes gets 360 an hour against a space of 2^40 signatures);
 * - draw reads: 60 a minute (the page reads it once per visit; a reload loop is stopped);
 * - share renders: 60 a minute (a social network's crawler fetches one image per share);
 * - images: 1200 a minute (the statistics page of a big edition shows a few hundred icons, and
 *   browsers keep them for a year);
 * - news reads: 60 a minute (the news page asks once per language).
 */
export const DEFAULT_QUERY_RATE_LIMITS: QueryRateLimits = {
  certificateChecks: { max: 60, timeWindowMs: 10 * MINUTE },
  drawReads: { max: 60, timeWindowMs: MINUTE },
  shareRenders: { max: 60, timeWindowMs: MINUTE },
  images: { max: 1200, timeWindowMs: MINUTE },
  newsReads: { max: 60, timeWindowMs: MINUTE },
};

/** The limits of the configuration's RATE_LIMIT_* (the windows are the defaults'). */
export function queryRateLimitsOf(config: PublicRateLimitConfig): QueryRateLimits {
  const d = DEFAULT_QUERY_RATE_LIMITS;
  return {
    certificateChecks: { ...d.certificateChecks, max: config.certificateChecks },
    drawReads: { ...d.drawReads, max: config.drawReads },
    shareRenders: { ...d.shareRenders, max: config.shareRenders },
    images: { ...d.images, max: config.images },
    newsReads: { ...d.newsReads, max: config.newsReads },
  };
}

/** The defaults with `overrides` applied; `every` (a test's shortcut) replaces every limit first. */
export function queryRateLimitsWith(overrides: Partial<QueryRateLimits> = {}, every?: Limit): QueryRateLimits {
  const base: QueryRateLimits = every
    ? { certificateChecks: every, drawReads: every, shareRenders: every, images: every, newsReads: every }
    : DEFAULT_QUERY_RATE_LIMITS;
  return { ...base, ...overrides };
}
