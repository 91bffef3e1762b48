/**
 * Participation fee and donations (spec §2 "Payment", §3 payment info / payment request /
 * payment method, §4 payment states, §7 /payment/*, §8 payment codes, §9 fees). Issue 7.
 *
 * Money on this API is integer EUR cents everywhere (1500 = 15.00 EUR); the provider adapters
 * convert at their own boundary (Montonio takes decimal euros). Refusals are `{message: CODE}`:
 * NOT_SELECTED (no bank chosen), AMOUNT_NOT_MATCH (grandTotal ≠ payment.amount),
 * AMOUNT_TOO_LOW (below the fee, or a donation below 1 EUR), ALREADY_PAID_FOR (a fee order by a
 * participant who has paid), 401/403 as everywhere; PAYMENT_PROVIDER_UNAVAILABLE (502) when the
 * provider does not answer.
 *
 * Also served (no schema of their own here): GET /api/payment/return?order-token=… (the provider's
 * returnUrl; 303 to /payment/success?amount=15.00&code=<order reference> or
 * /payment/failed?code=<order reference or catalogue code>), the sandbox's test bank under
 * /api/payment/sandbox/*, and POST /api/session/refresh (authenticated, answers LoginAnswer
 * {token}: a fresh session token whose isPaid is current). docs/architecture.md D18.
 */
import Type from 'typebox';
import { SingleLine } from './text';
import { Lang } from './auth';

/** ISO 3166-1 alpha-2 country code of a payment method's setup (EE, LV, LT, FI, …). */
export const CountryCode = Type.String({ pattern: '^[A-Z]{2}$' });

/** One bank (spec §3 payment method): the provider's code, a logo URL and its place in the list. */
export const PaymentMethod = Type.Object({
  code: Type.String(),
  name: Type.String(),
  logoUrl: Type.String(),
  uiPosition: Type.Integer(),
});
export type PaymentMethod = Type.Static<typeof PaymentMethod>;

/**
 * GET /api/payment/methods (authenticated): the provider's setup, countries in the provider's
 * order (the web lists them reversed, spec §2), each with its banks sorted by uiPosition.
 */
export const PaymentMethodsAnswer = Type.Object({
  provider: Type.String(),
  countries: Type.Array(Type.Object({ country: CountryCode, methods: Type.Array(PaymentMethod) })),
});
export type PaymentMethodsAnswer = Type.Static<typeof PaymentMethodsAnswer>;

/**
 * GET /api/payment/info (authenticated; spec §3 payment info): whether the caller's fee is paid
 * and whether the child fee applies (born in the edition's childFromBirthYear or later), plus the
 * fee due in cents. A user without a participant (an admin) gets isPaid false, feeCents the
 * adult fee. Read from the payment-info read model (x-min-position honoured).
 */
export const PaymentInfoAnswer = Type.Object({
  isPaid: Type.Boolean(),
  isChild: Type.Boolean(),
  feeCents: Type.Integer({ minimum: 0 }),
});
export type PaymentInfoAnswer = Type.Static<typeof PaymentInfoAnswer>;

/**
 * POST /api/payment/order (authenticated; spec §3 payment request). `isPaid` is the payer's
 * state as the page saw it: false orders the participation fee, true a donation. grandTotal and
 * payment.amount are EUR cents and must be equal (AMOUNT_NOT_MATCH). A fee order may exceed the
 * fee (a custom amount) but not undercut it (AMOUNT_TOO_LOW); a donation is at least 100 cents.
 * preferredProvider is the chosen bank's code; unknown → NOT_SELECTED, and empty → NOT_SELECTED for
 * the fee (spec §5), while a donation may leave the bank to the provider's page. `lang` (optional,
 * as stored, spec §4) is the language of the provider's pages; without it the Accept-Language
 * header decides, Estonian by default.
 */
export const PaymentOrderBody = Type.Object(
  {
    billingAddress: Type.Object({}, { additionalProperties: false }),
    isPaid: Type.Boolean(),
    grandTotal: Type.Integer({ minimum: 0, maximum: 100_000_000 }),
    payment: Type.Object(
      {
        method: Type.Literal('paymentInitiation'),
        methodOptions: Type.Object(
          { preferredCountry: CountryCode, preferredProvider: SingleLine({ maxLength: 100 }) },
          { additionalProperties: false },
        ),
        amount: Type.Integer({ minimum: 0, maximum: 100_000_000 }),
      },
      { additionalProperties: false },
    ),
    lang: Type.Optional(Lang),
  },
  { additionalProperties: false },
);
export type PaymentOrderBody = Type.Static<typeof PaymentOrderBody>;

/** Answer of POST /api/payment/order: where the browser goes next (the provider's checkout). */
export const PaymentOrderAnswer = Type.Object({ paymentUrl: Type.String(), orderId: Type.String() });
export type PaymentOrderAnswer = Type.Static<typeof PaymentOrderAnswer>;

/**
 * GET /api/fundraising (public): money raised, in EUR cents, from succeeded payments only —
 * fees and donations — overall and per team (teams with nothing raised are left out).
 */
export const FundraisingAnswer = Type.Object({
  feesCents: Type.Integer(),
  donationsCents: Type.Integer(),
  totalCents: Type.Integer(),
  teams: Type.Array(
    Type.Object({ teamId: Type.Integer(), feesCents: Type.Integer(), donationsCents: Type.Integer(), totalCents: Type.Integer() }),
  ),
});
export type FundraisingAnswer = Type.Static<typeof FundraisingAnswer>;

/**
 * POST /api/payment/notification/{provider} (the provider calls it; no session token): the
 * provider's signed order token. Answered 200 {ok: true} when verified (recorded now or before),
 * 400 {message: 'INVALID_NOTIFICATION'} when forged, expired, of another store or stating another
 * amount than the order's.
 */
export const PaymentNotificationBody = Type.Object(
  { orderToken: SingleLine({ minLength: 1, maxLength: 8192 }) },
  { additionalProperties: false },
);
export type PaymentNotificationBody = Type.Static<typeof PaymentNotificationBody>;

export const PaymentNotificationAnswer = Type.Object({ ok: Type.Boolean() });
export type PaymentNotificationAnswer = Type.Static<typeof PaymentNotificationAnswer>;
