/**
 * Is the server reachable? (the offline banner, the offline entry queue.) The
 * browser's navigator.onLine says "offline" for sure, but "online" only means some network is
 * there — a phone on a dead mobile network, a captive Wi-Fi, a browser that restored the page
 * from the service worker's cache, all say online. So the app also goes by what it saw:
 * `reportNetwork(false)` after a request got no answer at all, `reportNetwork(true)` after one
 * did. While the server counts as unreachable it is asked again every PROBE_INTERVAL_MS
 * (GET /health/live, which the gateway and nginx answer themselves; never cached); the `online`
 * event asks at once.
 */

/** How often the server is asked while it counts as unreachable, ms. */
export const PROBE_INTERVAL_MS = 5_000;

/** The address asked: the front door's own health answer (gateway, nginx), never cached. */
const PROBE_URL = '/health/live';

let down = false;
let probeTimer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** True unless the browser is offline or the last request to the server got no answer. */
export function isReachable(): boolean {
  return !down && (typeof navigator === 'undefined' || navigator.onLine !== false);
}

/** Records what a request found (an answer of any status: reachable; none: not) and tells the listeners of a change. */
export function reportNetwork(reachable: boolean): void {
  if (down === !reachable) return;
  down = !reachable;
  clearInterval(probeTimer);
  probeTimer = down ? setInterval(() => void checkConnection(), PROBE_INTERVAL_MS) : undefined;
  notify();
}

/** Asks the server now (GET /health/live) and records the outcome; resolves to it. Never rejects. */
export function checkConnection(): Promise<boolean> {
  return fetch(PROBE_URL, { cache: 'no-store' }).then(
    (response) => {
      void response.body?.cancel().catch(() => undefined);
      reportNetwork(true);
      return isReachable();
    },
    () => {
      reportNetwork(false);
      return false;
    },
  );
}

let watching = false;

/**
 * Calls `listener` whenever isReachable() may have changed (the browser's online/offline events
 * and every reported change); returns the unsubscribe. Shaped for React's useSyncExternalStore.
 */
export function subscribeConnection(listener: () => void): () => void {
  if (!watching && typeof window !== 'undefined') {
    watching = true;
    window.addEventListener('offline', notify);
    window.addEventListener('online', () => {
      notify();
      void checkConnection();
    });
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}
