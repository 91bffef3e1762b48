/**
 * Fees as spec §9 writes them: a company team pays fees.companyPerPersonCents per
 * person whatever the birth year, its captain pays for every unpaid member at once, and an
 * administrator records refunds. Given past events, when a command, then events or a code.
 */
import { describe, expect, it } from 'vitest';
import { edition2025 } from '../edition/seed';
import type { PaymentOrdered, PaymentRefunded, PaymentSucceeded } from '../events';
import { createParticipantDecider } from '../participant/decider';
import { createTeamDecider } from '../team/decider';
import { adminActor, deciderSpec, participantActor, systemActor, testContext } from '../testing';
import { createPaymentDecider, type OrderPayment, type RefundPayment } from './decider';
import { participantFee, teamFeeCents } from './fees';
import { orderReference } from './reference';

const now = '2025-04-10T09:00:00.000Z';
const orderId = '5b1c7e2a-9d3f-4c8b-a1e0-6f2d4c8b9a10';
const { companyPerPersonCents, adultCents, childCents } = edition2025.fees;
const captain = testContext({ now, actor: participantActor(3, 7) });
const member = testContext({ now, actor: participantActor(4, 7) });
const admin = testContext({ now, actor: adminActor });
const { given } = deciderSpec(createPaymentDecider(edition2025));

const order = (overrides: Partial<OrderPayment['data']> = {}): OrderPayment => ({
  type: 'OrderPayment',
  data: {
    orderId,
    participantId: 3,
    participant: { teamId: 7, birthYear: 1980, isPaid: false, company: true },
    kind: 'fee',
    grandTotalCents: 3 * companyPerPersonCents,
    amountCents: 3 * companyPerPersonCents,
    provider: 'sandbox',
    country: 'EE',
    method: 'SWEDBANK',
    countryMethods: ['SWEDBANK', 'SEB'],
    team: { company: true, isCaptain: true, unpaidMemberIds: [5, 3, 4] },
    ...overrides,
  },
});
const ordered = (overrides: Partial<PaymentOrdered['data']> = {}): PaymentOrdered => ({
  type: 'PaymentOrdered',
  data: {
    orderId, participantId: 3, teamId: 7, kind: 'fee', amountCents: 3 * companyPerPersonCents, feeCents: companyPerPersonCents,
    provider: 'sandbox', country: 'EE', method: 'SWEDBANK', reference: orderReference(orderId), orderedAt: now, covers: [3, 4, 5],
    ...overrides,
  },
});
const succeeded = (amountCents = 3 * companyPerPersonCents): PaymentSucceeded => ({
  type: 'PaymentSucceeded',
  data: { orderId, participantId: 3, teamId: 7, provider: 'sandbox', providerOrderId: null, amountCents, succeededAt: now },
});
const refund = (amountCents: number | null, reason = 'Ettevõte loobus'): RefundPayment => ({ type: 'RefundPayment', data: { orderId, amountCents, reason } });
const refunded = (overrides: Partial<PaymentRefunded['data']>): PaymentRefunded => ({
  type: 'PaymentRefunded',
  data: {
    orderId, participantId: 3, teamId: 7, kind: 'fee', amountCents: 1500, refundedCents: 1500, full: false,
    reason: 'Ettevõte loobus', refundedAt: now, ...overrides,
  },
});

describe('participantFee and teamFeeCents (spec §9: company team 15 EUR per person)', () => {
  it('charges a company team member the company fee whatever the birth year', () => {
    expect(participantFee(1980, true, edition2025)).toBe(companyPerPersonCents);
    expect(participantFee(2012, true, edition2025)).toBe(companyPerPersonCents);
    expect(participantFee(2012, false, edition2025)).toBe(childCents);
    expect(participantFee(null, false, edition2025)).toBe(adultCents);
  });

  it('multiplies the company fee by the unpaid members', () => {
    expect(teamFeeCents(3, edition2025)).toBe(4500);
    expect(teamFeeCents(0, edition2025)).toBe(0);
  });
});

