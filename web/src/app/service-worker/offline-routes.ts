/**
 * What the service worker (sw.ts) keeps for offline reading, shared with the page (pwa.ts clears
 * API_CACHE when the session ends). No DOM and no worker globals: imported by both.
 */

/** The cache of the team page's reads (spec §7 GET calls), for the last-seen team page offline. */
export const API_CACHE = 'sinilill-api';

/** The cache of the last page the network answered (index.html under PAGE_KEY). */
export const PAGE_CACHE = 'sinilill-pages';

/** The one key the last page is kept under: every client route is the same index.html. */
export const PAGE_KEY = '/index.html';

/**
 * The /api paths whose GET answers are kept for offline reading as the signed-in member's: the
 * team (GET /api/team/{id}), its members (/participants) and entries (/entries). Never the join
 * code (/newcode: a command), the live stream, admin calls or anyone's account.
 */
const OFFLINE_READABLE = /^\/api\/team\/\d+(?:\/participants|\/entries)?$/;

/**
 * The message a page posts to its service worker when the session ends or changes hands: the
 * worker deletes API_CACHE and keeps no answer of a request that started before it (an answer
 * still on its way when the member logged out would otherwise write the cache again).
 */
export const SESSION_ENDED_MESSAGE = 'sinilill-session-ended';

/**
 * The cache of the public answers every page, the team page offline included, draws with: the
 * editions (GET /api/editions: the route and dates) and the global switches (GET /api/settings:
 * whether entries may be added). Nobody's data, so it outlives a session (a logout may read them
 * again at once, and API_CACHE must then stay deleted).
 */
export const PUBLIC_CACHE = 'sinilill-public';

/** True when a GET of `pathname` is a public answer kept in PUBLIC_CACHE. */
export function isPublicOfflineReadable(pathname: string): boolean {
  return pathname === '/api/editions' || pathname === '/api/settings';
}

/** True when a GET of `pathname` (no query string) is kept for offline reading. */
export function isOfflineReadable(pathname: string): boolean {
  return OFFLINE_READABLE.test(pathname);
}
