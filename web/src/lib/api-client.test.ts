import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt } from './test-jwt';

/** A Map-backed localStorage: unit tests run in Node, which has none. */
function memoryStorage(initial: Record<string, string> = {}): Storage {
  const data = new Map(Object.entries(initial));
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (index) => [...data.keys()][index] ?? null,
    removeItem: (key) => void data.delete(key),
    setItem: (key, value) => void data.set(key, String(value)),
  };
}

const token = fakeJwt({ userId: 'u1', fullName: 'Jaan Tamm', is_approved: true, participantId: 1, teamId: 2, role: 'USER', isPaid: false });

/** Loads a fresh api-client and session store over `storage`, with `fetch` answering `answer`. */
async function load(storage: Storage, answer: () => Response) {
  vi.resetModules();
  vi.stubGlobal('localStorage', storage);
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => answer());
  vi.stubGlobal('fetch', fetchMock);
  const client = await import('./api-client');
  const { useSessionStore } = await import('./session-store');
  return { ...client, useSessionStore, fetchMock };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('api client', () => {
  let storage: Storage;
  beforeEach(() => {
    storage = memoryStorage({ token: `Bearer ${token}` });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('starts authenticated when a token is stored, and sends it as Authorization', async () => {
    const { apiGet, useSessionStore, fetchMock } = await load(storage, () => json(200, { ok: true }));
    expect(useSessionStore.getState().isAuthenticated).toBe(true);
    expect(useSessionStore.getState().identity.fullName).toBe('Jaan Tamm');
    await expect(apiGet('/settings')).resolves.toEqual({ ok: true });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/settings');
    expect((init?.headers as Record<string, string>).authorization).toBe(`Bearer ${token}`);
  });

  it('sends JSON bodies without Authorization when logged out', async () => {
    const { apiPost, fetchMock } = await load(memoryStorage(), () => json(200, { token: 'x' }));
    await apiPost('/login', { email: 'a@b.ee', password: 'secret1' });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"email":"a@b.ee","password":"secret1"}');
    expect((init?.headers as Record<string, string>).authorization).toBeUndefined();
  });

  for (const status of [401, 403]) {
    it(`clears the session on ${status}`, async () => {
      const { apiGet, ApiError, useSessionStore } = await load(storage, () => json(status, { message: 'UNAUTHORIZED' }));
      await expect(apiGet('/team/2')).rejects.toBeInstanceOf(ApiError);
      expect(useSessionStore.getState().isAuthenticated).toBe(false);
      expect(useSessionStore.getState().identity.teamId).toBeNull();
      expect(storage.getItem('token')).toBeNull();
    });
  }

  it('keeps the session on other errors and turns the body into a catalogue code', async () => {
    const { apiPut, useSessionStore } = await load(storage, () => json(400, { message: 'NEW_PASSWORDS_DONT_MATCH' }));
    await expect(apiPut('/account/changepassword', {})).rejects.toMatchObject({ code: 'NEW_PASSWORDS_DONT_MATCH', status: 400 });
    expect(useSessionStore.getState().isAuthenticated).toBe(true);
  });

  it('answers GENERIC_ERROR for unknown codes, bodies that are not JSON and network failures', async () => {
    let next: () => Response = () => json(400, { message: 'SOMETHING_NEW' });
    const { apiGet } = await load(storage, () => next());
    await expect(apiGet('/x')).rejects.toMatchObject({ code: 'GENERIC_ERROR' });
    next = () => new Response('<html>Bad gateway</html>', { status: 502 });
    await expect(apiGet('/x')).rejects.toMatchObject({ code: 'GENERIC_ERROR', status: 502 });
    next = () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(apiGet('/x')).rejects.toMatchObject({ code: 'GENERIC_ERROR', status: 0 });
  });

  it('sends extra headers (read-your-writes) alongside Authorization', async () => {
    const { apiGet, fetchMock } = await load(storage, () => json(200, []));
    await apiGet('/team/2/entries', { headers: { 'x-min-position': '42' } });
    const headers = fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers['x-min-position']).toBe('42');
    expect(headers.authorization).toBe(`Bearer ${token}`);
    expect(headers.accept).toBe('application/json');
  });

  it('opens event streams with Authorization, and clears the session when they answer 401', async () => {
    let next = () => new Response('event: change\ndata: {}\n\n', { status: 200, headers: { 'content-type': 'text/event-stream' } });
    const { apiOpenStream, useSessionStore, fetchMock } = await load(storage, () => next());
    const response = await apiOpenStream('/team/2/live');
    expect(await response.text()).toContain('event: change');
    const headers = fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers.accept).toBe('text/event-stream');
    expect(headers.authorization).toBe(`Bearer ${token}`);
    next = () => json(401, { message: 'UNAUTHORIZED' });
    await expect(apiOpenStream('/team/2/live')).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
  });

  it('login stores "Bearer <token>"; logout removes it', async () => {
    const fresh = memoryStorage();
    const { useSessionStore } = await load(fresh, () => json(200, {}));
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
    expect(useSessionStore.getState().login(token)).toBe(true);
    expect(fresh.getItem('token')).toBe(`Bearer ${token}`);
    expect(useSessionStore.getState().identity.teamId).toBe(2);
    useSessionStore.getState().logout();
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
    expect(fresh.getItem('token')).toBeNull();
  });

  it('drops a stored token that is garbled; refreshes one that expired, and drops it when the refresh is refused', async () => {
    const garbled = memoryStorage({ token: 'Bearer garbage' });
    expect((await load(garbled, () => json(200, {}))).useSessionStore.getState().isAuthenticated).toBe(false);
    expect(garbled.getItem('token')).toBeNull();
    const expired = memoryStorage({ token: `Bearer ${fakeJwt({ userId: 'u', exp: 1_000 })}` });
    const { useSessionStore, fetchMock } = await load(expired, () => json(401, { message: 'UNAUTHORIZED' }));
    await vi.waitFor(() => expect(useSessionStore.getState().isAuthenticated).toBe(false));
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/session/refresh');
    expect(expired.getItem('token')).toBeNull();
  });
});

