/**
 * The payment order aggregate (stream payment-{orderId}) as a decider: a participant
 * orders the participation fee or a donation (spec §2 "Payment", §3 payment request, §5, §9), then
 * the payment provider's verified notifications record the outcome.
 *
 * Facts from other streams (the participant's team, birth year and paid flag, the provider's banks
 * for the chosen country) arrive in the command, gathered by the caller; the decider keeps the
 * rules. Money is integer EUR cents.
 *
 * Lifecycle: ordered → succeeded (final: later notifications change nothing, so a repeated or
 * replayed notification records one payment) or → failed → succeeded (a bank's late confirmation
 * still counts, spec §4: up to 72 h). A succeeded order may be refunded by an administrator, in
 * parts or whole: refunds add up to at most the amount paid.
 */
import { match } from 'ts-pattern';
import { isPrivileged } from '../actors';
import { editionOfDecision, type Decider, type DecisionContext } from '../decider';
import type { Edition } from '../edition/types';
import { DomainError } from '../errors';
import type { PaymentEvent, PaymentKind } from '../events';
import { requireId, requireText } from '../validation';
import { minimumAmountCents, participantFee, teamFeeCents } from './fees';
import { orderReference } from './reference';

/** A provider's word on an order, as its adapter reports it. */
export type PaymentStatus = 'PAID' | 'FAILED' | 'PENDING' | 'REFUNDED';

/** The only currency of the event (spec §9 amounts are euros). */
export const PAYMENT_CURRENCY = 'EUR';

/**
 * What a team fee order needs to know of the payer's team, gathered by the
 * caller from the team's and the members' streams.
 */
export interface TeamFeeFacts {
  /** The team is a company team (TeamRegistered.company). */
  company: boolean;
  /** The payer is the team's captain (ParticipantRegistered.isCaptain). */
  isCaptain: boolean;
  /** The team's live members whose fee is not paid yet, the payer included when unpaid. */
  unpaidMemberIds: readonly number[];
}

/** Order the fee or a donation (spec §7 POST /payment/order). */
export interface OrderPayment {
  type: 'OrderPayment';
  data: {
    /** UUID chosen by the caller. */
    orderId: string;
    participantId: number;
    /**
     * The participant as their stream says now (the caller folds it); `company`: their team is a
     * company team (its fee is fees.companyPerPersonCents whatever the birth year).
     */
    participant: { teamId: number; birthYear: number | null; isPaid: boolean; company?: boolean };
    /**
     * Set for a team fee (a company team's captain pays for every unpaid member at
     * once); absent for the payer's own fee or a donation.
     */
    team?: TeamFeeFacts;
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

/**
 * An administrator records a refund of a paid order: `amountCents` null refunds
 * what is left (the whole order when nothing was refunded before).
 */
export interface RefundPayment {
  type: 'RefundPayment';
  data: {
    orderId: string;
    /** EUR cents, more than 0; null: everything not yet refunded. */
    amountCents: number | null;
    /** Why (required, at most REFUND_REASON_MAX characters). */
    reason: string;
  };
}
export type PaymentCommand = OrderPayment | RecordPaymentOutcome | RefundPayment;

/** The longest refund reason, characters (as a parked event's skip reason). */
export const REFUND_REASON_MAX = 500;

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
  /** A team fee's covered participants (PaymentOrdered.covers); absent: the payer alone. */
  covers?: readonly number[];
  /** Refunded so far, EUR cents (PaymentRefunded); absent: nothing. */
  refundedCents?: number;
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
  const { feeCents, covers } = c.team ? teamFee(c, c.team, amountCents, edition) : ownFee(c, amountCents, edition);
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
      ...(covers ? { covers } : {}),
    },
  }];
}

/**
 * The payer's own fee or donation: not paid already for a fee (ALREADY_PAID_FOR), at least the
 * minimum of its kind (AMOUNT_TOO_LOW). @returns the fee that applies to the payer, EUR cents.
 */
