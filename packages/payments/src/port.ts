/**
 * The payment provider port (docs/decisions/0018): what the application asks of a
 * payment-initiation provider, whichever it is. Two adapters implement it: `sandbox` (the embedded
 * default, a local test bank) and `montonio` (Montonio's Stargate API).
 *
 * Money crosses this port in integer EUR cents; an adapter converts at its own boundary (Montonio
 * takes decimal euros). Notifications are signed tokens: `verifyToken` either returns what the
 * token says, verified, or throws PaymentVerificationError with a reason safe to log (never the
 * token itself).
 */
import type { PaymentStatus } from '@sinilill/domain';

/** One bank of a country's setup (spec §3 payment method). */
export interface PaymentMethodOption {
  /** The provider's code of the bank (sent back as preferredProvider). */
  code: string;
  name: string;
  /** Absolute URL of the bank's logo. */
  logoUrl: string;
  /** Place in the list, ascending. */
  uiPosition: number;
}

/** A country's banks (ISO 3166-1 alpha-2 country code), sorted by uiPosition. */
export interface PaymentCountry {
  country: string;
  methods: PaymentMethodOption[];
}

/** What the application asks the provider to collect. */
export interface PaymentOrderRequest {
  /** The order's UUID: the provider's merchant reference, echoed in every notification. */
  orderId: string;
  /** The short code shown to the payer (8 upper-case hex digits). */
  reference: string;
  /** EUR cents, > 0. */
  amountCents: number;
  /** The language of the provider's pages. */
  locale: 'et' | 'en';
  /** ISO 3166-1 alpha-2 country of the bank. */
  country: string;
  /** The chosen bank's code; '' lets the payer choose it on the provider's page. */
  method: string;
  /** Where the payer's browser comes back; the provider appends `order-token=…`. */
  returnUrl: string;
  /** Where the provider POSTs its signed notifications, `{orderToken}`. */
  notificationUrl: string;
  /** The payment's description on the payer's bank statement. */
  description: string;
}

/** The provider's answer to an order: where the payer goes to pay. */
export interface CreatedPaymentOrder {
  paymentUrl: string;
  /** The provider's own id of the order, when it gives one at creation. */
  providerOrderId: string | null;
}

/** A verified notification (webhook body or return query) about one order. */
export interface PaymentNotification {
  /** The order's UUID (the merchant reference the application gave). */
  orderId: string;
  providerOrderId: string | null;
  /** The provider's status mapped to the application's words. */
  status: PaymentStatus;
  /** The provider's own status word (PAID, ABANDONED, VOIDED, PENDING, …). */
  providerStatus: string;
  /** EUR cents as the token states them. */
  amountCents: number;
  currency: string;
}

/** A payment-initiation provider. */
export interface PaymentProvider {
  /** The adapter's name ('sandbox', 'montonio'): in events, in the notification URL's path. */
  readonly name: string;
  /**
   * The countries and banks the payer may choose from, in the provider's order of countries.
   * @throws PaymentProviderError when the provider does not answer usably.
   */
  listMethods(): Promise<PaymentCountry[]>;
  /**
   * Places the order at the provider.
   * @throws PaymentProviderError when the provider refuses it or does not answer usably.
   */
  createOrder(order: PaymentOrderRequest): Promise<CreatedPaymentOrder>;
  /**
   * Verifies a notification or return token: signature with the provider's secret (HS256 only),
   * the store's access key, an expiry in the future, a merchant reference, an amount in euros.
   * @throws PaymentVerificationError naming why (safe to log: no token, no secret).
   */
  verifyToken(token: string): Promise<PaymentNotification>;
}

/** Why a token was refused, in words safe for a log line. */
export type VerificationFailure = 'malformed' | 'signature' | 'algorithm' | 'expired' | 'claims' | 'access-key' | 'amount';

/** A notification or return token that must not be believed. */
export class PaymentVerificationError extends Error {
  override readonly name = 'PaymentVerificationError';
  constructor(readonly reason: VerificationFailure) {
    super(`payment token refused: ${reason}`);
  }
}

/** The provider refused a request or did not answer usably (network, status, shape). */
export class PaymentProviderError extends Error {
  override readonly name = 'PaymentProviderError';
}