describe('short-lived access tokens', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  const later = Math.floor(Date.now() / 1000) + 15 * 60;
  const stale = fakeJwt({ userId: 'u1', fullName: 'Jaan Tamm', participantId: 1, teamId: 2, role: 'USER', exp: later });
  const renewed = fakeJwt({ userId: 'u1', fullName: 'Jaan Tamm', participantId: 1, teamId: 2, role: 'USER', isPaid: true, exp: later });

  it('a 401 refreshes the token with the cookie (no Authorization) and repeats the call once with the new one', async () => {
    const storage = memoryStorage({ token: `Bearer ${stale}` });
    const { apiGet, useSessionStore, fetchMock } = await load(storage, () => json(500, {}));
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      if (url === '/api/session/refresh') return json(200, { token: renewed });
      const authorization = (init?.headers as Record<string, string>).authorization;
      return authorization === `Bearer ${renewed}` ? json(200, { ok: true }) : json(401, { message: 'UNAUTHORIZED' });
    });
    await expect(apiGet('/team/2')).resolves.toEqual({ ok: true });
    const urls = fetchMock.mock.calls.map(([url]) => url);
    expect(urls).toEqual(['/api/team/2', '/api/session/refresh', '/api/team/2']);
    const refreshInit = fetchMock.mock.calls[1]![1]!;
    expect(refreshInit.method).toBe('POST');
    expect(refreshInit.credentials).toBe('same-origin');
    expect((refreshInit.headers as Record<string, string>).authorization).toBeUndefined();
    expect(storage.getItem('token')).toBe(`Bearer ${renewed}`);
    expect(useSessionStore.getState().identity.isPaid).toBe(true);
  });

  it('concurrent 401s share one refresh', async () => {
    const storage = memoryStorage({ token: `Bearer ${stale}` });
    const { apiGet, fetchMock } = await load(storage, () => json(500, {}));
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      if (url === '/api/session/refresh') return json(200, { token: renewed });
      const authorization = (init?.headers as Record<string, string>).authorization;
      return authorization === `Bearer ${renewed}` ? json(200, { url }) : json(401, { message: 'UNAUTHORIZED' });
    });
    await Promise.all([apiGet('/a'), apiGet('/b'), apiGet('/c')]);
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/session/refresh')).toHaveLength(1);
  });

  it('a refused refresh ends the session, and the call fails with its 401', async () => {
    const storage = memoryStorage({ token: `Bearer ${stale}` });
    const { apiGet, useSessionStore } = await load(storage, () => json(401, { message: 'UNAUTHORIZED' }));
    await expect(apiGet('/team/2')).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
    expect(storage.getItem('token')).toBeNull();
  });

  it('the token is refreshed shortly before it expires', async () => {
    vi.useFakeTimers();
    try {
      const soon = fakeJwt({ userId: 'u1', exp: Math.floor(Date.now() / 1000) + 90 });
      const storage = memoryStorage({ token: `Bearer ${soon}` });
      const { fetchMock } = await load(storage, () => json(200, { token: renewed }));
      expect(fetchMock).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(40_000);
      expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/session/refresh']);
      expect(storage.getItem('token')).toBe(`Bearer ${renewed}`);
    } finally {
      vi.useRealTimers();
    }
  });

  it('logout tells the server (POST /api/session/logout) and removes the token', async () => {
    const storage = memoryStorage({ token: `Bearer ${stale}` });
    const { useSessionStore, fetchMock } = await load(storage, () => json(200, { success: true }));
    useSessionStore.getState().logout();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/session/logout');
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ method: 'POST', credentials: 'same-origin' });
    expect(storage.getItem('token')).toBeNull();
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
  });
});