function ownFee(c: OrderPayment['data'], amountCents: number, edition: Edition): { feeCents: number; covers?: undefined } {
  if (c.kind === 'fee' && c.participant.isPaid) throw new DomainError('ALREADY_PAID_FOR');
  const feeCents = participantFee(c.participant.birthYear, c.participant.company === true, edition);
  const minimum = minimumAmountCents(c.kind, feeCents, edition);
  if (amountCents < minimum) throw new DomainError('AMOUNT_TOO_LOW', `${amountCents} < ${minimum}`);
  return { feeCents };
}

/**
 * A company team's fee for every unpaid member at once, after the common checks
 * (actor, bank, grandTotal): a company team (INVALID_REQUEST), ordered by its captain (FORBIDDEN),
 * someone left to pay for (ALREADY_PAID_FOR), at least fees.companyPerPersonCents × unpaid members
 * (AMOUNT_TOO_LOW). @returns the per-person fee and the covered participant ids, ascending.
 */
function teamFee(c: OrderPayment['data'], team: TeamFeeFacts, amountCents: number, edition: Edition): { feeCents: number; covers: number[] } {
  if (c.kind !== 'fee') throw new DomainError('INVALID_REQUEST', 'a team pays fees, not donations');
  if (!team.company) throw new DomainError('INVALID_REQUEST', 'only a company team pays for its members at once');
  if (!team.isCaptain) throw new DomainError('FORBIDDEN', 'only the captain pays for the team');
  const covers = [...new Set(team.unpaidMemberIds.map((id) => requireId(id, 'unpaidMemberIds')))].sort((a, b) => a - b);
  if (covers.length === 0) throw new DomainError('ALREADY_PAID_FOR', 'every member has paid');
  const minimum = teamFeeCents(covers.length, edition);
  if (amountCents < minimum) throw new DomainError('AMOUNT_TOO_LOW', `${amountCents} < ${minimum} for ${covers.length} members`);
  return { feeCents: edition.fees.companyPerPersonCents, covers };
}

/**
 * An administrator's refund: ADMIN or SYSTEM (FORBIDDEN), a known order
 * (NOT_FOUND), confirmed paid (ORDER_NOT_PAID), an amount more than 0 (INVALID_AMOUNT) and at most
 * what is left unrefunded (REFUND_EXCEEDS_PAYMENT; a fully refunded order has nothing left), a
 * reason (INVALID_REQUEST when blank, VALUE_TOO_LONG over REFUND_REASON_MAX).
 */
function refundPayment(command: RefundPayment, state: PaymentState, ctx: DecisionContext): PaymentEvent[] {
  const c = command.data;
  if (!isPrivileged(ctx.actor)) throw new DomainError('FORBIDDEN', 'only an administrator records refunds');
  if (!state.exists) throw new DomainError('NOT_FOUND', `order ${c.orderId}`);
  if (state.status !== 'succeeded') throw new DomainError('ORDER_NOT_PAID', `order ${c.orderId} is ${state.status}`);
  const refundedBefore = state.refundedCents ?? 0;
  const left = state.amountCents - refundedBefore;
  const amountCents = c.amountCents === null ? left : requireCents(c.amountCents, 'amount');
  if (c.amountCents !== null && amountCents === 0) throw new DomainError('INVALID_AMOUNT', 'a refund is more than 0');
  if (amountCents > left || left === 0) throw new DomainError('REFUND_EXCEEDS_PAYMENT', `${amountCents} > ${left} left of ${state.amountCents}`);
  const reason = requireText(c.reason, 'reason', { max: REFUND_REASON_MAX, required: true });
  const refundedCents = refundedBefore + amountCents;
  return [{
    type: 'PaymentRefunded',
    data: {
      orderId: state.orderId!,
      participantId: state.participantId!,
      teamId: state.teamId!,
      kind: state.kind!,
      amountCents,
      refundedCents,
      full: refundedCents === state.amountCents,
      reason,
      refundedAt: ctx.now,
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
  // PENDING (the bank has not confirmed yet), a repeated failure, REFUNDED (a provider's refund
  // is recorded by an administrator instead: RefundPayment).
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
      covers: data.covers,
    }))
    .with({ type: 'PaymentSucceeded' }, { type: 'DonationReceived' }, () => ({ ...state, status: 'succeeded' as const }))
    .with({ type: 'PaymentFailed' }, () => ({ ...state, status: 'failed' as const }))
    .with({ type: 'PaymentRefunded' }, ({ data }) => ({ ...state, refundedCents: data.refundedCents }))
    .exhaustive();
}

