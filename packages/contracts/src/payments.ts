/**
 * Participation fee and donations (spec §2 "Payment", §3 payment info / payment request /
 * payment method, §4 payment states, §7 /payment/*, §8 payment codes, §9 fees). Issue 7.
 *
 * Money on this API is decimal EUR, as spec §3/§9 write it (15 EUR, 5 EUR, "two decimals"; issue
 * 14): JSON numbers with at most two decimals (15, 20.5 = 20.50 EUR). The services convert a
 * request's euros to integer cents at the boundary (`parseEuros` in @sinilill/domain: exact, never
 * rounded) and an answer's cents back (`centsToEuros`); the domain, the events and the read models
 * count integer EUR cents. Refusals are `{message: CODE}`: INVALID_AMOUNT (an amount that is not a
 * number of euros with at most two decimals: a string, a negative, 20.505, over 1 000 000 EUR),
 * NOT_SELECTED (no bank chosen), AMOUNT_NOT_MATCH (grandTotal ≠ payment.amount), AMOUNT_TOO_LOW
 * (below the fee, or a donation below 1 EUR), ALREADY_PAID_FOR (a fee order by a participant who
 * has paid), 401/403 as everywhere; PAYMENT_PROVIDER_UNAVAILABLE (502) when the provider does not
 * answer.
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

/**
 * An amount of EUR in an answer: a JSON number with at most two decimals (15, 19.99), written from
 * integer cents by `centsToEuros`. Spec §9 "two decimals"; issue 14.
 */
export const Euros = Type.Number({ minimum: 0 });

/**
 * An amount of EUR in a request (spec §3 payment request: grandTotal, payment.amount; issue 14):
 * a JSON number with at most two decimals, 0 to 1 000 000 (15, 15.00, 20.5, 20.50). Typed as a
 * number; the schema lets a string through only so that the route can refuse it with the clear
 * INVALID_AMOUNT (as it refuses 20.505, -5 or 1e9) instead of a generic INVALID_REQUEST. Anything
 * else (null, an object) is INVALID_REQUEST.
 */
export const EuroAmount = Type.Unsafe<number>(Type.Union([Type.Number(), Type.String({ maxLength: 32 })]));

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
 * fee due: `fee` in EUR (15 or 5, spec §9; issue 14) and the same in EUR cents as `feeCents`
 * (1500 or 500). A user without a participant (an admin) gets isPaid false and the adult fee.
 * Read from the payment-info read model (x-min-position honoured).
 *
 * `fee` is always sent; it is optional in the type, and `feeCents` is kept, only because the
 * shared payment-info store's tests (web/src/lib, not the payment feature's) build answers without
 * it — drop `feeCents` and make `fee` required once they carry it.
 */
export const PaymentInfoAnswer = Type.Object({
  isPaid: Type.Boolean(),
  isChild: Type.Boolean(),
  fee: Type.Optional(Euros),
  feeCents: Type.Integer({ minimum: 0 }),
});
export type PaymentInfoAnswer = Type.Static<typeof PaymentInfoAnswer>;

/**
 * POST /api/payment/order (authenticated; spec §3 payment request, the Montonio-shaped body the
 * spec describes and the web client's /pay forms send alike). `isPaid` is the payer's state as
 * the page saw it: false orders the participation fee, true a donation. grandTotal and
 * payment.amount are EUR (EuroAmount: at most two decimals, else INVALID_AMOUNT; issue 14) and
 * must be equal (AMOUNT_NOT_MATCH). A fee order may exceed the fee (a custom amount: 15 for a
 * child's 5 EUR fee) but not undercut it (AMOUNT_TOO_LOW: 0.15 against 15); a donation is at
 * least 1 EUR (spec §9). preferredProvider is the chosen bank's code; unknown → NOT_SELECTED, and empty → NOT_SELECTED for
 * the fee (spec §5), while a donation may leave the bank to the provider's page. `lang` (optional,
 * as stored, spec §4) is the language of the provider's pages; without it the Accept-Language
 * header decides, Estonian by default.
 */
export const PaymentOrderBody = Type.Object(
  {
    billingAddress: Type.Object({}, { additionalProperties: false }),
    isPaid: Type.Boolean(),
    grandTotal: EuroAmount,
    payment: Type.Object(
      {
        method: Type.Literal('paymentInitiation'),
        methodOptions: Type.Object(
          { preferredCountry: CountryCode, preferredProvider: SingleLine({ maxLength: 100 }) },
          { additionalProperties: false },
        ),
        amount: EuroAmount,
      },
      { additionalProperties: false },
    ),
    lang: Type.Optional(Lang),
  },
  { additionalProperties: false },
);
export type PaymentOrderBody = Type.Static<typeof PaymentOrderBody>;

/**
 * Answer of POST /api/payment/order: where the browser goes next (the provider's checkout), the
 * order's id, its reference (the code the payer sees, GET /api/payment/order/{reference}) and the
 * amount ordered in EUR.
 */
export const PaymentOrderAnswer = Type.Object({
  paymentUrl: Type.String(),
  orderId: Type.String(),
  reference: Type.String(),
  amount: Euros,
});
export type PaymentOrderAnswer = Type.Static<typeof PaymentOrderAnswer>;

/** An order's reference as the payer sees it: 8 hexadecimal digits ("3F2A9C1B"; any case). */
export const OrderReferenceParams = Type.Object(
  { reference: Type.String({ pattern: '^[0-9A-Fa-f]{8}$' }) },
  { additionalProperties: false },
);
export type OrderReferenceParams = Type.Static<typeof OrderReferenceParams>;

/**
 * GET /api/payment/order/{reference} (authenticated; the result page, issue 14): the caller's own
 * order as the server knows it — status 'pending' (ordered, no confirmation yet), 'paid' (the
 * provider confirmed it) or 'failed' (abandoned, refused or not taken; a late confirmation can
 * still make it paid, spec §4); amount in EUR; kind 'fee' or 'donation'. Read from the payments
 * read model (x-min-position honoured). 404 NOT_FOUND for an unknown reference AND for another
 * person's (so a reference's existence never leaks), 400 INVALID_REQUEST for one that is not 8
 * hexadecimal digits, 401 without a session.
 */
export const PaymentOrderStatusAnswer = Type.Object({
  reference: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('paid'), Type.Literal('failed')]),
  amount: Euros,
  kind: Type.Union([Type.Literal('fee'), Type.Literal('donation')]),
});
export type PaymentOrderStatusAnswer = Type.Static<typeof PaymentOrderStatusAnswer>;

/**
 * GET /api/fundraising (public): money raised, in EUR (issue 14), from succeeded payments only —
 * fees and donations — overall and per team (teams with nothing raised are left out).
 */
export const FundraisingAnswer = Type.Object({
  fees: Euros,
  donations: Euros,
  total: Euros,
  teams: Type.Array(
    Type.Object({ teamId: Type.Integer(), fees: Euros, donations: Euros, total: Euros }),
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
