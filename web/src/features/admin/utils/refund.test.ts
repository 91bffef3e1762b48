import { describe, expect, it } from 'vitest';
import { checkRefundAmount, refundableCents } from './refund';

const order = { orderId: 'o', reference: 'ABCDEF12', participantId: 1, kind: 'fee' as const, status: 'paid' as const, amount: 45, refunded: 10, covers: [1, 2, 3] };

describe('the refund form', () => {
  it('offers what a paid order has left to refund, and nothing for an unpaid one', () => {
    expect(refundableCents(order)).toBe(3500);
    expect(refundableCents({ ...order, refunded: 45 })).toBe(0);
    expect(refundableCents({ ...order, status: 'pending' })).toBe(0);
  });

  it('reads euros with a point or a comma; empty refunds everything left', () => {
    expect(checkRefundAmount('', 3500)).toEqual({ ok: true, cents: null });
    expect(checkRefundAmount('10', 3500)).toEqual({ ok: true, cents: 1000 });
    expect(checkRefundAmount(' 12,50 ', 3500)).toEqual({ ok: true, cents: 1250 });
    expect(checkRefundAmount('35.00', 3500)).toEqual({ ok: true, cents: 3500 });
  });

  it('refuses 0, more than two decimals and text (INVALID_AMOUNT), and more than is left (REFUND_EXCEEDS_PAYMENT)', () => {
    for (const bad of ['0', '0.00', '1.005', 'kümme', '-5']) expect(checkRefundAmount(bad, 3500)).toEqual({ ok: false, code: 'INVALID_AMOUNT' });
    expect(checkRefundAmount('35.01', 3500)).toEqual({ ok: false, code: 'REFUND_EXCEEDS_PAYMENT' });
  });
});
