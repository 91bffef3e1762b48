/**
 * The shapes of the payment commands (spec §2 "Payment", §3 payment request,
 * §7 /payment/*): what they take and answer, money in integer EUR cents. The commands are in
 * payment.ts.
 */
import type { ActingUser, PaymentKind, PaymentState, PaymentStatus } from '@sinilill/domain';
import type { EventStore } from '@sinilill/event-store';
import type { CommandMetadata } from '../metadata';
import type { EditionSource } from '../edition/catalog';

/** Who asks, when, and the command's ids (CommandService's CommandRequest). */
export interface PaymentCommandRequest {
  actor: ActingUser;
  metadata: CommandMetadata;
  /** The decision's instant; default the service's clock. */
  now?: Date;
}

/** What the payment commands read and when. */
export interface PaymentCommandDependencies {
  store: EventStore;
  /** The configured clock. */
  now: () => Date;
  /**
   * The participant ids of a team's members (rm.team_members; CommandServiceDependencies'), for a
   * team fee. Each is checked against its own stream (live, of the team, unpaid) before the order
   * covers it, so a lagging read model can only leave out someone who joined a moment ago (they
   * stay unpaid and can be paid for again).
   */
  membersOfTeam?: (teamId: number) => Promise<number[]>;
  /** The order ids with a reference (rm.payment_orders), for an administrator's refund by reference. */
  ordersOfReference?: (reference: string) => Promise<string[]>;
  /** The editions (their fees, which are closed); default: folded from `store` (context.ts editionSourceOf). */
  editions?: EditionSource;
}

/** A participant's payment order (spec §3 payment request), amounts in EUR cents. */
export interface PaymentOrderInput {
  /** The payer's state as the page saw it: false orders the participation fee, true a donation. */
  isPaid: boolean;
  grandTotalCents: number;
  amountCents: number;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** The chosen bank's code ('' for none). */
  method: string;
  /** The provider's name ('sandbox', 'montonio'). */
  provider: string;
  /** The provider's bank codes for `country`; null when it has no setup there. */
  countryMethods: readonly string[] | null;
  /** A company team's captain pays the fee of every unpaid member at once. */
  forTeam?: boolean;
}

/** A payment order as the payment routes need it. */
export interface PaymentOrderView {
  orderId: string;
  /** The short code shown to the payer. */
  reference: string;
  kind: PaymentKind;
  /** EUR cents. */
  amountCents: number;
  participantId: number;
  teamId: number;
  provider: string;
  status: PaymentState['status'];
  /** A team fee's members; null for an order of the payer alone. */
  covers: readonly number[] | null;
  /** Refunded so far, EUR cents. */
  refundedCents: number;
}

/** A verified provider notification about an order (see @sinilill/payments PaymentNotification). */
export interface PaymentOutcomeInput {
  orderId: string;
  provider: string;
  status: PaymentStatus;
  providerStatus: string;
  /** EUR cents the notification states. */
  amountCents: number;
  currency: string;
  providerOrderId: string | null;
}

/** An administrator's refund: EUR cents (null: all that is left) and why. */
export interface RefundInput {
  amountCents: number | null;
  reason: string;
}

/** What a refund answers: EUR cents. */
export interface RefundResult {
  /** The order as it is now. */
  order: PaymentOrderView;
  /** Refunded by this refund. */
  refundedCents: number;
  /** Refunded of the order in all right after this refund (PaymentRefunded.refundedCents). */
  refundedTotalCents: number;
  /** The global position of the refund's last event. */
  position: number;
}
