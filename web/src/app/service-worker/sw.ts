/**
 * The service worker (the app on the phone, offline), compiled on its own by
 * vite-plugin-pwa's injectManifest into web/dist/sw.js (vite.config.ts), which fills in
 * `self.__WB_MANIFEST`: the built scripts, styles and pictures.
 *
 * It must not change what an online visitor sees (every other browser test runs against the
 * same build):
 * - the app shell — the hashed scripts and styles of web/dist — is precached (workbox-precaching)
 *   and served from the cache: those files never change content under their names;
 * - pages (navigations) go to the network first; the last page the network answered is kept
 *   under one key (PAGE_KEY: every route is the same index.html) and served only when the
 *   network does not answer. Online, index.html (with its CSP hash or nonce, which the stored
 *   answer keeps with its own headers) is therefore always the server's current one;
 * - the team page's reads — GET /api/team/{id}, /api/team/{id}/participants,
 *   /api/team/{id}/entries — go to the network first, and a copy of each 200 answer to a request
 *   that carried the member's token is kept for reading the last-seen team page offline
 *   (API_CACHE); the public answers (GET /api/editions, /api/settings) likewise in PUBLIC_CACHE.
 *   Nothing else of /api is touched: no admin call, no live stream, no POST/PUT/DELETE (a route
 *   matches GET only);
 * - when the session ends the page deletes API_CACHE and posts SESSION_ENDED_MESSAGE (pwa.ts):
 *   the worker deletes it too and keeps no answer of a request that started before, so a team
 *   read still on its way at the logout cannot write the member's data back.
 *
 * A new worker takes over at once (skipWaiting, clientsClaim): pages keep working with their
 * own chunks, which are still on the server.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { API_CACHE, isOfflineReadable, isPublicOfflineReadable, PAGE_CACHE, PAGE_KEY, PUBLIC_CACHE, SESSION_ENDED_MESSAGE } from './offline-routes';

// The worker's global scope, as far as it is used here (the web project compiles with the DOM
// library, which has no ServiceWorkerGlobalScope).
declare const self: {
  __WB_MANIFEST: (PrecacheEntry | string)[];
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown; waitUntil(promise: Promise<unknown>): void }) => void): void;
};

/** Raised by each SESSION_ENDED_MESSAGE: an answer to a request of an older session is not kept. */
let session = 0;

self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('message', (event) => {
  if (event.data !== SESSION_ENDED_MESSAGE) return;
  session += 1;
  event.waitUntil(caches.delete(API_CACHE));
});
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

registerRoute(
  ({ request, url }) => request.mode === 'navigate' && !url.pathname.startsWith('/api/'),
  new NetworkFirst({
    cacheName: PAGE_CACHE,
    plugins: [{ cacheKeyWillBeUsed: () => Promise.resolve(PAGE_KEY) }],
    matchOptions: { ignoreVary: true },
  }),
);

registerRoute(
  ({ url, sameOrigin }) => sameOrigin && isOfflineReadable(url.pathname),
  new NetworkFirst({
    cacheName: API_CACHE,
    plugins: [{
      handlerWillStart: ({ state }) => {
        if (state) state.session = session;
        return Promise.resolve();
      },
      // Only complete answers (a refusal — 401, 403, 404 — is never served offline in place of
      // data), only the member's (asked with a token), and only of the session still running.
      cacheWillUpdate: ({ request, response, state }) => Promise.resolve(
        response.status === 200 && request.headers.has('authorization') && state?.session === session ? response : null,
      ),
    }],
    // The stored answer is the signed-in member's; the token it was asked with may have been renewed since.
    matchOptions: { ignoreVary: true },
  }),
  'GET',
);

registerRoute(
  ({ url, sameOrigin }) => sameOrigin && isPublicOfflineReadable(url.pathname),
  new NetworkFirst({
    cacheName: PUBLIC_CACHE,
    plugins: [{ cacheWillUpdate: ({ response }) => Promise.resolve(response.status === 200 ? response : null) }],
  }),
  'GET',
);
