/**
 * The payment order aggregate (stream payment-{orderId}, issue 7) as a decider: a participant
 * orders the participation fee or a donation (spec §2 "Payment", §3 payment request, §5, §9), then
 * the payment provider's verified notifications record the outcome.
 *
 * Facts from other streams (the participant's team, birth year and paid flag, the provider's banks
 * for the chosen country) arrive in the command, gathered by the caller; the decider keeps the
 * rules. Money is integer EUR cents.
 *
 * Lifecycle: ordered → succeeded (final: later notifications change nothing, so a repeated or
 * replayed notification records one payment) or → failed → succeeded (a bank's late confirmation
 * still counts, spec §4: up to 72 h).
 */
import { match } from 'ts-pattern';
import type { Decider, DecisionContext } from '../decider';
import { currentEdition } from '../edition';
import type { Edition } from '../edition/types';
import { DomainError } from '../errors';
import type { PaymentEvent, PaymentKind } from '../events';
import { requireId } from '../validation';
import { feeFor, minimumAmountCents } from './fees';
import { orderReference } from './reference';

/** A provider's word on an order, as its adapter reports it. */
export type PaymentStatus = 'PAID' | 'FAILED' | 'PENDING' | 'REFUNDED';

/** The only currency of the event (spec §9 amounts are euros). */
export const PAYMENT_CURRENCY = 'EUR';

/** Order the fee or a donation (spec §7 POST /payment/order). */
export interface OrderPayment {
  type: 'OrderPayment';
  data: {
    /** UUID chosen by the caller. */
    orderId: string;
    participantId: number;
    /** The participant as their stream says now (the caller folds it). */
    participant: { teamId: number; birthYear: number | null; isPaid: boolean };
    kind: PaymentKind;
    /** The request's grandTotal and payment.amount, EUR cents; they must be equal. */
    grandTotalCents: number;
    amountCents: number;
    provider: string;
    country: string;
    /** The chosen bank's code ('' for none). */
    method: string;
    /** The provider's bank codes for `country`; null when the provider has no setup there. */
    countryMethods: readonly string[] | null;
  };
}

/** Record what the provider said about the order (a verified notification or return). */
export interface RecordPaymentOutcome {
  type: 'RecordPaymentOutcome';
  data: {
    orderId: string;
    /** The provider whose notification this is; must be the order's. */
    provider: string;
    status: PaymentStatus;
    /** The amount and currency the notification states; must be the order's. */
    amountCents: number;
    currency: string;
    providerOrderId: string | null;
    /** The provider's own status word (PAID, ABANDONED, VOIDED, …): a failure's reason. */
    providerStatus: string;
  };
}

export type PaymentCommand = OrderPayment | RecordPaymentOutcome;

export interface PaymentState {
  exists: boolean;
  orderId: string | null;
  participantId: number | null;
  teamId: number | null;
  kind: PaymentKind | null;
  amountCents: number;
  feeCents: number;
  provider: string | null;
  reference: string | null;
  status: 'none' | 'ordered' | 'succeeded' | 'failed';
}

const initialPaymentState = (): PaymentState => ({
  exists: false,
  orderId: null,
  participantId: null,
  teamId: null,
  kind: null,
  amountCents: 0,
  feeCents: 0,
  provider: null,
  reference: null,
  status: 'none',
});

function requireCents(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new DomainError('INVALID_REQUEST', `${field} must be a whole number of cents, 0 or more`);
  }
  return value;
}

function orderPayment(command: OrderPayment, state: PaymentState, ctx: DecisionContext, edition: Edition): PaymentEvent[] {
  const c = command.data;
  const participantId = requireId(c.participantId, 'participantId');
  if (state.exists) throw new DomainError('ALREADY_EXISTS', `order ${c.orderId} exists`);
  if (ctx.actor.role !== 'USER' || ctx.actor.participantId !== participantId) {
    throw new DomainError('FORBIDDEN', 'a participant pays for themselves only');
  }
  const grandTotalCents = requireCents(c.grandTotalCents, 'grandTotal');
  const amountCents = requireCents(c.amountCents, 'payment.amount');
  // Spec §5: the fee needs a bank; a donation may leave the choice to the provider's page.
  const method = c.method.trim();
  const selected = c.countryMethods !== null
    && (method === '' ? c.kind === 'donation' : c.countryMethods.includes(method));
  if (!selected) throw new DomainError('NOT_SELECTED', `no bank ${JSON.stringify(method)} in ${c.country}`);
  if (grandTotalCents !== amountCents) throw new DomainError('AMOUNT_NOT_MATCH', `${grandTotalCents} ≠ ${amountCents}`);
  if (c.kind === 'fee' && c.participant.isPaid) throw new DomainError('ALREADY_PAID_FOR');
  const feeCents = feeFor(c.participant.birthYear, edition);
  const minimum = minimumAmountCents(c.kind, feeCents, edition);
  if (amountCents < minimum) throw new DomainError('AMOUNT_TOO_LOW', `${amountCents} < ${minimum}`);
  return [{
    type: 'PaymentOrdered',
    data: {
      orderId: c.orderId,
      participantId,
      teamId: requireId(c.participant.teamId, 'teamId'),
      kind: c.kind,
      amountCents,
      feeCents,
      provider: c.provider,
      country: c.country,
      method,
      reference: orderReference(c.orderId),
      orderedAt: ctx.now,
    },
  }];
}

