import type { PaymentOrderAnswer, PaymentOrderBody } from '@sinilill/contracts';
import { apiPost } from '../../../lib/api-client';

/**
 * POST /api/payment/order (spec §3 "Payment request", §7): orders the fee (isPaid false) or a
 * donation (isPaid true), amounts in EUR; answers the provider's checkout address, where
 * the browser goes next. Throws ApiError: NOT_SELECTED, AMOUNT_TOO_LOW, AMOUNT_NOT_MATCH,
 * ALREADY_PAID_FOR (spec §8), INVALID_AMOUNT.
 */
export function createPaymentOrder(body: PaymentOrderBody): Promise<PaymentOrderAnswer> {
  return apiPost<PaymentOrderAnswer>('/payment/order', body);
}
