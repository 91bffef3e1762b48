/**
 * The `sandbox` payment provider, the embedded default (docs/decisions/0018): a local test bank that
 * behaves towards the application exactly as a real provider does. Its checkout page
 * (GET /api/payment/sandbox/checkout/{orderId}, served by the command API) lets the payer pick a
 * bank and succeed or fail; the outcome is sent over real HTTP as a signed notification
 * `{orderToken}` to the order's notificationUrl, and the browser is sent to the returnUrl with
 * `?order-token=…`, in Montonio's token format (./order-token.ts) signed with
 * SANDBOX_PAYMENT_SECRET.
 *
 * The sandbox keeps no state of its own: the order travels in a signed checkout session (the
 * paymentUrl's `session` query), signed with a key derived from the secret for that purpose only,
 * so that a session can never pass for a notification or the other way round.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { centsToEuros } from '@sinilill/domain';
import { signToken, verifyOrderToken, verifySignedToken } from './order-token';
import {
  PaymentVerificationError,
  type CreatedPaymentOrder,
  type PaymentCountry,
  type PaymentNotification,
  type PaymentOrderRequest,
  type PaymentProvider,
} from './port';
import { checkoutPage, logoSvg, type SandboxBank } from './sandbox-page';

/** The access key the sandbox's tokens carry (it has one store). */
export const SANDBOX_ACCESS_KEY = 'sandbox';

/** The sandbox's setup: countries in the provider's order, banks in their uiPosition order (BICs as codes). */
export const SANDBOX_SETUP: readonly { country: string; banks: readonly SandboxBank[] }[] = [
  { country: 'EE', banks: [
    { code: 'HABAEE2X', name: 'Swedbank' }, { code: 'EEUHEE2X', name: 'SEB' }, { code: 'LHVBEE22', name: 'LHV' },
    { code: 'RIKOEE22', name: 'Luminor' }, { code: 'EKRDEE22', name: 'Coop Pank' }, { code: 'PARXEE22', name: 'Citadele' },
  ] },
  { country: 'LV', banks: [
    { code: 'HABALV22', name: 'Swedbank' }, { code: 'UNLALV2X', name: 'SEB' }, { code: 'RIKOLV2X', name: 'Luminor' },
    { code: 'PARXLV22', name: 'Citadele' },
  ] },
  { country: 'LT', banks: [
    { code: 'HABALT22', name: 'Swedbank' }, { code: 'CBVILT2X', name: 'SEB' }, { code: 'AGBLLT2X', name: 'Luminor' },
    { code: 'CBSBLT26', name: 'Šiaulių bankas' },
  ] },
  { country: 'FI', banks: [
    { code: 'NDEAFIHH', name: 'Nordea' }, { code: 'OKOYFIHH', name: 'OP' }, { code: 'DABAFIHH', name: 'Danske Bank' },
    { code: 'SBANFIHH', name: 'S-Pankki' },
  ] },
];

/** How long a checkout session stays open: one hour. */
const SESSION_TTL_SECONDS = 3600;

export interface SandboxOptions {
  /** SANDBOX_PAYMENT_SECRET: signs notifications (and, derived, checkout sessions). */
  secret: string;
  /** The site's address (config.publicUrl), for the checkout and logo URLs. */
  publicUrl: string;
  /** The payee shown on the checkout page; default 'Sinilill'. */
  merchant?: string;
  /** How the notification is sent; default global fetch. */
  fetch?: typeof fetch;
  /** How long the notification may take; default 5 s (the return records the outcome anyway). */
  notificationTimeoutMs?: number;
}

/** An order as its checkout session carries it: the order the application placed. */
export type SandboxCheckout = PaymentOrderRequest;

/** What completing a checkout did: where the browser goes, and how the notification went. */
export interface SandboxCompletion {
  redirectUrl: string;
  /** The notificationUrl's HTTP status, or the error that kept it from answering. */
  notification: { status: number } | { error: string };
}

const SESSION_FIELDS = ['orderId', 'reference', 'locale', 'country', 'method', 'returnUrl', 'notificationUrl', 'description'] as const;