describe('idempotent commands', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
  const later = Math.floor(Date.now() / 1000) + 15 * 60;
  const session = fakeJwt({ userId: 'u1', fullName: 'Jaan Tamm', participantId: 1, teamId: 2, role: 'USER', exp: later });
  const renewed = fakeJwt({ userId: 'u1', fullName: 'Jaan Tamm', participantId: 1, teamId: 2, role: 'USER', isPaid: true, exp: later });
  const KEY = /^[A-Za-z0-9_.:-]{8,100}$/; // the command API's pattern
  const offline = () => {
    throw new TypeError('Failed to fetch');
  };

  /** The idempotency key of each fetch to `url`, in order. */
  const keysSent = (calls: [string, RequestInit?][], url: string) =>
    calls.filter(([u]) => u === url).map(([, init]) => (init?.headers as Record<string, string>)['idempotency-key']);

  it('every POST, PUT and DELETE carries a key; a GET none; the next command a fresh one', async () => {
    const { apiGet, apiPost, apiPut, apiRequest, fetchMock } = await load(memoryStorage({ token: `Bearer ${session}` }), () => json(200, { success: true }));
    await apiPost('/entry', { distance: 5 });
    await apiPost('/entry', { distance: 5 });
    await apiPut('/entry/delete', { ids: [1] });
    await apiRequest('DELETE', '/x');
    await apiGet('/team/2');
    const keys = fetchMock.mock.calls.map(([, init]) => (init?.headers as Record<string, string>)['idempotency-key']);
    expect(keys.slice(0, 4).every((key) => KEY.test(key ?? ''))).toBe(true);
    expect(new Set(keys.slice(0, 4)).size).toBe(4);
    expect(keys[4]).toBeUndefined();
  });

  it('a key the caller passes is sent instead of a generated one (any letter case)', async () => {
    const { apiPost, fetchMock } = await load(memoryStorage({ token: `Bearer ${session}` }), () => json(200, { success: true }));
    await apiPost('/admin/payment/o1/refund', { reason: 'x' }, { headers: { 'idempotency-key': 'refund-abcdef12' } });
    await apiPost('/admin/payment/o1/refund', { reason: 'x' }, { headers: { 'Idempotency-Key': 'refund-abcdef34' } });
    const [first, second] = fetchMock.mock.calls.map(([, init]) => init?.headers as Record<string, string>);
    expect(first!['idempotency-key']).toBe('refund-abcdef12');
    expect(Object.entries(second!).filter(([name]) => name.toLowerCase() === 'idempotency-key')).toEqual([['Idempotency-Key', 'refund-abcdef34']]);
  });

  it('a network failure is retried after 300 ms and 1 s with the same key and body; the third try answers', async () => {
    vi.useFakeTimers();
    let failures = 2;
    const { apiPost, fetchMock } = await load(memoryStorage({ token: `Bearer ${session}` }), () => (failures-- > 0 ? offline() : json(200, { success: true, position: 7 })));
    const answer = apiPost('/entry', { distance: 5 });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(299);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(answer).resolves.toEqual({ success: true, position: 7 });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    const keys = keysSent(fetchMock.mock.calls, '/api/entry');
    expect(KEY.test(keys[0]!)).toBe(true);
    expect(keys).toEqual([keys[0], keys[0], keys[0]]);
    expect(new Set(fetchMock.mock.calls.map(([, init]) => init?.body)).size).toBe(1);
  });

  it('gives up after two retries with GENERIC_ERROR, status 0; GETs are not retried', async () => {
    vi.useFakeTimers();
    const { apiPost, apiGet, fetchMock } = await load(memoryStorage({ token: `Bearer ${session}` }), offline);
    const answer = apiPost('/entry', { distance: 5 });
    const settled = expect(answer).rejects.toMatchObject({ code: 'GENERIC_ERROR', status: 0 });
    await vi.advanceTimersByTimeAsync(1_300);
    await settled;
    expect(fetchMock).toHaveBeenCalledTimes(3);
    await expect(apiGet('/team/2')).rejects.toMatchObject({ code: 'GENERIC_ERROR', status: 0 });
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });

  for (const status of [400, 409, 422, 429, 500, 502, 503]) {
    it(`an HTTP ${status} answer is not retried`, async () => {
      const { apiPost, fetchMock } = await load(memoryStorage({ token: `Bearer ${session}` }), () => json(status, { message: 'INVALID_DISTANCE' }));
      await expect(apiPost('/entry', { distance: -1 })).rejects.toMatchObject({ status });
      expect(fetchMock).toHaveBeenCalledTimes(1);
    });
  }

  it('an aborted command is not retried: the abort is rethrown, also when it comes during the pause', async () => {
    vi.useFakeTimers();
    const { apiPost, fetchMock } = await load(memoryStorage({ token: `Bearer ${session}` }), () => json(200, {}));
    fetchMock.mockImplementation(async (_url: string, init?: RequestInit) => {
      if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
      throw new TypeError('Failed to fetch');
    });
    // Aborted before the send: fetch rejects with the abort, never retried.
    const before = new AbortController();
    before.abort();
    await expect(apiPost('/entry', {}, { signal: before.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // Aborted while waiting to retry a network failure: no second send.
    const during = new AbortController();
    const answer = apiPost('/entry', {}, { signal: during.signal });
    const settled = expect(answer).rejects.toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(100);
    during.abort();
    await settled;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('the resend after a 401 refresh carries the same key, and so does a network retry of it', async () => {
    vi.useFakeTimers();
    const { apiPost, fetchMock } = await load(memoryStorage({ token: `Bearer ${session}` }), () => json(500, {}));
    let resends = 0;
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      if (url === '/api/session/refresh') return json(200, { token: renewed });
      const authorization = (init?.headers as Record<string, string>).authorization;
      if (authorization !== `Bearer ${renewed}`) return json(401, { message: 'UNAUTHORIZED' });
      return resends++ === 0 ? offline() : json(200, { success: true });
    });
    const answer = apiPost('/entry', { distance: 5 });
    await vi.advanceTimersByTimeAsync(300);
    await expect(answer).resolves.toEqual({ success: true });
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/entry', '/api/session/refresh', '/api/entry', '/api/entry']);
    const keys = keysSent(fetchMock.mock.calls, '/api/entry');
    expect(KEY.test(keys[0]!)).toBe(true);
    expect(keys).toEqual([keys[0], keys[0], keys[0]]);
    // The next command is another one: another key.
    await apiPost('/entry', { distance: 5 });
    expect(keysSent(fetchMock.mock.calls, '/api/entry')[3]).not.toBe(keys[0]);
  });

  it('without randomUUID (not a secure context) the key is 32 random hex digits', async () => {
    const { newIdempotencyKey } = await load(memoryStorage(), () => json(200, {}));
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: <T extends Uint8Array>(array: T) => real.getRandomValues(array) });
    const first = newIdempotencyKey();
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(newIdempotencyKey()).not.toBe(first);
  });
});
