import type { LoginAnswer } from '@sinilill/contracts';
import { apiPost } from '../../../lib/api-client';
import { usePaymentInfoStore } from '../../../lib/payment-info-store';
import { useSessionStore } from '../../../lib/session-store';

/**
 * POST /api/session/refresh (authenticated): a fresh login token, in the format of /api/login's
 * answer, whose isPaid claim is current. Throws ApiError.
 */
export function refreshSession(): Promise<LoginAnswer> {
  return apiPost<LoginAnswer>('/session/refresh', {});
}

/**
 * After a successful payment: stores a refreshed token (so the session says isPaid and the top
 * bar offers the donate link) and reloads the payment info (so the not-paid banner goes), without
 * a new login. A refused refresh keeps the old token; the payment info decides the banner anyway.
 * Never rejects.
 */
export async function refreshAfterPayment(): Promise<void> {
  try {
    const { token } = await refreshSession();
    useSessionStore.getState().login(token);
  } catch (error) {
    console.warn('POST /api/session/refresh failed:', error);
  }
  await usePaymentInfoStore.getState().load();
}
