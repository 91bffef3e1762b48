import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt } from './test-jwt';

const unpaidToken = fakeJwt({ userId: 'u1', fullName: 'Jaan Tamm', participantId: 1, teamId: 2, isPaid: false });
const paidToken = fakeJwt({ userId: 'u1', fullName: 'Jaan Tamm', participantId: 1, teamId: 2, isPaid: true });

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fetch whose answers the test releases one by one, in any order. */
function controlledFetch() {
  const pending: { url: string; release: (response: Response) => void }[] = [];
  const fetchMock = vi.fn(
    (url: string) => new Promise<Response>((resolve) => pending.push({ url, release: resolve })),
  );
  return { fetchMock, pending };
}

/**
 * A fresh session store, query cache and payment info (logged out: unit tests have no
 * localStorage), with `view()`: what a page showing the payment info sees now (the observer that
 * usePaymentInfo subscribes, following the session's token).
 */
async function load() {
  vi.resetModules();
  const { fetchMock, pending } = controlledFetch();
  vi.stubGlobal('fetch', fetchMock);
  const { QueryObserver } = await import('@tanstack/react-query');
  const { useSessionStore } = await import('./session-store');
  const { queryClient } = await import('./query-client');
  const { isPaidNow, loadPaymentInfo, paymentInfoObserverOptions, paymentInfoView } = await import('./payment-info');
  const observer = new QueryObserver(queryClient, paymentInfoObserverOptions(useSessionStore.getState().token));
  const unsubscribe = observer.subscribe(() => undefined);
  const stopFollowing = useSessionStore.subscribe((session) => observer.setOptions(paymentInfoObserverOptions(session.token)));
  stops.push(() => {
    unsubscribe();
    stopFollowing();
    queryClient.clear();
  });
  const view = () => paymentInfoView(useSessionStore.getState().token, observer.getCurrentResult());
  return { useSessionStore, loadPaymentInfo, view, isPaidNow, fetchMock, pending };
}

const stops: (() => void)[] = [];

/** Lets the cache's promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('payment info', () => {
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
    vi.unstubAllGlobals();
  });

  it('given nobody is logged in, when loaded, then it asks nothing and stays empty', async () => {
    const { loadPaymentInfo, view, fetchMock } = await load();
    await expect(loadPaymentInfo()).resolves.toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(view()).toEqual({ info: null, status: 'idle' });
  });

  it('given a login, then it loads GET /api/payment/info with the new token, once', async () => {
    const { useSessionStore, loadPaymentInfo, view, fetchMock, pending } = await load();
    useSessionStore.getState().login(unpaidToken);
    // The login page asks too: the same call is shared.
    const asked = loadPaymentInfo();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(pending[0]?.url).toBe('/api/payment/info');
    expect(view().status).toBe('loading');
    pending[0]?.release(json(200, { isPaid: false, isChild: true, feeCents: 500 }));
    await expect(asked).resolves.toEqual({ isPaid: false, isChild: true, feeCents: 500 });
    expect(view()).toEqual({ status: 'ready', info: { isPaid: false, isChild: true, feeCents: 500 } });
  });

  it('given the call fails, then the info is empty (spec §7 "failure resets to empty info")', async () => {
    const { useSessionStore, loadPaymentInfo, view, pending } = await load();
    useSessionStore.getState().login(unpaidToken);
    pending[0]?.release(json(200, { isPaid: false, isChild: false, feeCents: 1500 }));
    await settle();
    const again = loadPaymentInfo();
    // Still shown while the reload is under way.
    expect(view().info).toEqual({ isPaid: false, isChild: false, feeCents: 1500 });
    pending[1]?.release(json(500, { message: 'GENERIC_ERROR' }));
    await expect(again).resolves.toBeNull();
    expect(view()).toEqual({ info: null, status: 'error' });
  });

  it('given a logout, then the info is cleared and a late answer is dropped', async () => {
    const { useSessionStore, view, pending } = await load();
    useSessionStore.getState().login(unpaidToken);
    useSessionStore.getState().logout();
    expect(view()).toEqual({ info: null, status: 'idle' });
    pending[0]?.release(json(200, { isPaid: false, isChild: false, feeCents: 1500 }));
    await settle();
    expect(view()).toEqual({ info: null, status: 'idle' });
  });

  it('given a refreshed token while the first load is under way, then only the newer answer counts', async () => {
    const { useSessionStore, view, pending } = await load();
    useSessionStore.getState().login(unpaidToken);
    useSessionStore.getState().login(paidToken);
    expect(pending).toHaveLength(2);
    pending[1]?.release(json(200, { isPaid: true, isChild: false, feeCents: 1500 }));
    await settle();
    pending[0]?.release(json(200, { isPaid: false, isChild: false, feeCents: 1500 }));
    await settle();
    expect(view().info?.isPaid).toBe(true);
  });

  it('given a refreshed token, then the info of the old one stays shown until the new answer', async () => {
    const { useSessionStore, view, pending } = await load();
    useSessionStore.getState().login(unpaidToken);
    pending[0]?.release(json(200, { isPaid: false, isChild: false, feeCents: 1500 }));
    await settle();
    useSessionStore.getState().login(paidToken);
    expect(view()).toEqual({ info: { isPaid: false, isChild: false, feeCents: 1500 }, status: 'loading' });
    pending[1]?.release(json(200, { isPaid: true, isChild: false, feeCents: 1500 }));
    await settle();
    expect(view()).toEqual({ info: { isPaid: true, isChild: false, feeCents: 1500 }, status: 'ready' });
  });

  it('isPaidNow: the payment info when loaded, else the token claim', async () => {
    const { isPaidNow } = await load();
    expect(isPaidNow({ isPaid: true, isChild: false, feeCents: 1500 }, { isPaid: false })).toBe(true);
    expect(isPaidNow({ isPaid: false, isChild: false, feeCents: 1500 }, { isPaid: true })).toBe(false);
    expect(isPaidNow(null, { isPaid: true })).toBe(true);
    expect(isPaidNow(null, { isPaid: false })).toBe(false);
  });
});
