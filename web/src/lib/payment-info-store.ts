/**
 * The caller's payment info (spec §3 "Payment info", §7 GET /payment/info), shared by the frame
 * (the not-paid banner, the donate link), the login page and the payment pages. It follows the
 * session: loaded at app start when a token is stored (site-header.tsx), again whenever the
 * stored token changes (a login, a refreshed token, another tab's login), and cleared when the
 * session ends (logout, a 401/403, expiry).
 */
import type { PaymentInfoAnswer } from '@sinilill/contracts';
import { create } from 'zustand';
import { apiGet } from './api-client';
import type { SessionIdentity } from './session';
import { useSessionStore } from './session-store';

interface PaymentInfoState {
  /**
   * What GET /api/payment/info answered for the current session: isPaid, isChild and the fee in
   * EUR cents. Null until it is loaded, when nobody is logged in, and after a failed load
   * (spec §7: "failure resets to empty info").
   */
  info: PaymentInfoAnswer | null;
  /** idle: nothing asked (logged out); error: the last load failed (info is null). */
  status: 'idle' | 'loading' | 'ready' | 'error';
  /**
   * Loads the info for the session as it is now; resolves to it, or to null when nobody is
   * logged in, the call failed, or the session changed meanwhile. Never rejects. A second call
   * while one for the same token is under way shares it. The info shown stays until the answer
   * replaces it, so a reload does not make the banner blink.
   */
  load: () => Promise<PaymentInfoAnswer | null>;
  /** Forgets the info (the session ended). */
  clear: () => void;
}

/** The load under way, for its token: a second load() for the same token shares it. */
let inflight: { token: string; promise: Promise<PaymentInfoAnswer | null> } | null = null;

export const usePaymentInfoStore = create<PaymentInfoState>()((set) => ({
  info: null,
  status: 'idle',
  load: () => {
    const { token } = useSessionStore.getState();
    if (token === null) {
      usePaymentInfoStore.getState().clear();
      return Promise.resolve(null);
    }
    if (inflight?.token === token) return inflight.promise;
    set({ status: 'loading' });
    // Only the answer to the latest load, for the session that is still there, is kept.
    const current = () => inflight?.promise === promise && useSessionStore.getState().token === token;
    const promise: Promise<PaymentInfoAnswer | null> = apiGet<PaymentInfoAnswer>('/payment/info')
      .then(
        (info) => {
          if (!current()) return null;
          set({ info, status: 'ready' });
          return info;
        },
        () => {
          if (current()) set({ info: null, status: 'error' });
          return null;
        },
      )
      .finally(() => {
        if (inflight?.promise === promise) inflight = null;
      });
    inflight = { token, promise };
    return promise;
  },
  clear: () => {
    inflight = null;
    set({ info: null, status: 'idle' });
  },
}));

// The info follows the session: a new token (login, refresh, another tab) loads it again, no
// token (logout, 401/403, expiry) clears it.
useSessionStore.subscribe((session, previous) => {
  if (session.token === previous.token) return;
  if (session.token === null) usePaymentInfoStore.getState().clear();
  else void usePaymentInfoStore.getState().load();
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
  const info = usePaymentInfoStore((s) => s.info);
  const tokenSaysPaid = useSessionStore((s) => s.identity.isPaid);
  return isPaidNow(info, { isPaid: tokenSaysPaid });
}
