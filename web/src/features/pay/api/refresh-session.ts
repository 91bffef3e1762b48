import { usePaymentInfoStore } from '../../../lib/payment-info-store';
import { useSessionStore } from '../../../lib/session-store';

/**
 * After a successful payment: stores a refreshed token (so the session says isPaid and the top
 * bar offers the donate link) and reloads the payment info (so the not-paid banner goes), without
 * a new login. The refresh is the session store's (POST /api/session/refresh with the refresh
 * cookie, one at a time: a refresh cookie works once); a refused one ends the session,
 * one that fails for the network keeps the old token. Never rejects.
 */
export async function refreshAfterPayment(): Promise<void> {
  if (!(await useSessionStore.getState().refresh())) console.warn('POST /api/session/refresh failed');
  await usePaymentInfoStore.getState().load();
}
