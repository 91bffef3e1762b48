import { describe, expect, it } from 'vitest';
import { edition2025 } from '../edition/seed';
import type { DonationReceived, PaymentFailed, PaymentOrdered, PaymentSucceeded } from '../events';
import { adminActor, deciderSpec, participantActor, systemActor, testContext } from '../testing';
import type { OrderPayment, RecordPaymentOutcome } from './decider';
import { paymentDecider } from './decider';
import { feeFor } from './fees';
import { orderReference } from './reference';

const { given } = deciderSpec(paymentDecider);
const now = '2025-04-10T09:00:00.000Z';
const orderId = '3f2a9c1b-0d4e-4a5b-9c6d-7e8f9a0b1c2d';
const payer = testContext({ now, actor: participantActor(3, 7) });
const provider = testContext({ now, actor: systemActor });
const adultFee = feeFor(1980, edition2025);
const childFee = feeFor(2012, edition2025);
const { donationMinCents } = edition2025.fees;

const order = (overrides: Partial<OrderPayment['data']> = {}): OrderPayment => ({
  type: 'OrderPayment',
  data: {
    orderId,
    participantId: 3,
    participant: { teamId: 7, birthYear: 1980, isPaid: false },
    kind: 'fee',
    grandTotalCents: adultFee,
    amountCents: adultFee,
    provider: 'sandbox',
    country: 'EE',
    method: 'SWEDBANK',
    countryMethods: ['SWEDBANK', 'SEB'],
    ...overrides,
  },
});
const ordered = (overrides: Partial<PaymentOrdered['data']> = {}): PaymentOrdered => ({
  type: 'PaymentOrdered',
  data: {
    orderId,
    participantId: 3,
    teamId: 7,
    kind: 'fee',
    amountCents: adultFee,
    feeCents: adultFee,
    provider: 'sandbox',
    country: 'EE',
    method: 'SWEDBANK',
    reference: orderReference(orderId),
    orderedAt: now,
    ...overrides,
  },
});
const outcome = (status: RecordPaymentOutcome['data']['status'], overrides: Partial<RecordPaymentOutcome['data']> = {}): RecordPaymentOutcome => ({
  type: 'RecordPaymentOutcome',
  data: {
    orderId, provider: 'sandbox', status, amountCents: adultFee, currency: 'EUR', providerOrderId: 'p-1',
    providerStatus: status === 'FAILED' ? 'ABANDONED' : status, ...overrides,
  },
});
const common = { orderId, participantId: 3, teamId: 7, provider: 'sandbox', providerOrderId: 'p-1' };
const succeeded = (amountCents = adultFee): PaymentSucceeded => ({ type: 'PaymentSucceeded', data: { ...common, amountCents, succeededAt: now } });
const received = (amountCents: number): DonationReceived => ({ type: 'DonationReceived', data: { ...common, amountCents, receivedAt: now } });
const failed = (reason = 'ABANDONED'): PaymentFailed => ({ type: 'PaymentFailed', data: { ...common, reason, failedAt: now } });

