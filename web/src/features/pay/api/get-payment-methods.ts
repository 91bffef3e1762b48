import type { PaymentMethodsAnswer } from '@sinilill/contracts';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/payment/methods (spec §7, authenticated): the provider's countries in its own order,
 * each with its banks (code, name, logoUrl, uiPosition). Throws ApiError.
 */
export function getPaymentMethods(signal?: AbortSignal): Promise<PaymentMethodsAnswer> {
  return apiGet<PaymentMethodsAnswer>('/payment/methods', { signal });
}
