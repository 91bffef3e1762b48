/**
 * The installable, offline-capable app, started after the first render by a
 * dynamic import from the frame (root-layout.tsx), so that none of it — workbox-window included —
 * is in the home route's first download (tests/bench/web-size.ts, at most 150 KB gzipped):
 * - asks whether the server answers (lib/connection.ts: the offline banner; a page the worker
 *   served from its cache may well say navigator.onLine all the same);
 * - registers the service worker (/sw.js, built from service-worker/sw.ts) in built clients;
 * - deletes the offline copies of the team page's reads (API_CACHE) whenever the session ends or
 *   changes hands (logout, a refused token, another tab's logout, another account's login), and
 *   at start when nobody is logged in, so that no one else's data can be read offline;
 * - when entries are waiting in the offline queue (the team page's entry-queue-store.ts), starts
 *   sending them on this page too (the team page's chunk: only then).
 */
import { Workbox } from 'workbox-window';
import { checkConnection } from '../lib/connection';
import { useSessionStore } from '../lib/session-store';
import { API_CACHE, SESSION_ENDED_MESSAGE } from './service-worker/offline-routes';
import { ENTRY_QUEUE_STORAGE_KEY } from '../features/team/offline/entry-queue';

/**
 * Deletes the offline copies of the team page's reads, and tells the service worker so that an
 * answer still on its way is not kept either (sw.ts). Never rejects.
 */
export function clearOfflineReads(): Promise<void> {
  if (typeof navigator !== 'undefined') navigator.serviceWorker?.controller?.postMessage(SESSION_ENDED_MESSAGE);
  if (typeof caches === 'undefined') return Promise.resolve();
  return caches.delete(API_CACHE).then(() => undefined, () => undefined);
}

function queueWaiting(): boolean {
  try {
    return (globalThis.localStorage.getItem(ENTRY_QUEUE_STORAGE_KEY) ?? '[]') !== '[]';
  } catch {
    return false;
  }
}

let started = false;

/** Starts the service worker and the session-bound cache clearing (once per page). */
export function startPwa(): void {
  if (started) return;
  started = true;
  void checkConnection();
  if (!useSessionStore.getState().isAuthenticated) void clearOfflineReads();
  useSessionStore.subscribe((state, previous) => {
    if (previous.identity.userId !== '' && state.identity.userId !== previous.identity.userId) void clearOfflineReads();
  });
  if (queueWaiting()) void import('../features/team/offline/entry-queue-store').then((queue) => queue.startEntryQueue());
  // Built clients only (vite-plugin-pwa writes sw.js at build time). MODE, not PROD: a build run
  // with NODE_ENV=test (under vitest, as the browser tests' stack builds) has PROD false.
  if (import.meta.env.MODE === 'development' || !('serviceWorker' in navigator)) return;
  void new Workbox('/sw.js', { scope: '/' }).register().catch((error: unknown) => console.warn('service worker not registered:', error));
}