/** The sandbox provider and test bank. */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  private readonly sessionSecret: string;
  private readonly merchant: string;
  private readonly send: typeof fetch;

  constructor(private readonly options: SandboxOptions) {
    this.sessionSecret = createHmac('sha256', options.secret).update('sinilill sandbox checkout session').digest('base64url');
    this.merchant = options.merchant ?? 'Sinilill';
    this.send = options.fetch ?? fetch;
  }

  /** The setup, logos served by the command API (GET /api/payment/sandbox/logos/{code}.svg). */
  async listMethods(): Promise<PaymentCountry[]> {
    return SANDBOX_SETUP.map(({ country, banks }) => ({
      country,
      methods: banks.map((bank, index) => ({
        code: bank.code,
        name: bank.name,
        logoUrl: `${this.options.publicUrl}/api/payment/sandbox/logos/${bank.code}.svg`,
        uiPosition: index + 1,
      })),
    }));
  }

  /** The checkout page's address, with the order in a signed session. */
  async createOrder(order: PaymentOrderRequest): Promise<CreatedPaymentOrder> {
    const session = await signToken({ ...order }, this.sessionSecret, SESSION_TTL_SECONDS);
    return {
      paymentUrl: `${this.options.publicUrl}/api/payment/sandbox/checkout/${order.orderId}?session=${session}`,
      providerOrderId: null,
    };
  }

  /** Verifies a sandbox order token (signature with the secret, access key, exp, amount). */
  verifyToken(token: string): Promise<PaymentNotification> {
    return verifyOrderToken(token, { secret: this.options.secret, accessKey: SANDBOX_ACCESS_KEY });
  }

  /**
   * Opens a checkout session for the order in the path.
   * @throws PaymentVerificationError when the session is forged, expired, malformed, or of
   *   another order.
   */
  async openCheckout(orderId: string, session: string): Promise<SandboxCheckout> {
    const claims = await verifySignedToken(session, this.sessionSecret);
    if (claims.orderId !== orderId) throw new PaymentVerificationError('claims');
    for (const field of SESSION_FIELDS) if (typeof claims[field] !== 'string') throw new PaymentVerificationError('claims');
    if (typeof claims.amountCents !== 'number' || (claims.locale !== 'et' && claims.locale !== 'en')) throw new PaymentVerificationError('claims');
    return claims as unknown as SandboxCheckout;
  }

  /** The checkout page (HTML) of an opened session. */
  checkoutPage(checkout: SandboxCheckout, session: string): string {
    const banks = SANDBOX_SETUP.find((setup) => setup.country === checkout.country)?.banks ?? [];
    return checkoutPage({
      orderId: checkout.orderId, reference: checkout.reference, amountCents: checkout.amountCents, locale: checkout.locale,
      merchant: this.merchant, description: checkout.description,
      bank: banks.find((bank) => bank.code === checkout.method) ?? null, banks, session,
    });
  }

  /**
   * The payer's choice: signs the order token (PAID, or ABANDONED on `fail`), POSTs `{orderToken}`
   * to the notificationUrl (a failure to deliver is reported, not thrown: the return carries the
   * same token) and answers the returnUrl with `order-token`.
   */
  async complete(checkout: SandboxCheckout, outcome: 'succeed' | 'fail', chosenMethod?: string): Promise<SandboxCompletion> {
    const offered = SANDBOX_SETUP.find((setup) => setup.country === checkout.country)?.banks ?? [];
    const method = checkout.method || (offered.some((bank) => bank.code === chosenMethod) ? chosenMethod! : '');
    const orderToken = await signToken({
      uuid: randomUUID(),
      accessKey: SANDBOX_ACCESS_KEY,
      merchantReference: checkout.orderId,
      merchantReferenceDisplay: checkout.reference,
      paymentStatus: outcome === 'succeed' ? 'PAID' : 'ABANDONED',
      paymentMethod: 'paymentInitiation',
      paymentProviderName: method,
      grandTotal: centsToEuros(checkout.amountCents),
      currency: 'EUR',
    }, this.options.secret);
    let notification: SandboxCompletion['notification'];
    try {
      const response = await this.send(checkout.notificationUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderToken }),
        signal: AbortSignal.timeout(this.options.notificationTimeoutMs ?? 5000),
      });
      await response.arrayBuffer();
      notification = { status: response.status };
    } catch (error) {
      notification = { error: error instanceof Error ? error.message : String(error) };
    }
    const separator = checkout.returnUrl.includes('?') ? '&' : '?';
    return { redirectUrl: `${checkout.returnUrl}${separator}order-token=${encodeURIComponent(orderToken)}`, notification };
  }

  /** A bank's logo (SVG), or null for an unknown code. */
  logo(code: string): string | null {
    for (const { banks } of SANDBOX_SETUP) {
      const bank = banks.find((b) => b.code === code);
      if (bank) return logoSvg(bank);
    }
    return null;
  }
}
