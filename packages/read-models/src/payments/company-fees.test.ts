/**
 * payments' fold for spec §9: company teams' fees, administrators' manual
 * payments and refunds in the money raised.
 */
import { describe, expect, test } from 'vitest';
import { edition2025 } from '@sinilill/domain/seed';
import type { RecordedEvent } from '@sinilill/event-store';
import { recordedEvent as recorded } from '../testing';
import { emptyPaymentsWorkingSet, evolvePayments, type PaymentsWorkingSet } from './evolve';

const fold = (events: readonly RecordedEvent[], set: PaymentsWorkingSet = emptyPaymentsWorkingSet()) => {
  for (const event of events) evolvePayments(set, event, () => edition2025);
  return set;
};
const at = '2025-04-05T08:00:00.000Z';
const orderId = '3f2a9c1b-0000-4000-8000-000000000002';
const team = (teamId: number, company?: boolean) => recorded('TeamRegistered', {
  teamId, teamName: `Tiim ${teamId}`, description: '', joinCode: `CODE${teamId}`, icon: null, registeredAt: at, edition: 2025, ...(company ? { company } : {}),
});
const registered = (participantId: number, teamId: number, birthYear: number, isCaptain = false) => recorded('ParticipantRegistered', {
  participantId, teamId, fullName: 'Mari', email: 'mari@example.ee', birthYear, gender: 'FEMALE', isCaptain, newsletter: false, registeredAt: at, edition: 2025,
});
const teamFee = recorded('PaymentOrdered', {
  orderId, participantId: 1, teamId: 7, kind: 'fee', amountCents: 4500, feeCents: 1500, provider: 'sandbox', country: 'EE', method: 'HABAEE2X',
  reference: '3F2A9C1B', orderedAt: at, covers: [1, 2, 3],
});
const teamFeePaid = recorded('PaymentSucceeded', { orderId, participantId: 1, teamId: 7, amountCents: 4500, provider: 'sandbox', providerOrderId: null, succeededAt: at });
const refunded = (amountCents: number, refundedCents: number) => recorded('PaymentRefunded', {
  orderId, participantId: 1, teamId: 7, kind: 'fee', amountCents, refundedCents, full: refundedCents === 4500, reason: 'tagasi', refundedAt: at,
});

describe('payments: company fees and manual marks', () => {
  test('a company team member owes the company fee whatever the birth year; the captain is known', () => {
    const set = fold([team(7, true), registered(1, 7, 1980, true), registered(2, 7, 2012), team(8), registered(3, 8, 2012)]);
    expect(set.info.get(1)).toEqual({ participantId: 1, teamId: 7, edition: 2025, isPaid: false, isChild: false, feeCents: 1500, company: true, isCaptain: true });
    expect(set.info.get(2)).toEqual({ participantId: 2, teamId: 7, edition: 2025, isPaid: false, isChild: true, feeCents: 1500, company: true });
    expect(set.info.get(3)).toEqual({ participantId: 3, teamId: 8, edition: 2025, isPaid: false, isChild: true, feeCents: 500 });
    expect(set.newCompanyTeams).toEqual(new Set([7]));
  });

  test('a member joining a company team registered in an earlier batch owes the company fee (loaded flag)', () => {
    const set = emptyPaymentsWorkingSet();
    set.companyTeams.set(7, true);
    expect(fold([registered(4, 7, 2015)], set).info.get(4)).toMatchObject({ feeCents: 1500, company: true });
  });

  test('a team fee remembers whom it covers, counts once, and refunds take the money back', () => {
    const set = fold([team(7, true), registered(1, 7, 1980, true), teamFee, teamFeePaid]);
    expect(set.orders.get(orderId)).toMatchObject({ status: 'paid', amountCents: 4500, covers: [1, 2, 3] });
    expect(set.totals).toEqual({ feesCents: 4500, donationsCents: 0, unknownCount: 0 });
    fold([refunded(1000, 1000)], set);
    expect(set.totals).toEqual({ feesCents: 3500, donationsCents: 0, unknownCount: 0 });
    expect(set.teams.get(7)).toMatchObject({ feesCents: 3500 });
    expect(set.orders.get(orderId)).toMatchObject({ refundedCents: 1000, status: 'paid' });
    fold([refunded(3500, 4500)], set);
    expect(set.totals.feesCents).toBe(0);
    expect(set.orders.get(orderId)?.refundedCents).toBe(4500);
  });

  test('an administrator\'s manual payment counts as a fee, and an unmark takes it back', () => {
    const set = fold([team(8), registered(3, 8, 2012)]);
    fold([recorded('ParticipantPaymentMarked', { participantId: 3, isPaid: true, source: 'admin', manualCents: 500 })], set);
    expect(set.info.get(3)?.isPaid).toBe(true);
    expect(set.totals).toEqual({ feesCents: 500, donationsCents: 0, unknownCount: 0 });
    expect(set.teams.get(8)).toMatchObject({ feesCents: 500 });
    fold([recorded('ParticipantPaymentMarked', { participantId: 3, isPaid: false, source: 'admin', manualCents: 500 })], set);
    expect(set.totals).toEqual({ feesCents: 0, donationsCents: 0, unknownCount: 0 });
    // Marks without money (imported, or older events) count nothing.
    fold([recorded('ParticipantPaymentMarked', { participantId: 3, isPaid: true, source: 'admin' })], set);
    expect(set.totals.feesCents).toBe(0);
  });
});