function recordOutcome(command: RecordPaymentOutcome, state: PaymentState, ctx: DecisionContext): PaymentEvent[] {
  const c = command.data;
  if (ctx.actor.role !== 'SYSTEM') throw new DomainError('FORBIDDEN', 'only the payment provider reports outcomes');
  if (!state.exists) throw new DomainError('NOT_FOUND', `order ${c.orderId}`);
  if (c.provider !== state.provider) throw new DomainError('INVALID_NOTIFICATION', `order of ${state.provider}, notified by ${c.provider}`);
  if (c.currency !== PAYMENT_CURRENCY || c.amountCents !== state.amountCents) {
    throw new DomainError('INVALID_NOTIFICATION', `notified ${c.amountCents} ${c.currency}, ordered ${state.amountCents} ${PAYMENT_CURRENCY}`);
  }
  if (state.status === 'succeeded') return [];
  const common = {
    orderId: state.orderId!,
    participantId: state.participantId!,
    teamId: state.teamId!,
    provider: state.provider,
    providerOrderId: c.providerOrderId,
  };
  if (c.status === 'PAID') {
    return state.kind === 'fee'
      ? [{ type: 'PaymentSucceeded', data: { ...common, amountCents: state.amountCents, succeededAt: ctx.now } }]
      : [{ type: 'DonationReceived', data: { ...common, amountCents: state.amountCents, receivedAt: ctx.now } }];
  }
  if (c.status === 'FAILED' && state.status !== 'failed') {
    return [{ type: 'PaymentFailed', data: { ...common, reason: c.providerStatus, failedAt: ctx.now } }];
  }
  // PENDING (the bank has not confirmed yet), a repeated failure, REFUNDED (not handled yet).
  return [];
}

function evolvePayment(state: PaymentState, event: PaymentEvent): PaymentState {
  return match(event)
    .with({ type: 'PaymentOrdered' }, ({ data }) => ({
      ...state,
      exists: true,
      orderId: data.orderId,
      participantId: data.participantId,
      teamId: data.teamId,
      kind: data.kind,
      amountCents: data.amountCents,
      feeCents: data.feeCents,
      provider: data.provider,
      reference: data.reference,
      status: 'ordered' as const,
    }))
    .with({ type: 'PaymentSucceeded' }, { type: 'DonationReceived' }, () => ({ ...state, status: 'succeeded' as const }))
    .with({ type: 'PaymentFailed' }, () => ({ ...state, status: 'failed' as const }))
    .exhaustive();
}

/**
 * The payment decider for an edition (its fees apply).
 *
 * OrderPayment → [PaymentOrdered] (orderedAt = ctx.now, reference = orderReference(orderId),
 * feeCents = feeFor(birth year)). Checked in this order (issue 7): the actor is a USER paying
 * for their own participant (FORBIDDEN); the bank: the country is in the provider's setup and the
 * method is one of its banks, or empty for a donation (NOT_SELECTED, spec §5); grandTotal equals
 * payment.amount (AMOUNT_NOT_MATCH); a fee order by a participant already paid (ALREADY_PAID_FOR);
 * the amount at least the fee (1500 or 500 cents) or, for a donation, donationMinCents = 100
 * (AMOUNT_TOO_LOW). A second order with the same id → ALREADY_EXISTS.
 *
 * RecordPaymentOutcome (SYSTEM only, FORBIDDEN otherwise): unknown order → NOT_FOUND; another
 * provider, currency or amount than the order's → INVALID_NOTIFICATION. Then: a succeeded order →
 * [] (final); PAID → [PaymentSucceeded] for a fee, [DonationReceived] for a donation; FAILED →
 * [PaymentFailed] with the provider's status as the reason, [] when already failed; PENDING and
 * REFUNDED → [].
 */
export function createPaymentDecider(edition: Edition): Decider<PaymentCommand, PaymentEvent, PaymentState> {
  return {
    initialState: initialPaymentState,
    decide: (command, state, ctx) =>
      match(command)
        .with({ type: 'OrderPayment' }, (c) => orderPayment(c, state, ctx, edition))
        .with({ type: 'RecordPaymentOutcome' }, (c) => recordOutcome(c, state, ctx))
        .exhaustive(),
    evolve: evolvePayment,
  };
}

/** The payment decider of the current edition (see createPaymentDecider). */
export const paymentDecider: Decider<PaymentCommand, PaymentEvent, PaymentState> = createPaymentDecider(currentEdition);