describe('OrderPayment', () => {
  it('orders the fee of the participant’s birth year with a short reference', () => {
    given([]).when(order(), payer).then([ordered()]);
  });

  it('charges a child (born 2012) the child fee', () => {
    given([]).when(order({ participant: { teamId: 7, birthYear: 2012, isPaid: false }, grandTotalCents: childFee, amountCents: childFee }), payer)
      .then([ordered({ amountCents: childFee, feeCents: childFee })]);
  });

  it('allows a custom amount above the fee, not below it (AMOUNT_TOO_LOW)', () => {
    given([]).when(order({ grandTotalCents: adultFee + 1000, amountCents: adultFee + 1000 }), payer)
      .then([ordered({ amountCents: adultFee + 1000 })]);
    given([]).when(order({ grandTotalCents: adultFee - 1, amountCents: adultFee - 1 }), payer).then('AMOUNT_TOO_LOW');
    // An adult's amount that would do for a child is still too low.
    given([]).when(order({ grandTotalCents: childFee, amountCents: childFee }), payer).then('AMOUNT_TOO_LOW');
  });

  it('needs a bank of the chosen country for the fee (NOT_SELECTED)', () => {
    given([]).when(order({ method: '' }), payer).then('NOT_SELECTED');
    given([]).when(order({ method: 'NO_SUCH_BANK' }), payer).then('NOT_SELECTED');
    given([]).when(order({ country: 'SE', countryMethods: null }), payer).then('NOT_SELECTED');
  });

  it('lets a donation leave the bank to the provider’s page, but not name an unknown one', () => {
    const donation = { kind: 'donation' as const, participant: { teamId: 7, birthYear: 1980, isPaid: true }, grandTotalCents: 500, amountCents: 500 };
    given([]).when(order({ ...donation, method: '' }), payer).then([ordered({ kind: 'donation', amountCents: 500, method: '' })]);
    given([]).when(order({ ...donation, method: 'NO_SUCH_BANK' }), payer).then('NOT_SELECTED');
  });

  it('refuses a grand total other than the amount (AMOUNT_NOT_MATCH)', () => {
    given([]).when(order({ grandTotalCents: adultFee + 100 }), payer).then('AMOUNT_NOT_MATCH');
  });

  it('refuses the fee twice (ALREADY_PAID_FOR) but takes a donation', () => {
    const paid = { teamId: 7, birthYear: 1980, isPaid: true };
    given([]).when(order({ participant: paid }), payer).then('ALREADY_PAID_FOR');
    given([]).when(order({ participant: paid, kind: 'donation', grandTotalCents: donationMinCents, amountCents: donationMinCents }), payer)
      .then([ordered({ kind: 'donation', amountCents: donationMinCents })]);
  });

  it('refuses a donation under 1 EUR (AMOUNT_TOO_LOW)', () => {
    given([]).when(order({ kind: 'donation', grandTotalCents: donationMinCents - 1, amountCents: donationMinCents - 1 }), payer).then('AMOUNT_TOO_LOW');
  });

  it('checks in order: bank, then match, then paid, then amount', () => {
    const paid = { teamId: 7, birthYear: 1980, isPaid: true };
    given([]).when(order({ method: '', grandTotalCents: 1, amountCents: 2, participant: paid }), payer).then('NOT_SELECTED');
    given([]).when(order({ grandTotalCents: 1, amountCents: 2, participant: paid }), payer).then('AMOUNT_NOT_MATCH');
    given([]).when(order({ grandTotalCents: 1, amountCents: 1, participant: paid }), payer).then('ALREADY_PAID_FOR');
  });

  it('lets only the participant themselves order (FORBIDDEN)', () => {
    given([]).when(order(), testContext({ now, actor: participantActor(4, 7) })).then('FORBIDDEN');
    given([]).when(order(), testContext({ now, actor: adminActor })).then('FORBIDDEN');
  });

  it('refuses amounts that are not whole cents (INVALID_REQUEST) and a second order with the same id', () => {
    given([]).when(order({ grandTotalCents: 15.5, amountCents: 15.5 }), payer).then('INVALID_REQUEST');
    given([ordered()]).when(order(), payer).then('ALREADY_EXISTS');
  });
});

describe('RecordPaymentOutcome', () => {
  it('records a paid fee once: a repeated or replayed PAID changes nothing', () => {
    given([ordered()]).when(outcome('PAID'), provider).then([succeeded()]);
    given([ordered(), succeeded()]).when(outcome('PAID'), provider).then([]);
    given([ordered(), succeeded()]).when(outcome('FAILED'), provider).then([]);
  });

  it('records a paid donation as DonationReceived', () => {
    given([ordered({ kind: 'donation', amountCents: 700 })]).when(outcome('PAID', { amountCents: 700 }), provider).then([received(700)]);
  });

  it('records a failure once, and still accepts the bank’s late PAID (spec §4)', () => {
    given([ordered()]).when(outcome('FAILED'), provider).then([failed()]);
    given([ordered(), failed()]).when(outcome('FAILED', { providerStatus: 'VOIDED' }), provider).then([]);
    given([ordered(), failed()]).when(outcome('PAID'), provider).then([succeeded()]);
  });

  it('waits on PENDING and ignores REFUNDED', () => {
    given([ordered()]).when(outcome('PENDING'), provider).then([]);
    given([ordered(), succeeded()]).when(outcome('REFUNDED'), provider).then([]);
  });

  it('refuses another amount, currency or provider than the order’s (INVALID_NOTIFICATION)', () => {
    given([ordered()]).when(outcome('PAID', { amountCents: adultFee - 1 }), provider).then('INVALID_NOTIFICATION');
    given([ordered()]).when(outcome('PAID', { currency: 'PLN' }), provider).then('INVALID_NOTIFICATION');
    given([ordered()]).when(outcome('PAID', { provider: 'montonio' }), provider).then('INVALID_NOTIFICATION');
  });

  it('knows no outcome of an unknown order (NOT_FOUND) and takes outcomes from the system only', () => {
    given([]).when(outcome('PAID'), provider).then('NOT_FOUND');
    given([ordered()]).when(outcome('PAID'), payer).then('FORBIDDEN');
  });

  it('folds to a final state', () => {
    const state = given([ordered()]).when(outcome('PAID'), provider).thenState({
      exists: true, orderId, participantId: 3, teamId: 7, kind: 'fee', amountCents: adultFee, feeCents: adultFee,
      provider: 'sandbox', reference: orderReference(orderId), status: 'succeeded',
    });
    expect(state.status).toBe('succeeded');
  });
});
