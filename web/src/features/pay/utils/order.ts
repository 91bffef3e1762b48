import type { PaymentOrderBody } from '@sinilill/contracts';
import { centsToEuros } from '@sinilill/domain';
import { type Lang, storedFromLang } from '../../../lib/language';

/** The refusals the pay page finds before asking the server, with the server's codes (spec §8). */
export type OrderProblem = 'NOT_SELECTED' | 'AMOUNT_TOO_LOW';

export interface OrderDraft {
  /** The chosen bank's code; null when none is chosen. */
  methodCode: string | null;
  /** The amount in EUR cents; null when the input holds none. */
  cents: number | null;
  /** The least that may be paid, in EUR cents: the fee, or the smallest donation. */
  minCents: number;
  /** Whether a bank must be chosen: for the fee, not for a donation (spec §5). */
  methodRequired: boolean;
}

/** The verdict on a draft: the amount to order, in EUR cents, or the first refusal. */
export type OrderCheck = { ok: true; cents: number } | { ok: false; code: OrderProblem };

/**
 * Checks an order as the server will (spec §5): NOT_SELECTED when a bank is required and none is
 * chosen ("Paying fee without method gives NOT_SELECTED unless already paid"), then
 * AMOUNT_TOO_LOW when the amount is missing or below `minCents` (a custom fee may exceed the fee
 * but not undercut it; a donation is at least 1 EUR). The server checks again and has the last word.
 */
export function checkOrder(draft: OrderDraft): OrderCheck {
  if (draft.methodRequired && !draft.methodCode) return { ok: false, code: 'NOT_SELECTED' };
  if (draft.cents === null || draft.cents < draft.minCents) return { ok: false, code: 'AMOUNT_TOO_LOW' };
  return { ok: true, cents: draft.cents };
}

/**
 * The body of POST /api/payment/order (spec §3 "Payment request"): no billing address,
 * `isPaid` as the page saw it (false: the fee, true: a donation), and the amount twice, as
 * grandTotal and payment.amount, in EUR as the spec writes it (the form's cents → 15,
 * 20.5; the server refuses them unequal: AMOUNT_NOT_MATCH, or with more than two decimals:
 * INVALID_AMOUNT) — the same shape and path as the spec's Montonio-style request.
 * `methodCode` is the chosen bank ('' for none: a donation leaves the bank to the provider's page).
 * `lang`, the page's language, is the language of the provider's pages (sent as stored: est, eng).
 * `forTeam` is a company team's captain paying for every unpaid member at once; sent
 * only when true.
 */
export function paymentOrderBody(order: { isPaid: boolean; country: string; methodCode: string | null; cents: number; lang: Lang; forTeam?: boolean }): PaymentOrderBody {
  return {
    billingAddress: {},
    isPaid: order.isPaid,
    grandTotal: centsToEuros(order.cents),
    payment: {
      method: 'paymentInitiation',
      methodOptions: { preferredCountry: order.country, preferredProvider: order.methodCode ?? '' },
      amount: centsToEuros(order.cents),
    },
    lang: storedFromLang(order.lang),
    ...(order.forTeam ? { forTeam: true } : {}),
  };
}
