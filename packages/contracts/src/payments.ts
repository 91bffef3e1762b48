/**
 * Participation fee and donations (spec §2 "Payment", §3 payment info / payment request /
 * payment method, §4 payment states, §7 /payment/*, §8 payment codes, §9 fees). Issue 7.
 *
 * Money on this API is integer EUR cents everywhere (1500 = 15.00 EUR); the provider adapters
 * convert at their own boundary (Montonio takes decimal euros). Refusals are `{message: CODE}`:
 * NOT_SELECTED (no bank chosen), AMOUNT_NOT_MATCH (grandTotal ≠ payment.amount),
 * AMOUNT_TOO_LOW (below the fee, or a donation below 1 EUR), ALREADY_PAID_FOR (a fee order by a
 * participant who has paid), 401/403 as everywhere.
 */
import Type from 'typebox';

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
 * preferredProvider is the chosen bank's code; empty or unknown → NOT_SELECTED.
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
          { preferredCountry: CountryCode, preferredProvider: Type.String({ maxLength: 100 }) },
          { additionalProperties: false },
        ),
        amount: Type.Integer({ minimum: 0, maximum: 100_000_000 }),
      },
      { additionalProperties: false },
    ),
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
