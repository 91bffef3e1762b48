/**
 * Participation fee and donations (spec §2 "Payment", §3 payment info / payment request /
 * payment method, §4 payment states, §7 /payment/*, §8 payment codes, §9 fees).
 *
 * Money on this API is decimal EUR, as spec §3/§9 write it (15 EUR, 5 EUR, "two decimals"):
 * JSON numbers with at most two decimals (15, 20.5 = 20.50 EUR). The services convert a
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
 * {token}: a fresh session token whose isPaid is current). docs/decisions/0018.
 *
 * Fees as spec §9 writes them: company teams (15 EUR per person whatever the
 * birth year; the captain pays for every unpaid member at once: PaymentInfoAnswer.teamFee,
 * PaymentOrderBody.forTeam), the bank transfer's details from configuration
 * (BankTransferAnswer), money an administrator marks as paid by hand counted in the fundraising
 * totals (FundraisingAnswer), and refunds recorded by an administrator (RefundBody, RefundAnswer,
 * AdminParticipantPaymentsAnswer): REFUND_EXCEEDS_PAYMENT (400) for more than is left to refund,
 * ORDER_NOT_PAID (409) for an order not confirmed paid.
 */
import Type from 'typebox';
import { SingleLine } from './text';
import { Lang } from './auth';

/** ISO 3166-1 alpha-2 country code of a payment method's setup (EE, LV, LT, FI, …). */
export const CountryCode = Type.String({ pattern: '^[A-Z]{2}$' });

/**
 * An amount of EUR in an answer: a JSON number with at most two decimals (15, 19.99), written from
 * integer cents by `centsToEuros`. Spec §9 "two decimals".
 */
export const Euros = Type.Number({ minimum: 0 });

/**
 * An amount of EUR in a request (spec §3 payment request: grandTotal, payment.amount):
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
 * fee due: `fee` in EUR (15 or 5, spec §9) and the same in EUR cents as `feeCents`
 * (1500 or 500). A user without a participant (an admin) gets isPaid false and the adult fee.
 * Read from the payment-info read model (x-min-position honoured).
 *
 * Company teams (spec §9 "company team 15 EUR per person"): `company` says whether
 * the caller's team is one; its members' `fee` is the company fee (15 EUR) whatever their birth
 * year (`isChild` still tells the birth year's rule). For the captain of a company team only,
 * `unpaidMembers` counts the team's members whose fee is not paid (the captain included when
 * unpaid) and `teamFee` is what paying for all of them at once costs, in EUR (15 × unpaidMembers;
 * 0 when everyone has paid) — POST /api/payment/order with `forTeam: true` orders it.
 *
 * `fee` and `company` are always sent; they are optional in the type, and `feeCents` is kept,
 * only because the shared payment-info store's tests (web/src/lib, not the payment feature's)
 * build answers without them — drop `feeCents` and make both required once they carry them.
 */
export const PaymentInfoAnswer = Type.Object({
  isPaid: Type.Boolean(),
  isChild: Type.Boolean(),
  fee: Type.Optional(Euros),
  feeCents: Type.Integer({ minimum: 0 }),
  company: Type.Optional(Type.Boolean()),
  unpaidMembers: Type.Optional(Type.Integer({ minimum: 0 })),
  teamFee: Type.Optional(Euros),
});
export type PaymentInfoAnswer = Type.Static<typeof PaymentInfoAnswer>;

/**
 * POST /api/payment/order (authenticated; spec §3 payment request, the Montonio-shaped body the
 * spec describes and the web client's /pay forms send alike). `isPaid` is the payer's state as
 * the page saw it: false orders the participation fee, true a donation. grandTotal and
 * payment.amount are EUR (EuroAmount: at most two decimals, else INVALID_AMOUNT) and
 * must be equal (AMOUNT_NOT_MATCH). A fee order may exceed the fee (a custom amount: 15 for a
 * child's 5 EUR fee) but not undercut it (AMOUNT_TOO_LOW: 0.15 against 15); a donation is at
 * least 1 EUR (spec §9). preferredProvider is the chosen bank's code; unknown → NOT_SELECTED, and empty → NOT_SELECTED for
 * the fee (spec §5), while a donation may leave the bank to the provider's page. `lang` (optional,
 * as stored, spec §4) is the language of the provider's pages; without it the Accept-Language
 * header decides, Estonian by default.
 *
 * `forTeam: true` (default false) is a company team's captain paying the fee of
 * every member not paid yet at once (the captain included when unpaid): the amount must be at
 * least 15 EUR × those members (AMOUNT_TOO_LOW below it; more is a custom amount), the order
 * records whom it covers, and its confirmation marks every one of them paid. A member who is not
 * the captain → FORBIDDEN; a team that is no company team, or `forTeam` with isPaid true (a
 * donation) → INVALID_REQUEST; nobody left to pay for → ALREADY_PAID_FOR. Without it a member of a
 * company team pays their own fee, 15 EUR whatever the birth year. Explicit rather than guessed
 * from the amount, so that a captain's generous custom amount for themselves stays theirs.
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
    forTeam: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type PaymentOrderBody = Type.Static<typeof PaymentOrderBody>;

/**
 * Answer of POST /api/payment/order: where the browser goes next (the provider's checkout), the
 * order's id, its reference (the code the payer sees, GET /api/payment/order/{reference}) and the
 * amount ordered in EUR; for a team fee (forTeam) also `covers`, the participant ids it
 * pays for.
 */