describe('OrderPayment for a company team', () => {
  it('charges a member born 2012 the company fee of 15 EUR, not the child fee', () => {
    const own = order({
      participantId: 4, participant: { teamId: 7, birthYear: 2012, isPaid: false, company: true }, team: undefined,
      grandTotalCents: 1500, amountCents: 1500,
    });
    given([]).when(own, member).then([ordered({ participantId: 4, amountCents: 1500, covers: undefined })]);
    given([]).when({ ...own, data: { ...own.data, grandTotalCents: childCents, amountCents: childCents } }, member).then('AMOUNT_TOO_LOW');
  });

  it('lets the captain pay for every unpaid member at once: the order covers them, ascending', () => {
    given([]).when(order(), captain).then([ordered()]);
    // More than the fee is a custom amount, as for one person.
    given([]).when(order({ grandTotalCents: 5000, amountCents: 5000 }), captain).then([ordered({ amountCents: 5000 })]);
  });

  it('refuses less than 15 EUR per unpaid member (AMOUNT_TOO_LOW)', () => {
    given([]).when(order({ grandTotalCents: 4499, amountCents: 4499 }), captain).then('AMOUNT_TOO_LOW');
  });

  it('lets a captain who paid pay for members who joined later', () => {
    given([]).when(order({
      participant: { teamId: 7, birthYear: 1980, isPaid: true, company: true },
      team: { company: true, isCaptain: true, unpaidMemberIds: [9] }, grandTotalCents: 1500, amountCents: 1500,
    }), captain).then([ordered({ amountCents: 1500, covers: [9] })]);
  });

  it('refuses a member who is not the captain (FORBIDDEN), a team that is no company team and a donation (INVALID_REQUEST)', () => {
    given([]).when(order({ participantId: 4, team: { company: true, isCaptain: false, unpaidMemberIds: [3, 4, 5] } }), member).then('FORBIDDEN');
    given([]).when(order({ team: { company: false, isCaptain: true, unpaidMemberIds: [3, 4, 5] } }), captain).then('INVALID_REQUEST');
    given([]).when(order({ kind: 'donation' }), captain).then('INVALID_REQUEST');
  });

  it('refuses when every member has paid (ALREADY_PAID_FOR), after the bank and total checks', () => {
    given([]).when(order({ team: { company: true, isCaptain: true, unpaidMemberIds: [] } }), captain).then('ALREADY_PAID_FOR');
    given([]).when(order({ method: '' }), captain).then('NOT_SELECTED');
    given([]).when(order({ grandTotalCents: 1 }), captain).then('AMOUNT_NOT_MATCH');
  });

  it('remembers whom the order covers', () => {
    given([]).when(order(), captain).thenState({
      exists: true, orderId, participantId: 3, teamId: 7, kind: 'fee', amountCents: 4500, feeCents: companyPerPersonCents,
      provider: 'sandbox', reference: orderReference(orderId), status: 'ordered', covers: [3, 4, 5],
    });
  });
});

describe('RefundPayment (an administrator records a refund)', () => {
  it('refunds the whole order by default, and says it is full', () => {
    given([ordered(), succeeded()]).when(refund(null), admin).then([refunded({ amountCents: 4500, refundedCents: 4500, full: true })]);
  });

  it('refunds in parts up to the amount paid, then refuses more (REFUND_EXCEEDS_PAYMENT)', () => {
    given([ordered(), succeeded()]).when(refund(1500), admin).then([refunded({})]);
    given([ordered(), succeeded(), refunded({})]).when(refund(3000), admin)
      .then([refunded({ amountCents: 3000, refundedCents: 4500, full: true })]);
    given([ordered(), succeeded(), refunded({})]).when(refund(3001), admin).then('REFUND_EXCEEDS_PAYMENT');
    given([ordered(), succeeded(), refunded({ amountCents: 4500, refundedCents: 4500, full: true })]).when(refund(null), admin).then('REFUND_EXCEEDS_PAYMENT');
    given([ordered(), succeeded()]).when(refund(4501), admin).then('REFUND_EXCEEDS_PAYMENT');
  });

  it('refuses a participant (FORBIDDEN), an unknown order (NOT_FOUND) and an unpaid one (ORDER_NOT_PAID)', () => {
    given([ordered(), succeeded()]).when(refund(100), captain).then('FORBIDDEN');
    given([]).when(refund(100), admin).then('NOT_FOUND');
    given([ordered()]).when(refund(100), admin).then('ORDER_NOT_PAID');
    given([ordered()]).when(refund(100), testContext({ now, actor: systemActor })).then('ORDER_NOT_PAID');
  });

  it('refuses 0 (INVALID_AMOUNT) and a blank or over-long reason', () => {
    given([ordered(), succeeded()]).when(refund(0), admin).then('INVALID_AMOUNT');
    given([ordered(), succeeded()]).when(refund(100, '  '), admin).then('INVALID_REQUEST');
    given([ordered(), succeeded()]).when(refund(100, 'x'.repeat(501)), admin).then('VALUE_TOO_LONG');
  });
});

