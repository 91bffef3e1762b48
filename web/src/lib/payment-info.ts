/**
 * The caller's payment info (spec §3 "Payment info", §7 GET /payment/info), shared by the frame
 * (the not-paid banner, the donate link), the login page and the payment pages, as a read of the
 * query cache (lib/query-client.ts) keyed by the session's token. It follows the session: read
 * at app start when a token is stored (site-header.tsx), again whenever the stored token changes
 * (a login, a refreshed token, another tab's login), and forgotten when the session ends
 * (logout, a 401/403, expiry).
 */
import type { PaymentInfoAnswer } from '@sinilill/contracts';
import { keepPreviousData, queryOptions, useQuery, type QueryObserverOptions, type QueryObserverResult } from '@tanstack/react-query';
import { apiGet } from './api-client';
import { queryClient, queryKeys } from './query-client';
import type { SessionIdentity } from './session';
import { useSessionStore } from './session-store';

type PaymentInfoKey = ReturnType<typeof queryKeys.paymentInfo>;

/** GET /api/payment/info for the session of `token`: isPaid, isChild and the fee in EUR cents. */
function paymentInfoQuery(token: string | null) {
  return queryOptions({
    queryKey: queryKeys.paymentInfo(token),
    queryFn: ({ signal }) => apiGet<PaymentInfoAnswer>('/payment/info', { signal }),
    enabled: token !== null,
  });
}

/** The payment info as the pages show it. */
export interface PaymentInfoView {
  /**
   * What GET /api/payment/info answered for the current session. Null until it is loaded, when
   * nobody is logged in, and after a failed load (spec §7: "failure resets to empty info"). The
   * info of the session's previous token stays shown until the new answer replaces it, so a
   * refreshed token does not make the banner blink.
   */
  info: PaymentInfoAnswer | null;
  /** idle: nothing asked (logged out); error: the last load failed (info is null). */
  status: 'idle' | 'loading' | 'ready' | 'error';
}

/** What a page observes for the session of `token` (usePaymentInfo's query). */
export function paymentInfoObserverOptions(token: string | null): QueryObserverOptions<PaymentInfoAnswer, Error, PaymentInfoAnswer, PaymentInfoAnswer, PaymentInfoKey> {
  return { ...paymentInfoQuery(token), placeholderData: keepPreviousData };
}

/** The view of an observed read (paymentInfoObserverOptions) for the session of `token`. */
export function paymentInfoView(
  token: string | null,
  result: Pick<QueryObserverResult<PaymentInfoAnswer>, 'status' | 'data' | 'isPlaceholderData' | 'isFetching'>,
): PaymentInfoView {
  if (token === null) return { info: null, status: 'idle' };
  if (result.status === 'error') return { info: null, status: 'error' };
  if (result.status === 'success' && !result.isPlaceholderData && !result.isFetching) return { info: result.data ?? null, status: 'ready' };
  return { info: result.data ?? null, status: 'loading' };
}

/** The current session's payment info, read when first needed and on each page that mounts it. */
export function usePaymentInfo(): PaymentInfoView {
  const token = useSessionStore((s) => s.token);
  return paymentInfoView(token, useQuery(paymentInfoObserverOptions(token)));
}

/**
 * Reads the info for the session as it is now; resolves to it, or to null when nobody is logged
 * in, the call failed, or the session changed meanwhile. Never rejects. A second call while one
 * for the same token is under way shares it.
 */
export async function loadPaymentInfo(): Promise<PaymentInfoAnswer | null> {
  const { token } = useSessionStore.getState();
  if (token === null) return null;
  try {
    const info = await queryClient.fetchQuery({ ...paymentInfoQuery(token), staleTime: 0 });
    return useSessionStore.getState().token === token ? info : null;
  } catch {
    return null;
  }
}

// The info follows the session: a new token (login, refresh, another tab) reads it again, no
// token (logout, 401/403, expiry) forgets it.
useSessionStore.subscribe((session, previous) => {
  if (session.token === previous.token) return;
  if (session.token === null) queryClient.removeQueries({ queryKey: ['payment-info'] });
  else void loadPaymentInfo();
});

/**
 * Whether the fee is paid (spec §4: "Not paid shows the banner; paid shows donate"): the payment
 * info when it is loaded, else the login token's isPaid claim (while the info loads, or when it
 * could not be loaded).
 */
export function isPaidNow(info: PaymentInfoAnswer | null, identity: Pick<SessionIdentity, 'isPaid'>): boolean {
  return info?.isPaid ?? identity.isPaid;
}

/** isPaidNow for the current session and payment info, as a React hook. */
export function useIsPaid(): boolean {
  const { info } = usePaymentInfo();
  const tokenSaysPaid = useSessionStore((s) => s.identity.isPaid);
  return isPaidNow(info, { isPaid: tokenSaysPaid });
}
