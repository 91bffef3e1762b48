import { describe, expect, test } from 'vitest';
import { feeFor } from '@sinilill/domain';
import { edition2025 } from '@sinilill/domain/seed';
import type { RecordedEvent } from '@sinilill/event-store';
import { recordedEvent as recorded } from '../testing';
import { emptyPaymentsWorkingSet, evolvePayments, type PaymentsWorkingSet } from './evolve';

const fold = (events: readonly RecordedEvent[], set: PaymentsWorkingSet = emptyPaymentsWorkingSet()) => {
  for (const event of events) evolvePayments(set, event, () => edition2025);
  return set;
};
const at = '2025-04-05T08:00:00.000Z';
const registered = (participantId: number, teamId: number, birthYear: number | null) => recorded('ParticipantRegistered', {
  participantId, teamId, fullName: 'Mari', email: 'mari@example.ee', birthYear, gender: 'FEMALE', isCaptain: false, newsletter: false, registeredAt: at, edition: 2025,
});
const paid = (participantId: number, teamId: number, amountCents: number) => recorded('PaymentSucceeded', {
  orderId: `o-${amountCents}`, participantId, teamId, amountCents, provider: 'sandbox', providerOrderId: null, succeededAt: at,
});
const donated = (participantId: number, teamId: number, amountCents: number) => recorded('DonationReceived', {
  orderId: `o-${amountCents}`, participantId, teamId, amountCents, provider: 'sandbox', providerOrderId: null, receivedAt: at,
});

describe('payments', () => {
  test('a participant’s info carries the fee of their birth year and follows the paid flag', () => {
    const set = fold([registered(1, 7, 1980), registered(2, 7, 2012), recorded('ParticipantPaymentMarked', { participantId: 2, isPaid: true, source: 'payment' })]);
    expect(set.info.get(1)).toEqual({ participantId: 1, teamId: 7, edition: 2025, isPaid: false, isChild: false, feeCents: feeFor(1980, edition2025) });
    expect(set.info.get(2)).toEqual({ participantId: 2, teamId: 7, edition: 2025, isPaid: true, isChild: true, feeCents: feeFor(2012, edition2025) });
  });

  test('a deleted participant’s info is removed', () => {
    const set = fold([registered(1, 7, 1980), recorded('ParticipantDeleted', { participantId: 1, teamId: 7, deletedAt: at })]);
    expect(set.info.get(1)).toBeNull();
    expect(set.changedInfo.has(1)).toBe(true);
  });

  test('fees and donations add up per team and overall', () => {
    const set = fold([paid(1, 7, 1500), paid(2, 8, 500), donated(1, 7, 700)]);
    expect(set.teams.get(7)).toEqual({ teamId: 7, edition: 2025, feesCents: 1500, donationsCents: 700, deleted: false, unknownCount: 0 });
    expect(set.teams.get(8)).toEqual({ teamId: 8, edition: 2025, feesCents: 500, donationsCents: 0, deleted: false, unknownCount: 0 });
    expect(set.totals).toEqual({ feesCents: 2000, donationsCents: 700, unknownCount: 0 });
  });

  test('a deleted team is hidden but its money, and money confirmed later, stays in the totals', () => {
    const set = fold([paid(1, 7, 1500), recorded('TeamDeleted', { teamId: 7, deletedAt: at }), donated(1, 7, 300)]);
    expect(set.teams.get(7)).toEqual({ teamId: 7, edition: 2025, feesCents: 1500, donationsCents: 300, deleted: true, unknownCount: 0 });
    expect(set.totals).toEqual({ feesCents: 1500, donationsCents: 300, unknownCount: 0 });
  });

  test('folds on top of loaded totals', () => {
    expect(fold([donated(1, 7, 100)], emptyPaymentsWorkingSet({ feesCents: 5000, donationsCents: 200, unknownCount: 0 })).totals).toEqual({ feesCents: 5000, donationsCents: 300, unknownCount: 0 });
  });

  test('an imported paid mark adds its assumed fee; one of unknown amount makes the totals it feeds incomplete', () => {
    const set = fold([
      registered(1, 7, 1980), registered(2, 7, 2012), registered(3, 8, 1990),
      recorded('ParticipantPaymentMarked', { participantId: 1, isPaid: true, source: 'import', assumedCents: 1500 }),
      recorded('ParticipantPaymentMarked', { participantId: 2, isPaid: true, source: 'import', assumedCents: 500 }),
      recorded('ParticipantPaymentMarked', { participantId: 3, isPaid: true, source: 'import' }),
    ]);
    expect(set.teams.get(7)).toEqual({ teamId: 7, edition: 2025, feesCents: 2000, donationsCents: 0, deleted: false, unknownCount: 0 });
    expect(set.teams.get(8)).toEqual({ teamId: 8, edition: 2025, feesCents: 0, donationsCents: 0, deleted: false, unknownCount: 1 });
    expect(set.totals).toEqual({ feesCents: 2000, donationsCents: 0, unknownCount: 1 });
  });

  test('a paid mark imported before fees were assumed (no source) adds nothing', () => {
    const set = fold([registered(1, 7, 1980), recorded('ParticipantPaymentMarked', { participantId: 1, isPaid: true })]);
    expect(set.totals).toEqual({ feesCents: 0, donationsCents: 0, unknownCount: 0 });
  });

  test('an order is pending, then failed or paid, and paid is final; ids and cents only', () => {
    const orderId = '3f2a9c1b-0000-4000-8000-000000000001';
    const ordered = recorded('PaymentOrdered', {
      orderId, participantId: 1, teamId: 7, kind: 'fee', amountCents: 2050, feeCents: 1500, provider: 'sandbox', country: 'EE', method: 'HABAEE2X', orderedAt: at,
    });
    const failed = recorded('PaymentFailed', { orderId, participantId: 1, teamId: 7, provider: 'sandbox', providerOrderId: null, reason: 'ABANDONED', failedAt: at });
    const succeeded = recorded('PaymentSucceeded', { orderId, participantId: 1, teamId: 7, amountCents: 2050, provider: 'sandbox', providerOrderId: null, succeededAt: at });
    expect(fold([ordered]).orders.get(orderId)).toEqual({ orderId, reference: '3F2A9C1B', participantId: 1, kind: 'fee', amountCents: 2050, status: 'pending' });
    expect(fold([ordered, failed]).orders.get(orderId)?.status).toBe('failed');
    const set = fold([ordered, failed, succeeded, failed]);
    expect(set.orders.get(orderId)?.status).toBe('paid');
    expect(set.changedOrders).toEqual(new Set([orderId]));
    // An outcome for an order the batch did not load changes no order row.
    expect(fold([succeeded]).changedOrders.size).toBe(0);
  });
});
