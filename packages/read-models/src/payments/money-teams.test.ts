import { describe, expect, test } from 'vitest';
import { moneyTeams, paymentsProjection } from './projection';

const settlement = { orderId: 'o1', participantId: 11, amountCents: 1500, provider: 'sandbox', providerOrderId: null };

describe('moneyTeams: which live team pages a payments batch tells', () => {
  test('given succeeded fees, donations and refunds, then their teams, ascending and distinct', () => {
    expect(moneyTeams([
      { type: 'DonationReceived', data: { ...settlement, teamId: 7 } },
      { type: 'PaymentSucceeded', data: { ...settlement, teamId: 3 } },
      { type: 'PaymentRefunded', data: { orderId: 'o1', participantId: 11, teamId: 7, kind: 'fee', amountCents: 100, refundedCents: 100 } },
    ])).toEqual([3, 7]);
  });
  test('given a paid mark beside a payment (the same append), then only the payment\'s team, not any team', () => {
    expect(moneyTeams([
      { type: 'PaymentSucceeded', data: { ...settlement, teamId: 3 } },
      { type: 'ParticipantPaymentMarked', data: { participantId: 11, isPaid: true } },
    ])).toEqual([3]);
  });
  test('given orders, failures and registrations only, then no team', () => {
    expect(moneyTeams([
      { type: 'PaymentOrdered', data: { orderId: 'o1', participantId: 11, teamId: 3, amountCents: 1500 } },
      { type: 'PaymentFailed', data: { orderId: 'o1', participantId: 11, teamId: 3 } },
      { type: 'ParticipantRegistered', data: { participantId: 11, teamId: 3 } },
    ])).toEqual([]);
  });
  test('the projection is not silent and names teams by moneyTeams', () => {
    expect(paymentsProjection.silent).toBeFalsy();
    expect(paymentsProjection.teamsOf).toBe(moneyTeams);
  });
});
