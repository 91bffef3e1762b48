/**
 * The `montonio` adapter (docs/decisions/0018) against a local stand-in that enforces Montonio's
 * documented Stargate contract (tests/support/montonio-stand-in.ts): the bank list, orders the
 * stand-in accepts or refuses, notification tokens verified or refused; then the whole flow
 * through the command API on real PostgreSQL: order, the stand-in's signed webhook over HTTP, the
 * return redirect.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (the command API registers the plugin)
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildCommandApi, redisSharedCache } from '@sinilill/command-api';
import type { SessionClaims } from '@sinilill/contracts';
import { feeFor, streams, type ActingUser } from '@sinilill/domain';
import { edition2025 } from '@sinilill/domain/seed';
import { freePort } from '@sinilill/local-infra';
import {
  MONTONIO_METHODS_CACHE_KEY, MontonioProvider, PaymentProviderError, type PaymentOrderRequest, type PaymentVerificationError, type SharedCache,
} from '@sinilill/payments';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';
import { STAND_IN_SETUP, startMontonioStandIn, type MontonioStandIn } from '../support/montonio-stand-in';

const ACCESS_KEY = 'sinilill-access-key';
const SECRET_KEY = 'sinilill-montonio-secret-key-0123456789';
const OTHER_STORE = { accessKey: 'another-store', secretKey: 'another-store-secret-key-0123456789' };
const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };

let standIn: MontonioStandIn;
let serial = 0;

const adapter = (overrides: Partial<ConstructorParameters<typeof MontonioProvider>[0]> = {}) =>
  new MontonioProvider({ accessKey: ACCESS_KEY, secretKey: SECRET_KEY, apiUrl: standIn.apiUrl, ...overrides });

const order = (overrides: Partial<PaymentOrderRequest> = {}): PaymentOrderRequest => {
  serial += 1;
  const orderId = `00000000-0000-4000-8000-${String(serial).padStart(12, '0')}`;
  return {
    orderId, reference: orderId.slice(0, 8).toUpperCase(), amountCents: 1550, locale: 'et', country: 'EE', method: 'LHVBEE22',
    returnUrl: 'http://sinilill.test/api/payment/return', notificationUrl: 'http://sinilill.test/api/payment/notification/montonio',
    description: 'Sinilill 2025 osalustasu', ...overrides,
  };
};

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(() => expect.fail('expected a refusal'), (error: unknown) => error);
}

beforeAll(async () => {
  standIn = await startMontonioStandIn({ [ACCESS_KEY]: SECRET_KEY, [OTHER_STORE.accessKey]: OTHER_STORE.secretKey });
});

afterAll(async () => {
  await standIn?.close();
});

describe('the Montonio adapter against the stand-in', () => {
  test('lists the countries in Montonio’s order with their EUR banks by uiPosition', async () => {
    const countries = await adapter().listMethods();
    const eurCountries = Object.entries(STAND_IN_SETUP).filter(([, banks]) => banks.some((b) => b.supportedCurrencies.includes('EUR'))).map(([c]) => c);
    expect(countries.map((c) => c.country)).toEqual(eurCountries);
    const estonia = countries.find((c) => c.country === 'EE')!;
    const expected = [...STAND_IN_SETUP.EE!].sort((a, b) => a.uiPosition - b.uiPosition);
    expect(estonia.methods.map((m) => m.code)).toEqual(expected.map((b) => b.code));
    for (const method of estonia.methods) expect(method.logoUrl).toMatch(/^https:\/\//);
  });

  test('a token signed with the wrong secret gets no bank list (the stand-in refuses it)', async () => {
    const error = await refusal(adapter({ secretKey: 'a-wrong-secret-key-0123456789-abcdef' }).listMethods());
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect(standIn.refusals.at(-1)).toMatchObject({ path: '/api/stores/payment-methods', status: 401 });
  });

  test('places an order the stand-in validates: signed, totals in euros adding up, merchant reference = order id', async () => {
    const placed = order();
    const created = await adapter().createOrder(placed);
    expect(created.paymentUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\//);
    const taken = standIn.orders.get(placed.orderId)!;
    expect(created.providerOrderId).toBe(taken.uuid);
    expect(taken.claims).toMatchObject({
      accessKey: ACCESS_KEY, merchantReference: placed.orderId, currency: 'EUR', grandTotal: placed.amountCents / 100,
      returnUrl: placed.returnUrl, notificationUrl: placed.notificationUrl, locale: 'et',
      payment: { method: 'paymentInitiation', amount: placed.amountCents / 100, currency: 'EUR', methodOptions: { preferredProvider: 'LHVBEE22', preferredCountry: 'EE' } },
    });
  });

  test('leaves the bank to Montonio’s page when none is chosen', async () => {
    const placed = order({ method: '' });
    await adapter().createOrder(placed);
    expect((standIn.orders.get(placed.orderId)!.claims.payment as { methodOptions: object }).methodOptions).not.toHaveProperty('preferredProvider');
  });

  test('an order the stand-in refuses (unknown bank, a merchant reference twice, a foreign secret) is a PaymentProviderError', async () => {
    expect(await refusal(adapter().createOrder(order({ method: 'NOSUCHBANK' })))).toBeInstanceOf(PaymentProviderError);
    expect(standIn.refusals.at(-1)?.message).toMatch(/preferredProvider/);
    const twice = order();
    await adapter().createOrder(twice);
    expect(await refusal(adapter().createOrder(twice))).toBeInstanceOf(PaymentProviderError);
    expect(standIn.refusals.at(-1)?.message).toMatch(/unique/);
    expect(await refusal(adapter({ secretKey: 'a-wrong-secret-key-0123456789-abcdef' }).createOrder(order()))).toBeInstanceOf(PaymentProviderError);
    expect(standIn.refusals.at(-1)?.status).toBe(401);
  });

  test('an unreachable Montonio is a PaymentProviderError', async () => {
    const closed = await freePort();
    expect(await refusal(adapter({ apiUrl: `http://127.0.0.1:${closed}/api`, timeoutMs: 2000 }).listMethods())).toBeInstanceOf(PaymentProviderError);
  });

  test('verifies the stand-in’s notification tokens and refuses forged, foreign and expired ones', async () => {
    const placed = order();
    await adapter().createOrder(placed);
    expect(await adapter().verifyToken(await standIn.orderToken(placed.orderId, 'PAID'))).toEqual({
      orderId: placed.orderId, providerOrderId: standIn.orders.get(placed.orderId)!.uuid, status: 'PAID', providerStatus: 'PAID',
      amountCents: placed.amountCents, currency: 'EUR',
    });
    expect(await adapter().verifyToken(await standIn.orderToken(placed.orderId, 'ABANDONED'))).toMatchObject({ status: 'FAILED' });
    const reason = async (token: string) => ((await refusal(adapter().verifyToken(token))) as PaymentVerificationError).reason;
    expect(await reason(await standIn.orderToken(placed.orderId, 'PAID', { secret: 'a-forger-s-secret-0123456789-abcdef' }))).toBe('signature');
    expect(await reason(await standIn.orderToken(placed.orderId, 'PAID', { secret: OTHER_STORE.secretKey }))).toBe('signature');
    expect(await reason(await standIn.orderToken(placed.orderId, 'PAID', { claims: { accessKey: OTHER_STORE.accessKey } }))).toBe('access-key');
    expect(await reason(await standIn.orderToken(placed.orderId, 'PAID', { expiresInSeconds: -60 }))).toBe('expired');
  });
});

describe('the bank list shared through Redis by every process', () => {
  let redis: Redis;
  let prefix: string;
  beforeAll(() => {
    redis = new Redis(inject('redisUrl'), { commandTimeout: 1000 });
  });
  beforeEach(() => {
    prefix = `montonio-${Date.now()}-${Math.random().toString(36).slice(2)}:`;
  });
  afterAll(() => {
    redis?.disconnect();
  });

  test('two providers (two command-API processes) sharing one Redis fetch the list from Montonio once', async () => {
    const before = standIn.methodListsServed;
    const first = adapter({ methodsCache: redisSharedCache(redis, prefix), methodsTtlMs: 60_000 });
    const second = adapter({ methodsCache: redisSharedCache(redis, prefix), methodsTtlMs: 60_000 });
    const [a1, a2] = await Promise.all([first.listMethods(), first.listMethods()]); // concurrent callers share one lookup
    expect(standIn.methodListsServed).toBe(before + 1);
    const b = await second.listMethods();
    expect(standIn.methodListsServed).toBe(before + 1);
    expect(b).toEqual(a1);
    expect(a2).toEqual(a1);
    expect(b.find((c) => c.country === 'EE')?.methods.map((m) => m.code)).toEqual(['HABAEE2X', 'LHVBEE22', 'EEUHEE2X']);
    // Kept under the copy's prefix for the TTL.
    const ttl = await redis.pttl(`${prefix}${MONTONIO_METHODS_CACHE_KEY}`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  test('once the shared copy expires the next process asks Montonio again; something unreadable there counts as a miss', async () => {
    const before = standIn.methodListsServed;
    await adapter({ methodsCache: redisSharedCache(redis, prefix), methodsTtlMs: 100 }).listMethods();
    // Redis answers -2 once the key has expired.
    await expect.poll(() => redis.pttl(`${prefix}${MONTONIO_METHODS_CACHE_KEY}`)).toBe(-2);
    await adapter({ methodsCache: redisSharedCache(redis, prefix), methodsTtlMs: 100 }).listMethods();
    expect(standIn.methodListsServed).toBe(before + 2);
    await redis.set(`${prefix}${MONTONIO_METHODS_CACHE_KEY}`, '{"not":"a list"}', 'PX', 60_000);
    const countries = await adapter({ methodsCache: redisSharedCache(redis, prefix) }).listMethods();
    expect(standIn.methodListsServed).toBe(before + 3);
    expect(countries.map((c) => c.country)).toEqual(['EE', 'LV', 'FI']);
  });

  test('a cache that fails is a miss: the process asks Montonio once, then keeps its own copy for the TTL', async () => {
    const before = standIn.methodListsServed;
    const broken: SharedCache = { get: () => Promise.reject(new Error('redis down')), set: () => Promise.reject(new Error('redis down')) };
    const provider = adapter({ methodsCache: broken });
    const first = await provider.listMethods();
    expect(await provider.listMethods()).toEqual(first);
    expect(standIn.methodListsServed).toBe(before + 1);
  });
});

describe('a fee paid through Montonio, end to end on the command API', () => {
  let app: TestApplication;
  let commandApi: FastifyInstance;
  let publicUrl: string;
  let sessions: TestSessions;

  beforeAll(async () => {
    app = await testApplication({ now: () => new Date('2025-04-15T09:00:00Z') });
    sessions = testSessions(app);
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    commandApi = buildCommandApi({
      commands: app.commands, sessions: sessions.accounts, jwtSecret: JWT_SECRET,
      payments: { provider: adapter(), publicUrl },
    });
    await commandApi.listen({ host: '127.0.0.1', port });
    expect((commandApi.server.address() as AddressInfo).port).toBe(port);
  }, 120_000);

  afterAll(async () => {
    await commandApi?.close();
    await app?.close();
  });

  test('order → Montonio checkout; the signed webhook records one payment and marks the participant; the return says success', async () => {
    const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });
    const { teamId } = await app.commands.registerTeam({ teamName: 'Montonio Tiim', description: '', joinCode: 'MONT1234', icon: null }, system('m-team'));
    const { participantId } = await app.commands.registerParticipant({
      teamId, fullName: 'Mari Montonio', email: 'mari.montonio@example.ee', birthYear: 1985, gender: 'FEMALE', isCaptain: true, newsletter: false,
    }, system('m-person'));
    // A real account with a live session (a token needs its account's session version).
    const claims: SessionClaims = { userId: '00000000-0000-4000-8000-00000000e001', fullName: 'Mari Montonio', is_approved: true, participantId, teamId, role: 'USER', isPaid: false };
    await sessions.enrol(claims);
    const fee = feeFor(1985, edition2025);
    const ordered = await commandApi.inject({
      method: 'POST', url: '/api/payment/order', headers: { authorization: sessions.bearer(commandApi, claims) },
      payload: { billingAddress: {}, isPaid: false, grandTotal: fee / 100, payment: { method: 'paymentInitiation', methodOptions: { preferredCountry: 'EE', preferredProvider: 'HABAEE2X' }, amount: fee / 100 } },
    });
    expect(ordered.statusCode, ordered.body).toBe(200);
    const { orderId, paymentUrl } = ordered.json() as { orderId: string; paymentUrl: string };
    expect(paymentUrl).toBe(`${standIn.apiUrl.replace(/\/api$/, '')}/checkout/${standIn.orders.get(orderId)!.uuid}`);
    expect(standIn.orders.get(orderId)!.claims).toMatchObject({
      notificationUrl: `${publicUrl}/api/payment/notification/montonio`, returnUrl: `${publicUrl}/api/payment/return`, grandTotal: fee / 100,
    });

    const forged = await standIn.orderToken(orderId, 'PAID', { secret: 'a-forger-s-secret-0123456789-abcdef' });
    const refused = await fetch(`${publicUrl}/api/payment/notification/montonio`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderToken: forged }),
    });
    expect({ status: refused.status, body: await refused.json() as unknown }).toEqual({ status: 400, body: { message: 'INVALID_NOTIFICATION' } });

    const done = await standIn.complete(orderId, 'PAID');
    expect(done.notificationStatus).toBe(200);
    const again = await standIn.complete(orderId, 'PAID');
    expect(again.notificationStatus).toBe(200);
    const types = async (stream: string) => (await app.store.readStream(stream)).map((e) => e.type);
    expect(await types(streams.payment(orderId))).toEqual(['PaymentOrdered', 'PaymentSucceeded']);
    expect((await app.store.readStream(streams.participant(participantId))).at(-1)).toMatchObject({
      type: 'ParticipantPaymentMarked', data: { participantId, isPaid: true, source: 'payment', orderId },
    });

    const back = await fetch(done.returnUrl, { redirect: 'manual' });
    expect(back.status).toBe(303);
    const location = new URL(back.headers.get('location')!, publicUrl);
    expect(location.pathname).toBe('/payment/success');
    expect(Number(location.searchParams.get('amount')) * 100).toBe(fee);
    expect(location.searchParams.get('code')).toBe(orderId.replace(/-/g, '').slice(0, 8).toUpperCase());
    expect(await types(streams.payment(orderId))).toEqual(['PaymentOrdered', 'PaymentSucceeded']);
  });
});