export const PaymentOrderAnswer = Type.Object({
  paymentUrl: Type.String(),
  orderId: Type.String(),
  reference: Type.String(),
  amount: Euros,
  covers: Type.Optional(Type.Array(Type.Integer())),
});
export type PaymentOrderAnswer = Type.Static<typeof PaymentOrderAnswer>;

/** An order's reference as the payer sees it: 8 hexadecimal digits ("3F2A9C1B"; any case). */
export const OrderReferenceParams = Type.Object(
  { reference: Type.String({ pattern: '^[0-9A-Fa-f]{8}$' }) },
  { additionalProperties: false },
);
export type OrderReferenceParams = Type.Static<typeof OrderReferenceParams>;

/**
 * GET /api/payment/order/{reference} (authenticated; the result page): the caller's own
 * order as the server knows it — status 'pending' (ordered, no confirmation yet), 'paid' (the
 * provider confirmed it) or 'failed' (abandoned, refused or not taken; a late confirmation can
 * still make it paid, spec §4); amount in EUR; kind 'fee' or 'donation'; `refunded`, in EUR, only
 * once an administrator recorded a refund of it (the status stays 'paid'). Read from the
 * payments read model (x-min-position honoured). 404 NOT_FOUND for an unknown reference AND for
 * another person's (so a reference's existence never leaks), 400 INVALID_REQUEST for one that is
 * not 8 hexadecimal digits, 401 without a session.
 */
export const PaymentOrderStatusAnswer = Type.Object({
  reference: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('paid'), Type.Literal('failed')]),
  amount: Euros,
  kind: Type.Union([Type.Literal('fee'), Type.Literal('donation')]),
  refunded: Type.Optional(Euros),
});
export type PaymentOrderStatusAnswer = Type.Static<typeof PaymentOrderStatusAnswer>;

/**
 * GET /api/fundraising (public): money raised, in EUR, overall and per team (teams with
 * nothing raised are left out). `fees`: the fee orders the provider confirmed (their whole amount,
 * a custom amount above the fee and a company captain's team fee included) plus the fees an
 * administrator marked paid by hand (PUT /api/admin/participant/{id} {is_paid: true}: a bank
 * transfer, spec §4; counted as the participant's fee due at that moment — 15 EUR in a company
 * team, else 15 or 5 EUR by birth year — and taken back when the mark is undone); `donations`:
 * the donations the provider confirmed. Refunds an administrator recorded (POST
 * /api/admin/payment/{reference}/refund) are subtracted from the kind of the order refunded.
 * Imported participants marked paid (they paid in the old system) add nothing.
 */
