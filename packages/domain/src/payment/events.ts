/**
 * The events of stream `payment-{orderId}` (payment/decider.ts decides them): ids and EUR cents
 * only, never personal data. The union of all events and their registry are in ../events.ts.
 */

/** What a payment order pays: the participation fee (spec §9) or a donation (spec §2 "donate"). */
export type PaymentKind = 'fee' | 'donation';

/**
 * A participant ordered a payment through the payment provider (spec §7 POST /payment/order):
 * the provider's checkout comes next. Amounts in EUR cents.
 */
export interface PaymentOrdered {
  type: 'PaymentOrdered';
  data: {
    /** UUID; also the provider's merchant reference. */
    orderId: string;
    participantId: number;
    /** The participant's team when ordering (fundraising per team counts it there). */
    teamId: number;
    kind: PaymentKind;
    /** What the payer pays, EUR cents (a fee order may exceed the fee: a custom amount, spec §2). */
    amountCents: number;
    /**
     * The fee per person at ordering time, EUR cents: by birth year (1500 or 500 in 2025), or the
     * company fee (fees.companyPerPersonCents, 1500) for a member of a company team.
     */
    feeCents: number;
    /**
     * A team fee: the participants this fee order pays for — the unpaid members
     * of the captain's company team when ordered (ascending ids), the payer among them when
     * unpaid. Absent on an order for the payer alone (and on every order before team fees existed).
     */
    covers?: number[];
    /** The provider's name ('sandbox', 'montonio'). */
    provider: string;
    /** ISO 3166-1 alpha-2 country of the chosen bank's setup. */
    country: string;
    /** The chosen bank's provider code; '' when the payer chooses it at the provider (a donation). */
    method: string;
    /** The short code shown to the payer (orderReference of the order id: 8 upper-case hex digits). */
    reference: string;
    /** ISO-8601 UTC. */
    orderedAt: string;
  };
}
/** What a provider's confirmation says about an order (PaymentSucceeded, DonationReceived). */
export interface PaymentSettlement {
  orderId: string;
  participantId: number;
  teamId: number;
  /** EUR cents, as confirmed (equal to the order's amount). */
  amountCents: number;
  provider: string;
  /** The provider's own id of the order (Montonio's order UUID), when it gave one. */
  providerOrderId: string | null;
}
/**
 * The provider confirmed a fee order as paid. The participant's ParticipantPaymentMarked (source
 * 'payment') is appended in the same atomic append when they were not marked paid yet.
 */
export interface PaymentSucceeded {
  type: 'PaymentSucceeded';
  /** succeededAt: ISO-8601 UTC. */
  data: PaymentSettlement & { succeededAt: string };
}
/** The provider confirmed a donation order as paid. */
export interface DonationReceived {
  type: 'DonationReceived';
  /** receivedAt: ISO-8601 UTC. */
  data: PaymentSettlement & { receivedAt: string };
}
/**
 * The payment did not go through (abandoned or refused at the bank, voided, or the provider did
 * not take the order). Not final: a bank's late confirmation (spec §4: up to 72 h) still records
 * the payment.
 */
export interface PaymentFailed {
  type: 'PaymentFailed';
  data: Omit<PaymentSettlement, 'amountCents'> & {
    /** Why, as a code: the provider's status (ABANDONED, VOIDED, …) or PROVIDER_UNAVAILABLE. */
    reason: string;
    /** ISO-8601 UTC. */
    failedAt: string;
  };
}
/**
 * An administrator recorded a refund of a paid order: money given back to the
 * payer outside the application (the provider's or the bank's own refund). The fundraising totals
 * go down by `amountCents`; when `full` (the refunds reach the whole amount) of a fee order, the
 * participants it had marked paid are marked unpaid in the same atomic append
 * (ParticipantPaymentMarked {isPaid: false, source: 'refund'}).
 */
export interface PaymentRefunded {
  type: 'PaymentRefunded';
  data: {
    orderId: string;
    /** The payer. */
    participantId: number;
    /** The order's team (fundraising per team counts it there). */
    teamId: number;
    kind: PaymentKind;
    /** Refunded now, EUR cents, more than 0 and at most what was paid and not yet refunded. */
    amountCents: number;
    /** Refunded of this order in all, this refund included, EUR cents. */
    refundedCents: number;
    /** True when the refunds reach the order's whole amount. */
    full: boolean;
    /** Why, in the administrator's words (at most 500 characters; no personal data, please). */
    reason: string;
    /** ISO-8601 UTC. */
    refundedAt: string;
  };
}
export type PaymentEvent = PaymentOrdered | PaymentSucceeded | DonationReceived | PaymentFailed | PaymentRefunded;
