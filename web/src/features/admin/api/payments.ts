/**
 * The admin console's payment calls: a participant's orders and an order's
 * refund. Amounts are EUR on the wire (numbers with at most two decimals), cents in the console.
 */
import type { AdminParticipantPaymentsAnswer, RefundAnswer, RefundBody } from '@sinilill/contracts';
import { apiGet, apiPost } from '../../../lib/api-client';
import { minPositionHeaders } from '../../../lib/read-your-writes';
import type { AdminReadOptions } from './get-admin-data';

/**
 * GET /api/admin/participant/{id}/payments: the orders the participant paid and the team fees that
 * covered them, paid ones first. Throws ApiError (UNAUTHORIZED, FORBIDDEN).
 */
export function getParticipantPayments(participantId: number, options: AdminReadOptions = {}): Promise<AdminParticipantPaymentsAnswer> {
  return apiGet<AdminParticipantPaymentsAnswer>(`/admin/participant/${participantId}/payments`, {
    signal: options.signal, headers: minPositionHeaders(options.minPosition),
  });
}

/**
 * POST /api/admin/payment/{orderId}/refund {amount?, reason}: records a refund the organiser made
 * at the bank or the payment provider. `idempotencyKey` (one per confirmed refund) makes a
 * resent request count once. Throws ApiError: REFUND_EXCEEDS_PAYMENT, ORDER_NOT_PAID,
 * INVALID_AMOUNT, VALUE_TOO_LONG, NOT_FOUND, FORBIDDEN.
 */
export function refundOrder(orderId: string, body: RefundBody, idempotencyKey: string): Promise<RefundAnswer> {
  return apiPost<RefundAnswer>(`/admin/payment/${encodeURIComponent(orderId)}/refund`, body, { headers: { 'idempotency-key': idempotencyKey } });
}
