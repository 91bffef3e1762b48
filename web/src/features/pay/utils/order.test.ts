import { edition2025 } from '@sinilill/domain/seed';
import { describe, expect, it } from 'vitest';
import { checkOrder, paymentOrderBody } from './order';

const { adultCents, childCents, donationMinCents } = edition2025.fees;
const fee = { methodCode: 'swedbank', cents: adultCents, minCents: adultCents, methodRequired: true };
const donation = { methodCode: null, cents: 500, minCents: donationMinCents, methodRequired: false };

describe('checkOrder', () => {
  it('given a bank and the fee, then the fee is ordered', () => {
    expect(checkOrder(fee)).toEqual({ ok: true, cents: 1500 });
    expect(checkOrder({ ...fee, cents: childCents, minCents: childCents })).toEqual({ ok: true, cents: 500 });
  });

  it('given more than the fee, then the custom amount is ordered', () => {
    expect(checkOrder({ ...fee, cents: 2000 })).toEqual({ ok: true, cents: 2000 });
  });

  it('given no bank for the fee, then NOT_SELECTED, before any amount problem', () => {
    expect(checkOrder({ ...fee, methodCode: null })).toEqual({ ok: false, code: 'NOT_SELECTED' });
    expect(checkOrder({ ...fee, methodCode: '', cents: null })).toEqual({ ok: false, code: 'NOT_SELECTED' });
  });

  it('given less than the fee, or no amount, then AMOUNT_TOO_LOW', () => {
    expect(checkOrder({ ...fee, cents: 1499 })).toEqual({ ok: false, code: 'AMOUNT_TOO_LOW' });
    expect(checkOrder({ ...fee, cents: null })).toEqual({ ok: false, code: 'AMOUNT_TOO_LOW' });
  });

  it('given a donation, then no bank is needed and at least 1 EUR is', () => {
    expect(checkOrder(donation)).toEqual({ ok: true, cents: 500 });
    expect(checkOrder({ ...donation, cents: 100 })).toEqual({ ok: true, cents: 100 });
    expect(checkOrder({ ...donation, cents: 99 })).toEqual({ ok: false, code: 'AMOUNT_TOO_LOW' });
    expect(checkOrder({ ...donation, cents: null })).toEqual({ ok: false, code: 'AMOUNT_TOO_LOW' });
  });
});

describe('paymentOrderBody', () => {
  it('sends the amount in EUR (spec §3/§9) as both grandTotal and payment.amount, with the bank', () => {
    expect(paymentOrderBody({ isPaid: false, country: 'EE', methodCode: 'swedbank', cents: 1500, lang: 'et' })).toEqual({
      billingAddress: {},
      isPaid: false,
      grandTotal: 15,
      payment: { method: 'paymentInitiation', methodOptions: { preferredCountry: 'EE', preferredProvider: 'swedbank' }, amount: 15 },
      lang: 'est',
    });
  });

  it('writes a custom amount\'s cents as exact euros with at most two decimals', () => {
    for (const [cents, euros] of [[2050, 20.5], [1999, 19.99], [30, 0.3], [100, 1], [501, 5.01]] as const) {
      const body = paymentOrderBody({ isPaid: false, country: 'EE', methodCode: 'swedbank', cents, lang: 'et' });
      expect(body.grandTotal).toBe(euros);
      expect(JSON.stringify(body.payment.amount)).toBe(String(euros));
    }
  });

  it('leaves the bank empty for a donation, and asks for the provider\'s pages in the page\'s language', () => {
    const body = paymentOrderBody({ isPaid: true, country: 'EE', methodCode: null, cents: 500, lang: 'en' });
    expect(body.lang).toBe('eng');
    expect(body.isPaid).toBe(true);
    expect(body.payment.methodOptions.preferredProvider).toBe('');
    expect(body.grandTotal).toBe(body.payment.amount);
  });
});
