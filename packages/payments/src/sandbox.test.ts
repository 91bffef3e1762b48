import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { signToken } from './order-token';
import { PaymentVerificationError, type PaymentOrderRequest } from './port';
import { SANDBOX_ACCESS_KEY, SandboxProvider } from './sandbox';

const SECRET = 'sandbox-secret-for-unit-tests-0123456789';
const orderId = '3f2a9c1b-0d4e-4a5b-9c6d-7e8f9a0b1c2d';
const order: PaymentOrderRequest = {
  orderId, reference: '3F2A9C1B', amountCents: 1550, locale: 'et', country: 'EE', method: 'LHVBEE22',
  returnUrl: 'http://sinilill.test/api/payment/return', notificationUrl: 'http://sinilill.test/api/payment/notification/sandbox',
  description: 'Sinilill 2025 osalustasu',
};

/** A sandbox whose notifications are captured instead of sent. */
function sandbox(secret = SECRET) {
  const sent: { url: string; body: { orderToken: string } }[] = [];
  const provider = new SandboxProvider({
    secret, publicUrl: 'http://sinilill.test',
    fetch: async (url, init) => {
      sent.push({ url: String(url), body: JSON.parse(String(init?.body)) as { orderToken: string } });
      return new Response('{"ok":true}', { status: 200 });
    },
  });
  return { provider, sent };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(PaymentVerificationError);
  return (error as PaymentVerificationError).reason;
}

describe('the sandbox provider', () => {
  it('offers EE, LV, LT and FI in that order, banks by uiPosition, logos of its own', async () => {
    const countries = await sandbox().provider.listMethods();
    expect(countries.map((c) => c.country)).toEqual(['EE', 'LV', 'LT', 'FI']);
    for (const { methods } of countries) {
      expect(methods.map((m) => m.uiPosition)).toEqual([...methods.map((m) => m.uiPosition)].sort((a, b) => a - b));
      for (const m of methods) expect(m.logoUrl).toBe(`http://sinilill.test/api/payment/sandbox/logos/${m.code}.svg`);
    }
    expect(countries[0]!.methods.map((m) => m.name)).toEqual(['Swedbank', 'SEB', 'LHV', 'Luminor', 'Coop Pank', 'Citadele']);
    expect(sandbox().provider.logo(countries[0]!.methods[0]!.code)).toContain('<svg');
    expect(sandbox().provider.logo('NOPE')).toBeNull();
  });

  it('sends the payer to its checkout page, which shows the order in the order’s language', async () => {
    const { provider } = sandbox();
    const { paymentUrl } = await provider.createOrder(order);
    const url = new URL(paymentUrl);
    expect(url.pathname).toBe(`/api/payment/sandbox/checkout/${orderId}`);
    const session = url.searchParams.get('session')!;
    const checkout = await provider.openCheckout(orderId, session);
    const page = provider.checkoutPage(checkout, session);
    expect(page).toContain('<html lang="et">');
    expect(page).toContain('15,50\u00a0€');
    expect(page).toContain('LHV');
    expect(page).toContain('data-testid="sandbox-succeed"');
    expect(page).toContain('data-testid="sandbox-fail"');
    const english = provider.checkoutPage({ ...checkout, locale: 'en', method: '' }, session);
    expect(english).toContain('€15.50');
    expect(english).toContain('data-testid="sandbox-method"'); // no bank chosen: the payer picks one here
  });

  it('refuses a session of another order, a forged one and a notification token as a session', async () => {
    const { provider } = sandbox();
    const session = new URL((await provider.createOrder(order)).paymentUrl).searchParams.get('session')!;
    expect(await refusal(provider.openCheckout('another-order', session))).toBe('claims');
    expect(await refusal(sandbox('another-secret-0123456789012345678').provider.openCheckout(orderId, session))).toBe('signature');
    const notification = await signToken({ accessKey: SANDBOX_ACCESS_KEY, merchantReference: orderId, orderId }, SECRET);
    expect(await refusal(provider.openCheckout(orderId, notification))).toBe('signature');
  });

  it('notifies the application with a signed PAID token and returns the payer with it', async () => {
    const { provider, sent } = sandbox();
    const session = new URL((await provider.createOrder(order)).paymentUrl).searchParams.get('session')!;
    const done = await provider.complete(await provider.openCheckout(orderId, session), 'succeed');
    expect(done.notification).toEqual({ status: 200 });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(order.notificationUrl);
    const returned = new URL(done.redirectUrl).searchParams.get('order-token');
    expect(returned).toBe(sent[0]!.body.orderToken);
    expect(await provider.verifyToken(returned!)).toEqual(expect.objectContaining({
      orderId, status: 'PAID', providerStatus: 'PAID', amountCents: order.amountCents, currency: 'EUR',
    }));
  });

  it('reports a failure as ABANDONED (FAILED)', async () => {
    const { provider, sent } = sandbox();
    const session = new URL((await provider.createOrder(order)).paymentUrl).searchParams.get('session')!;
    await provider.complete(await provider.openCheckout(orderId, session), 'fail');
    expect(await provider.verifyToken(sent[0]!.body.orderToken)).toEqual(expect.objectContaining({ status: 'FAILED', providerStatus: 'ABANDONED' }));
  });

  it('refuses forged, expired, unsigned, foreign and malformed tokens with a reason', async () => {
    const { provider } = sandbox();
    const claims = { accessKey: SANDBOX_ACCESS_KEY, merchantReference: orderId, paymentStatus: 'PAID', grandTotal: 15.5, currency: 'EUR' };
    expect(await refusal(provider.verifyToken(await signToken(claims, 'a-forger-s-secret-0123456789012345')))).toBe('signature');
    const expired = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(SECRET));
    expect(await refusal(provider.verifyToken(expired))).toBe('expired');
    const noExp = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(SECRET));
    expect(await refusal(provider.verifyToken(noExp))).toBe('claims');
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    expect(['algorithm', 'malformed']).toContain(await refusal(provider.verifyToken(unsigned)));
    expect(await refusal(provider.verifyToken(await signToken({ ...claims, accessKey: 'someone-else' }, SECRET)))).toBe('access-key');
    expect(await refusal(provider.verifyToken(await signToken({ ...claims, grandTotal: '15.555' }, SECRET)))).toBe('amount');
    expect(await refusal(provider.verifyToken('not a token'))).toBe('malformed');
  });
});
