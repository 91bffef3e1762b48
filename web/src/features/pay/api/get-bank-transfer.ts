import type { BankTransferAnswer } from '@sinilill/contracts';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/payment/banktransfer (authenticated; spec §2 "Payment" manual bank transfer):
 * the account's name and IBAN from the server's configuration, the payment description
 * personalised for the caller, the caller's fee in EUR and whether the details are only the
 * development example. Throws ApiError.
 */
export function getBankTransfer(signal?: AbortSignal): Promise<BankTransferAnswer> {
  return apiGet<BankTransferAnswer>('/payment/banktransfer', { signal });
}
