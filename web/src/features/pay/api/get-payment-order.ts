import type { PaymentOrderStatusAnswer } from '@sinilill/contracts';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/payment/order/{reference} (authenticated): the caller's own order as the
 * server knows it — status pending/paid/failed, amount in EUR, kind fee/donation. Throws ApiError:
 * NOT_FOUND for an unknown reference or another person's, INVALID_REQUEST for one that is not
 * 8 hexadecimal digits.
 */
export function getPaymentOrder(reference: string, signal?: AbortSignal): Promise<PaymentOrderStatusAnswer> {
  return apiGet<PaymentOrderStatusAnswer>(`/payment/order/${encodeURIComponent(reference)}`, { signal });
}
