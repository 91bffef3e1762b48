import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

/** A fresh copy of the module (its state is per page) with fetch answering as `answers` says. */
async function loadWith(answers: () => Promise<Response>) {
  vi.resetModules();
  vi.stubGlobal('fetch', vi.fn(answers));
  return import('./connection');
}

describe('is the server reachable', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  test('given no answer, then unreachable, listeners told; asked again every PROBE_INTERVAL_MS until it answers', async () => {
    let up = false;
    const connection = await loadWith(() => (up ? Promise.resolve(new Response('{}')) : Promise.reject(new TypeError('Failed to fetch'))));
    const changes = vi.fn();
    connection.subscribeConnection(changes);
    expect(connection.isReachable()).toBe(true);

    expect(await connection.checkConnection()).toBe(false);
    expect(connection.isReachable()).toBe(false);
    expect(changes).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(connection.PROBE_INTERVAL_MS);
    expect(connection.isReachable()).toBe(false);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(vi.mocked(fetch).mock.calls[1]).toEqual(['/health/live', { cache: 'no-store' }]);

    up = true;
    await vi.advanceTimersByTimeAsync(connection.PROBE_INTERVAL_MS);
    expect(connection.isReachable()).toBe(true);
    expect(changes).toHaveBeenCalledTimes(2);
    // Reachable again: no more asking.
    await vi.advanceTimersByTimeAsync(connection.PROBE_INTERVAL_MS * 3);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  test('any answer (even an error status) counts as reachable; the same report twice tells nobody', async () => {
    const connection = await loadWith(() => Promise.resolve(new Response('{"message":"SERVICE_UNAVAILABLE"}', { status: 503 })));
    const changes = vi.fn();
    connection.subscribeConnection(changes);
    connection.reportNetwork(false);
    connection.reportNetwork(false);
    expect(changes).toHaveBeenCalledTimes(1);
    expect(await connection.checkConnection()).toBe(true);
    expect(changes).toHaveBeenCalledTimes(2);
  });

  test('a browser that says it is offline is unreachable whatever was reported', async () => {
    const connection = await loadWith(() => Promise.resolve(new Response('{}')));
    vi.stubGlobal('navigator', { onLine: false });
    expect(connection.isReachable()).toBe(false);
    vi.stubGlobal('navigator', { onLine: true });
    expect(connection.isReachable()).toBe(true);
  });
});
