/**
 * The refund form's checks, as the server makes them: an amount in EUR with at
 * most two decimals (point or comma), more than 0 (INVALID_AMOUNT) and at most what the order has
 * left to refund (REFUND_EXCEEDS_PAYMENT); empty means all that is left. The server has the last word.
 */
import type { AdminPaymentOrder } from '@sinilill/contracts';
import { eurosToCents } from '@sinilill/domain';

/** What an order has left to refund, EUR cents: 0 unless the provider confirmed it paid. */
export function refundableCents(order: AdminPaymentOrder): number {
  if (order.status !== 'paid') return 0;
  const amount = eurosToCents(order.amount) ?? 0;
  const refunded = eurosToCents(order.refunded) ?? 0;
  return Math.max(0, amount - refunded);
}

/** The verdict on the typed amount: the cents to refund (null: everything left), or the refusal's code. */
export type RefundCheck = { ok: true; cents: number | null } | { ok: false; code: 'INVALID_AMOUNT' | 'REFUND_EXCEEDS_PAYMENT' };

/** Checks the refund form's amount `text` against `leftCents` (see the module's comment). */
export function checkRefundAmount(text: string, leftCents: number): RefundCheck {
  const typed = text.trim();
  if (typed === '') return { ok: true, cents: null };
  const cents = eurosToCents(typed.replace(',', '.'));
  if (cents === null || cents <= 0) return { ok: false, code: 'INVALID_AMOUNT' };
  if (cents > leftCents) return { ok: false, code: 'REFUND_EXCEEDS_PAYMENT' };
  return { ok: true, cents };
}