describe('a company team and its members', () => {
  it('records company: true only for a company team', () => {
    const teams = deciderSpec(createTeamDecider(edition2025));
    const register = (company?: boolean) => ({
      type: 'RegisterTeam' as const,
      data: { teamId: 7, teamName: 'Firma OÜ', description: '', joinCode: 'ABC123', icon: null, ...(company === undefined ? {} : { company }) },
    });
    const base = { teamId: 7, edition: 2025, teamName: 'Firma OÜ', description: '', joinCode: 'ABC123', icon: null, registeredAt: now };
    teams.given([]).when(register(true), captain).then([{ type: 'TeamRegistered', data: { ...base, company: true } }]);
    teams.given([]).when(register(false), captain).then([{ type: 'TeamRegistered', data: base }]);
    teams.given([]).when(register(), captain).then([{ type: 'TeamRegistered', data: base }]);
    teams.given([]).when(register(true), captain).thenState({ exists: true, ...base, deleted: false, company: true });
  });

  it('records an administrator\'s mark as the fee paid by hand, and an unmark takes it back', () => {
    const participants = deciderSpec(createParticipantDecider(edition2025));
    const registeredChild = {
      type: 'ParticipantRegistered' as const,
      data: {
        participantId: 4, teamId: 7, edition: 2025, fullName: 'Mia', email: 'mia@example.ee', birthYear: 2012, gender: 'FEMALE' as const,
        isCaptain: false, newsletter: false, registeredAt: now,
      },
    };
    const mark = (isPaid: boolean, company?: boolean) => ({
      type: 'MarkPayment' as const, data: { participantId: 4, isPaid, source: 'admin' as const, ...(company === undefined ? {} : { company }) },
    });
    participants.given([registeredChild]).when(mark(true), admin)
      .then([{ type: 'ParticipantPaymentMarked', data: { participantId: 4, isPaid: true, source: 'admin', manualCents: childCents } }]);
    participants.given([registeredChild]).when(mark(true, true), admin)
      .then([{ type: 'ParticipantPaymentMarked', data: { participantId: 4, isPaid: true, source: 'admin', manualCents: companyPerPersonCents } }]);
    const markedByHand = { type: 'ParticipantPaymentMarked' as const, data: { participantId: 4, isPaid: true, source: 'admin' as const, manualCents: 1500 } };
    participants.given([registeredChild, markedByHand]).when(mark(false), admin)
      .then([{ type: 'ParticipantPaymentMarked', data: { participantId: 4, isPaid: false, source: 'admin', manualCents: 1500 } }]);
    // Paid through the provider: an unmark takes back no money (a refund does that).
    const paidOnline = { type: 'ParticipantPaymentMarked' as const, data: { participantId: 4, isPaid: true, source: 'payment' as const, orderId } };
    participants.given([registeredChild, paidOnline]).when(mark(false), admin)
      .then([{ type: 'ParticipantPaymentMarked', data: { participantId: 4, isPaid: false, source: 'admin' } }]);
    // The order that set the flag is remembered (a full refund of it takes the flag back).
    const state = participants.given([registeredChild])
      .when({ type: 'MarkPayment', data: { participantId: 4, isPaid: true, source: 'payment', orderId } }, testContext({ now, actor: systemActor }))
      .thenState({
        exists: true, participantId: 4, teamId: 7, edition: 2025, fullName: 'Mia', email: 'mia@example.ee', birthYear: 2012, gender: 'FEMALE',
        isCaptain: false, newsletter: false, isPaid: true, paidOrderId: orderId, registeredAt: now, deleted: false,
      });
    expect(state.manualCents).toBeUndefined();
  });

  it('records an imported paid mark as the fee assumed paid in the old system, which an administrator\'s unmark takes back', () => {
    const participants = deciderSpec(createParticipantDecider(edition2025));
    const registered = (birthYear: number | null) => ({
      type: 'ParticipantRegistered' as const,
      data: {
        participantId: 4, teamId: 7, edition: 2025, fullName: 'Mia', email: 'mia@example.ee', birthYear, gender: 'FEMALE' as const,
        isCaptain: false, newsletter: false, registeredAt: now,
      },
    });
    const system = testContext({ now, actor: systemActor });
    const imported = (company?: boolean) => ({
      type: 'MarkPayment' as const, data: { participantId: 4, isPaid: true, source: 'import' as const, ...(company ? { company } : {}) },
    });
    participants.given([registered(2012)]).when(imported(), system)
      .then([{ type: 'ParticipantPaymentMarked', data: { participantId: 4, isPaid: true, source: 'import', assumedCents: childCents } }]);
    participants.given([registered(2010)]).when(imported(), system)
      .then([{ type: 'ParticipantPaymentMarked', data: { participantId: 4, isPaid: true, source: 'import', assumedCents: adultCents } }]);
    participants.given([registered(2012)]).when(imported(true), system)
      .then([{ type: 'ParticipantPaymentMarked', data: { participantId: 4, isPaid: true, source: 'import', assumedCents: companyPerPersonCents } }]);
    // No birth year: the fee cannot be known, so no amount is assumed.
    participants.given([registered(null)]).when(imported(), system)
      .then([{ type: 'ParticipantPaymentMarked', data: { participantId: 4, isPaid: true, source: 'import' } }]);
    const importedMark = { type: 'ParticipantPaymentMarked' as const, data: { participantId: 4, isPaid: true, source: 'import' as const, assumedCents: 500 } };
    participants.given([registered(2012), importedMark]).when({ type: 'MarkPayment', data: { participantId: 4, isPaid: false, source: 'admin' } }, admin)
      .then([{ type: 'ParticipantPaymentMarked', data: { participantId: 4, isPaid: false, source: 'admin', manualCents: 500 } }]);
  });
});