export const FundraisingAnswer = Type.Object({
  fees: Euros,
  donations: Euros,
  total: Euros,
  /**
   * Paid fees whose amount is unknown (imported from the old system without the facts that set
   * the fee): above 0, `fees` and `total` are lower bounds ("at least"). Optional: absent or 0
   * means the figures are complete.
   */
  unknownCount: Type.Optional(Type.Integer({ minimum: 0 })),
  teams: Type.Array(
    Type.Object({
      teamId: Type.Integer(), fees: Euros, donations: Euros, total: Euros,
      /** As the answer's unknownCount, for the team. */
      unknownCount: Type.Optional(Type.Integer({ minimum: 0 })),
    }),
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

/**
 * GET /api/payment/banktransfer (authenticated; spec §2 "Payment": the manual bank transfer
 * fallback — account name, number, description): where and how to pay the fee by
 * an ordinary bank transfer, from configuration (BANK_ACCOUNT_NAME, BANK_ACCOUNT_IBAN,
 * BANK_TRANSFER_DESCRIPTION). `description` is the configured template personalised for the
 * caller ({participantId}, {teamId}, {year} filled in), so that the administrator who marks the
 * transfer paid finds the participant. `amount` is the caller's fee in EUR (the company fee in a
 * company team, else 15 or 5 by birth year; the adult fee for a user without a participant).
 * `example` is true while any of the three is not configured: the development defaults are made-up
 * details (an IBAN that fails its check digits), which the page must flag instead of presenting as
 * real; in production the services log a warning at start (docs/decisions/0018).
 */
export const BankTransferAnswer = Type.Object({
  accountName: Type.String(),
  iban: Type.String(),
  description: Type.String(),
  amount: Euros,
  example: Type.Boolean(),
});
export type BankTransferAnswer = Type.Static<typeof BankTransferAnswer>;

/**
 * An order named in an administrator's path: its reference as payers see it (8 hexadecimal
 * digits, any case) or, when two orders share a reference, its whole order id (a UUID).
 */
export const OrderParams = Type.Object(
  { reference: Type.String({ pattern: '^(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})$' }) },
  { additionalProperties: false },
);
export type OrderParams = Type.Static<typeof OrderParams>;

/** The longest refund reason, characters (the domain's REFUND_REASON_MAX). */
export const REFUND_REASON_MAX = 500;

/**
 * POST /api/admin/payment/{reference}/refund (administrators only: 401 without a session, 403
 * FORBIDDEN for anyone else, checked before the body is read): records that the
 * payer got money back (the provider's or the bank's own refund, done outside the site).
 * `amount` in EUR (EuroAmount: at most two decimals, else INVALID_AMOUNT; 0 → INVALID_AMOUNT);
 * without it the whole rest of the order is refunded. More than was paid and not yet refunded →
 * REFUND_EXCEEDS_PAYMENT (400); an order not confirmed paid → ORDER_NOT_PAID (409); an unknown
 * reference → NOT_FOUND (a reference is looked up in the payments read model, so an order placed a
 * moment ago is found by its id at once, by its reference once projected); a reference two orders
 * share → INVALID_REQUEST (use the order id).
 * `reason` is required (1–500 characters; the history shows it, so no personal data).
 * The fundraising totals go down by the amount; when the refunds of a fee order reach its whole
 * amount, every participant that order had marked paid (the payer, or a team fee's members) is
 * marked unpaid. An Idempotency-Key makes a retried refund count once (docs/decisions/0007).
 */
export const RefundBody = Type.Object(
  {
    amount: Type.Optional(EuroAmount),
    reason: SingleLine({ minLength: 1, maxLength: REFUND_REASON_MAX }),
  },
  { additionalProperties: false },
);
export type RefundBody = Type.Static<typeof RefundBody>;

/**
 * Answer of a refund: the order, what this refund gave back, all refunded of it so far and what is
 * left (EUR), whether the order is now refunded in full, and the position (read-your-writes).
 */
export const RefundAnswer = Type.Object({
  success: Type.Boolean(),
  orderId: Type.String(),
  reference: Type.String(),
  refunded: Euros,
  refundedTotal: Euros,
  remaining: Euros,
  full: Type.Boolean(),
  position: Type.Integer(),
});
export type RefundAnswer = Type.Static<typeof RefundAnswer>;

/** A participant in an administrator's path (a positive integer, as text). */
export const AdminParticipantPaymentsParams = Type.Object(
  { id: Type.String({ pattern: '^[1-9][0-9]{0,8}$' }) },
  { additionalProperties: false },
);
export type AdminParticipantPaymentsParams = Type.Static<typeof AdminParticipantPaymentsParams>;

/** One order as the admin console lists it: amounts in EUR. */
export const AdminPaymentOrder = Type.Object({
  orderId: Type.String(),
  reference: Type.String(),
  /** The payer. */
  participantId: Type.Integer(),
  kind: Type.Union([Type.Literal('fee'), Type.Literal('donation')]),
  status: Type.Union([Type.Literal('pending'), Type.Literal('paid'), Type.Literal('failed')]),
  amount: Euros,
  refunded: Euros,
  /** A team fee's members (participant ids); empty for an order of the payer alone. */
  covers: Type.Array(Type.Integer()),
});
export type AdminPaymentOrder = Type.Static<typeof AdminPaymentOrder>;

/**
 * GET /api/admin/participant/{id}/payments (administrators only: 401, 403 FORBIDDEN):
 * the orders the participant placed or a team fee placed for them, paid ones first, then by
 * reference — what the console's refund action offers. Read from the payments read model
 * (x-min-position honoured); an unknown participant has none.
 */
export const AdminParticipantPaymentsAnswer = Type.Object({ orders: Type.Array(AdminPaymentOrder) });
export type AdminParticipantPaymentsAnswer = Type.Static<typeof AdminParticipantPaymentsAnswer>;