/**
 * The payment decider for an edition (its fees apply).
 *
 * OrderPayment → [PaymentOrdered] (orderedAt = ctx.now, reference = orderReference(orderId),
 * feeCents = feeFor(birth year)). Checked in this order: the actor is a USER paying
 * for their own participant (FORBIDDEN); the bank: the country is in the provider's setup and the
 * method is one of its banks, or empty for a donation (NOT_SELECTED, spec §5); grandTotal equals
 * payment.amount (AMOUNT_NOT_MATCH); a fee order by a participant already paid (ALREADY_PAID_FOR);
 * the amount at least the fee (participantFee: 1500 or 500 cents by birth year, the company fee
 * 1500 in a company team) or, for a donation, donationMinCents = 100 (AMOUNT_TOO_LOW). A second
 * order with the same id → ALREADY_EXISTS.
 *
 * A team fee (`team` given) → [PaymentOrdered] with `covers` (the unpaid
 * members, ascending) and feeCents = fees.companyPerPersonCents: after the actor, bank and
 * grandTotal checks, a donation or a team that is no company team → INVALID_REQUEST, a payer who
 * is not the captain → FORBIDDEN, nobody left unpaid → ALREADY_PAID_FOR, under
 * companyPerPersonCents × unpaid members → AMOUNT_TOO_LOW. The captain's own paid flag does not
 * matter (a captain who paid may pay for members who joined later).
 *
 * RefundPayment (ADMIN or SYSTEM, FORBIDDEN otherwise): unknown order → NOT_FOUND; not
 * confirmed paid → ORDER_NOT_PAID; an amount of 0 → INVALID_AMOUNT; more than what is left
 * unrefunded → REFUND_EXCEEDS_PAYMENT; blank reason → INVALID_REQUEST, over 500 characters →
 * VALUE_TOO_LONG. → [PaymentRefunded] with the running total and `full` once it reaches the
 * order's amount.
 *
 * RecordPaymentOutcome (SYSTEM only, FORBIDDEN otherwise): unknown order → NOT_FOUND; another
 * provider, currency or amount than the order's → INVALID_NOTIFICATION. Then: a succeeded order →
 * [] (final); PAID → [PaymentSucceeded] for a fee, [DonationReceived] for a donation; FAILED →
 * [PaymentFailed] with the provider's status as the reason, [] when already failed; PENDING and
 * REFUNDED → [].
 */
export function createPaymentDecider(fixed?: Edition): Decider<PaymentCommand, PaymentEvent, PaymentState> {
  return {
    initialState: initialPaymentState,
    decide: (command, state, ctx) =>
      match(command)
        .with({ type: 'OrderPayment' }, (c) => orderPayment(c, state, ctx, editionOfDecision(fixed, ctx)))
        .with({ type: 'RecordPaymentOutcome' }, (c) => recordOutcome(c, state, ctx))
        .with({ type: 'RefundPayment' }, (c) => refundPayment(c, state, ctx))
        .exhaustive(),
    evolve: evolvePayment,
  };
}

/** The payment decider of the decision's edition, the context's (see createPaymentDecider). */
export const paymentDecider: Decider<PaymentCommand, PaymentEvent, PaymentState> = createPaymentDecider();
