/**
 * The participation fee and donations end to end (spec §2 "Payment", §3, §4, §7, §8,
 * §9; docs/decisions/0018) on real PostgreSQL and Redis, over real HTTP through the gateway: the payment codes of
 * spec §8; the sandbox's checkout page, its signed webhook and the return redirect recording one
 * payment however often and in whatever order they arrive; forged, expired and foreign tokens
 * refused, logged and changing nothing; the child fee; donations in the fundraising totals;
 * payment info and a refreshed session following a success; the administrator's mark; a replay.
 *
 * Spec §9 ("company team 15 EUR per person"): a company team registered through
 * /api/registerteam, whose captain pays 45 EUR once for its three members and all three show paid
 * (payment info, the team page's members, the session); a member paying alone pays 15 EUR even
 * when born 2011 or later; members joining later; the bank transfer's details from configuration;
 * the administrator's manual payment and refunds (partial and full) in the flags and the totals.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (the command API registers the plugin)
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SignJWT, decodeJwt } from 'jose';
import pg from 'pg';
import { buildCommandApi, readModelLookups } from '@sinilill/command-api';
import { bankTransferConfig } from '@sinilill/config';
import { AccountDirectory, AccountService, CommandService, withAfterCommit } from '@sinilill/commands';
import type {
  AdminParticipantPaymentsAnswer,
  BankTransferAnswer,
  FundraisingAnswer,
  PaymentInfoAnswer,
  PaymentMethodsAnswer,
  PaymentOrderAnswer,
  PaymentOrderStatusAnswer,
  RefundAnswer,
  SessionClaims,
  TeamMembersAnswer,
} from '@sinilill/contracts';
import { centsToEuros, feeFor, orderReference, streams, type ActingUser, type TeamRegistered } from '@sinilill/domain';
import { edition2025 } from '@sinilill/domain/seed';
import { buildGateway } from '@sinilill/gateway';
import { freePort } from '@sinilill/local-infra';
import type { Mailer } from '@sinilill/mail';
import { WakeUpPublisher } from '@sinilill/messaging';
import { SandboxProvider } from '@sinilill/payments';
import { startProjector, type RunningProjector } from '@sinilill/projector';
import { buildQueryApi } from '@sinilill/query-api';
import { projections, rebuildReadModels } from '@sinilill/read-models';
import { streamIndexOn, testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SANDBOX_SECRET = 'sandbox-payment-secret-for-tests-0123456789';
const NOW = new Date('2025-04-15T09:00:00Z');
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const { fees } = edition2025;
const noMail: Mailer = { send: async () => undefined, close: () => undefined };
/** The bank transfer's configuration, as the environment gives it to the query API. */
const BANK_ENV = {
  BANK_ACCOUNT_NAME: 'MTÜ Sinilill Test', BANK_ACCOUNT_IBAN: 'EE38 2200 2210 2014 5685', BANK_TRANSFER_DESCRIPTION: 'Sinilill {year} osalustasu {participantId} tiim {teamId}',
};

interface Payer {
  participantId: number;
  teamId: number;
  userId: string;
  authorization: string;
  fee: number;
}

describe('payments through the gateway', () => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let commands: CommandService;
  let commandApi: FastifyInstance;
  let queryApi: FastifyInstance;
  let gateway: FastifyInstance;
  let projector: RunningProjector;
  let publisher: WakeUpPublisher;
  let site: string;
  const logs: { level: number; msg: string; reason?: string; [key: string]: unknown }[] = [];
  const rawLogs: string[] = [];
  const prefix = `t${randomUUID().slice(0, 8)}`;
  let serial = 0;
  let sessions: TestSessions;

  const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });
  // Real accounts with live sessions (a token needs its account's session version).
  const sign = (claims: SessionClaims) => sessions.bearer(commandApi, claims);
  const admin: SessionClaims = { userId: randomUUID(), fullName: 'Admin', is_approved: true, participantId: null, teamId: null, role: 'ADMIN', isPaid: false };
  const adminAuthorization = () => sign(admin);

  /** A team with one participant (an approved account, imported-style) born in `birthYear`. */
  const payer = async (birthYear: number): Promise<Payer> => {
    serial += 1;
    const { teamId } = await commands.registerTeam({ teamName: `Maksjad ${serial}`, description: '', joinCode: `PAY${serial}X${serial}QZ`, icon: null }, system(`pay-team-${serial}`));
    const email = `maksja-${serial}@example.ee`;
    const { participantId, position } = await commands.registerParticipant({
      teamId, fullName: `Maksja ${serial}`, email, birthYear, gender: 'FEMALE', isCaptain: true, newsletter: false,
    }, system(`pay-person-${serial}`));
    await publisher.wake(position);
    const userId = (await new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' }).userIdOfEmail(email))!;
    const claims: SessionClaims = { userId, fullName: `Maksja ${serial}`, is_approved: true, participantId, teamId, role: 'USER', isPaid: false };
    await sessions.enrol(claims);
    const authorization = sign(claims);
    return { participantId, teamId, userId, authorization, fee: feeFor(birthYear, edition2025) };
  };

  /** One request to the site (the gateway) over HTTP; redirects are not followed. */
  const call = async (method: string, path: string, options: { authorization?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const response = await fetch(path.startsWith('http') ? path : `${site}${path}`, {
      method, redirect: 'manual',
      headers: {
        ...(options.authorization ? { authorization: options.authorization } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch { /* not JSON (a page, a redirect) */ }
    return { status: response.status, location: response.headers.get('location'), contentType: response.headers.get('content-type') ?? '', text, json };
  };
  /** A payment request as spec §3 shapes it, from an amount in EUR cents: the body carries EUR. */
  const orderBody = (amount: number, options: { isPaid?: boolean; country?: string; bank?: string; grandTotal?: number } = {}) =>
    eurosBody(centsToEuros(amount), { ...options, grandTotal: options.grandTotal === undefined ? undefined : centsToEuros(options.grandTotal) });
  /** A payment request with its amounts as given (EUR, or anything a client might send). */
  const eurosBody = (amount: unknown, options: { isPaid?: boolean; country?: string; bank?: string; grandTotal?: unknown } = {}) => ({
    billingAddress: {}, isPaid: options.isPaid ?? false, grandTotal: options.grandTotal ?? amount,
    payment: { method: 'paymentInitiation', methodOptions: { preferredCountry: options.country ?? 'EE', preferredProvider: options.bank ?? 'HABAEE2X' }, amount },
  });
  const order = async (who: Payer, amount: number, options: Parameters<typeof orderBody>[1] = {}) => {
    const response = await call('POST', '/api/payment/order', { authorization: who.authorization, body: orderBody(amount, options) });
    expect(response.status, response.text).toBe(200);
    return response.json as PaymentOrderAnswer;
  };
  const refused = async (who: Payer | string, body: unknown, status: number, code: string) => {
    const response = await call('POST', '/api/payment/order', { authorization: typeof who === 'string' ? who : who.authorization, body });
    expect({ status: response.status, body: response.json }).toEqual({ status, body: { message: code } });
  };
  /** The payer at the sandbox bank: opens the checkout page, presses a button; answers the bank's redirect. */
  const atTheBank = async (paymentUrl: string, outcome: 'succeed' | 'fail', bank?: string) => {
    const page = await call('GET', paymentUrl);
    expect(page.status).toBe(200);
    const session = /name="session" value="([^"]+)"/.exec(page.text)![1]!;
    const action = /<form method="post" action="([^"]+)"/.exec(page.text)![1]!;
    const response = await fetch(`${site}${action}`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ session, outcome, ...(bank ? { method: bank } : {}) }).toString(),
    });
    expect(response.status).toBe(303);
    const location = response.headers.get('location')!;
    return { page: page.text, location, orderToken: new URL(location).searchParams.get('order-token')! };
  };
  /** An order token as the sandbox provider signs it (or a forger, with another secret). */
  const providerToken = (orderId: string, amountCents: number, paymentStatus: string, options: { secret?: string; accessKey?: string; expiresAt?: number } = {}) =>
    new SignJWT({ uuid: randomUUID(), accessKey: options.accessKey ?? 'sandbox', merchantReference: orderId, paymentStatus, grandTotal: amountCents / 100, currency: 'EUR' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt()
      .setExpirationTime(options.expiresAt ?? Math.floor(Date.now() / 1000) + 600)
      .sign(new TextEncoder().encode(options.secret ?? SANDBOX_SECRET));
  const notify = (orderToken: string) => call('POST', '/api/payment/notification/sandbox', { body: { orderToken } });
  const types = async (stream: string) => (await app.store.readStream(stream)).map((event) => event.type);
  const head = () => app.store.headPosition();
  const paymentInfo = async (who: Payer | string, position?: number) => {
    const response = await call('GET', '/api/payment/info', {
      authorization: typeof who === 'string' ? who : who.authorization, headers: position ? { 'x-min-position': String(position) } : {},
    });
    expect(response.status, response.text).toBe(200);
    return response.json as PaymentInfoAnswer;
  };
  const fundraising = async (position?: number) => {
    const response = await call('GET', '/api/fundraising', { headers: position ? { 'x-min-position': String(position) } : {} });
    expect(response.status).toBe(200);
    return response.json as FundraisingAnswer;
  };
  const refusedLogs = () => logs.filter((line) => line.level === 40 && line.msg === 'payment token refused');

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    accountPool = new pg.Pool({ connectionString: app.url, max: 6 });
    const directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
    // The projectors are woken by the store's after-commit hook, as in the command API's server.ts.
    const store = withAfterCommit(app.store, (position) => { void publisher.wake(position); });
    commands = new CommandService({ store, ids: app.ids, now: () => NOW, directory, streamIndex: streamIndexOn(app.pool), ...readModelLookups(app.pool) });
    const accounts = new AccountService({ store, ids: app.ids, directory, mailer: noMail, now: () => NOW, publicUrl: 'http://sinilill.test' });
    sessions = testSessions(app, { now: () => NOW });
    await sessions.enrol(admin);
    publisher = new WakeUpPublisher({ redisUrl: inject('redisUrl'), prefix });
    const port = await freePort();
    site = `http://127.0.0.1:${port}`;
    commandApi = buildCommandApi({
      commands, accounts, jwtSecret: JWT_SECRET,
      payments: { provider: new SandboxProvider({ secret: SANDBOX_SECRET, publicUrl: site }), publicUrl: site },
      logger: {
        level: 'info',
        stream: { write: (line: string) => { rawLogs.push(line); logs.push(JSON.parse(line) as (typeof logs)[number]); } },
      },
    });
    queryApi = buildQueryApi({
      db: app.db, now: () => NOW, readYourWritesTimeoutMs: 5000, jwtSecret: JWT_SECRET, changes: { subscribe: () => () => undefined },
      bankTransfer: bankTransferConfig(BANK_ENV),
    });
    await commandApi.listen({ host: '127.0.0.1', port: 0 });
    await queryApi.listen({ host: '127.0.0.1', port: 0 });
    const address = (api: FastifyInstance) => `http://127.0.0.1:${(api.server.address() as { port: number }).port}`;
    gateway = buildGateway({ queryApiUrl: address(queryApi), commandApiUrl: address(commandApi), webRoot: '/nonexistent/web/dist' });
    await gateway.listen({ host: '127.0.0.1', port });
    // Updates arrive through the BullMQ wake-ups (a long sweep interval keeps the sweep out of it).
    projector = await startProjector({ db: app.db, store: app.store, projections, redisUrl: inject('redisUrl'), prefix, sweepIntervalMs: 600_000 });
  }, 120_000);

  afterAll(async () => {
    await projector?.close();
    await publisher?.close();
    await gateway?.close();
    await commandApi?.close();
    await queryApi?.close();
    await accountPool?.end();
    await app?.close();
  });

  test('GET /api/payment/methods (command API through the gateway): EE, LV, LT, FI with banks and logos the sandbox serves', async () => {
    const who = await payer(1980);
    expect((await call('GET', '/api/payment/methods')).status).toBe(401);
    const response = await call('GET', '/api/payment/methods', { authorization: who.authorization });
    expect(response.status).toBe(200);
    const answer = response.json as PaymentMethodsAnswer;
    expect(answer.provider).toBe('sandbox');
    expect(answer.countries.map((c) => c.country)).toEqual(['EE', 'LV', 'LT', 'FI']);
    expect(answer.countries[0]!.methods.map((m) => m.name)).toEqual(['Swedbank', 'SEB', 'LHV', 'Luminor', 'Coop Pank', 'Citadele']);
    const logo = await call('GET', answer.countries[0]!.methods[0]!.logoUrl);
    expect(logo.status).toBe(200);
    expect(logo.contentType).toContain('image/svg+xml');
    expect(logo.text).toContain('Swedbank');
  });

  test('every payment code of spec §8 is reachable through HTTP, and malformed or foreign requests are refused', async () => {
    const who = await payer(1980);
    // NOT_SELECTED: no bank for the fee, a bank the country does not have, a country the provider does not serve.
    await refused(who, orderBody(who.fee, { bank: '' }), 400, 'NOT_SELECTED');
    await refused(who, orderBody(who.fee, { bank: 'NOSUCHBANK' }), 400, 'NOT_SELECTED');
    await refused(who, orderBody(who.fee, { country: 'LV', bank: 'HABAEE2X' }), 400, 'NOT_SELECTED');
    await refused(who, orderBody(who.fee, { country: 'SE', bank: 'HABAEE2X' }), 400, 'NOT_SELECTED');
    // AMOUNT_NOT_MATCH: grandTotal ≠ payment.amount.
    await refused(who, orderBody(who.fee, { grandTotal: who.fee + 100 }), 400, 'AMOUNT_NOT_MATCH');
    // AMOUNT_TOO_LOW: under the fee, and a donation under 1 EUR.
    await refused(who, orderBody(who.fee - 1), 400, 'AMOUNT_TOO_LOW');
    await refused(who, orderBody(fees.donationMinCents - 1, { isPaid: true }), 400, 'AMOUNT_TOO_LOW');
    // ALREADY_PAID_FOR: the fee again after paying it.
    const { orderId, paymentUrl } = await order(who, who.fee);
    await atTheBank(paymentUrl, 'succeed');
    await refused(who, orderBody(who.fee), 400, 'ALREADY_PAID_FOR');
    expect(await types(streams.payment(orderId))).toEqual(['PaymentOrdered', 'PaymentSucceeded']);
    // Shape and identity.
    await refused(who, { ...orderBody(who.fee), coupon: 'FREE' }, 400, 'INVALID_REQUEST');
    await refused(who, orderBody(-100), 400, 'INVALID_AMOUNT');
    await refused(who, { ...orderBody(who.fee), grandTotal: '15.00' }, 400, 'INVALID_AMOUNT');
    await refused(who, { ...orderBody(who.fee), grandTotal: null }, 400, 'INVALID_REQUEST');
    await refused(adminAuthorization(), orderBody(who.fee), 403, 'FORBIDDEN');
    expect((await call('POST', '/api/payment/order', { body: orderBody(who.fee) })).status).toBe(401);
  });

  test('a fee paid at the sandbox: one PaymentSucceeded with the participant marked in the same append, however often the webhook comes', async () => {
    const who = await payer(1980);
    expect(await paymentInfo(who, await head())).toEqual({ isPaid: false, isChild: false, fee: 15, feeCents: fees.adultCents, company: false });
    const { orderId, paymentUrl } = await order(who, who.fee);
    expect(paymentUrl.startsWith(`${site}/api/payment/sandbox/checkout/${orderId}?session=`)).toBe(true);

    const bank = await atTheBank(paymentUrl, 'succeed');
    // The checkout page: the order's amount, the chosen bank, the merchant, both buttons.
    expect(bank.page).toContain('<html lang="et">');
    expect(bank.page).toContain('15,00\u00a0€');
    expect(bank.page).toContain('data-testid="sandbox-bank">Swedbank<');
    expect(bank.page).toContain('data-testid="sandbox-merchant">Sinilill<');
    expect(bank.page).toContain('data-testid="sandbox-fail"');
    expect(bank.location.startsWith(`${site}/api/payment/return?order-token=`)).toBe(true);

    // The webhook went out before the redirect: the payment is recorded once, with the mark.
    const payment = await app.store.readStream(streams.payment(orderId));
    expect(payment.map((e) => e.type)).toEqual(['PaymentOrdered', 'PaymentSucceeded']);
    expect(payment[1]!.data).toMatchObject({ orderId, participantId: who.participantId, teamId: who.teamId, amountCents: who.fee });
    const mark = (await app.store.readStream(streams.participant(who.participantId))).at(-1)!;
    expect(mark).toMatchObject({ type: 'ParticipantPaymentMarked', data: { participantId: who.participantId, isPaid: true, source: 'payment', orderId } });
    // One append: the same command, consecutive positions, correlated with the order.
    expect(mark.metadata.commandId).toBe(payment[1]!.metadata.commandId);
    expect(Math.abs(mark.globalPosition - payment[1]!.globalPosition)).toBe(1);
    expect(payment[1]!.metadata.correlationId).toBe(payment[0]!.metadata.correlationId);
    expect(payment[1]!.metadata.causationId).toBe(payment[0]!.id);

    // The browser's return after the webhook: success with the amount and the order's code; still one payment.
    const back = await call('GET', bank.location);
    expect(back.status).toBe(303);
    expect(back.location).toBe(`/payment/success?amount=${(who.fee / 100).toFixed(2)}&code=${orderReference(orderId)}`);
    // The same webhook again, twice: accepted, nothing new.
    const before = await head();
    for (let i = 0; i < 2; i++) expect(await notify(bank.orderToken)).toMatchObject({ status: 200, json: { ok: true } });
    expect(await head()).toBe(before);
    expect(await types(streams.payment(orderId))).toEqual(['PaymentOrdered', 'PaymentSucceeded']);
    expect(logs.some((line) => line.level === 40 && line.msg === 'payment token changed nothing' && line.orderId === orderId)).toBe(true);
  });

  test('the webhook arriving after the return records one payment too', async () => {
    const who = await payer(1980);
    const { orderId } = await order(who, who.fee + 500);
    const token = await providerToken(orderId, who.fee + 500, 'PAID');
    const back = await call('GET', `/api/payment/return?order-token=${encodeURIComponent(token)}`);
    expect(back.location).toBe(`/payment/success?amount=${((who.fee + 500) / 100).toFixed(2)}&code=${orderReference(orderId)}`);
    expect(await notify(token)).toMatchObject({ status: 200, json: { ok: true } });
    expect(await types(streams.payment(orderId))).toEqual(['PaymentOrdered', 'PaymentSucceeded']);
    expect(await types(streams.participant(who.participantId))).toEqual(['ParticipantRegistered', 'ParticipantPaymentMarked']);
  });

  test('forged, foreign, expired and wrong-amount tokens are refused with INVALID_NOTIFICATION, change nothing and are logged without the token', async () => {
    const who = await payer(1980);
    const { orderId } = await order(who, who.fee);
    const forgeries = {
      signature: await providerToken(orderId, who.fee, 'PAID', { secret: 'a-forger-s-secret-0123456789-abcdefgh' }),
      'access-key': await providerToken(orderId, who.fee, 'PAID', { accessKey: 'someone-else' }),
      expired: await providerToken(orderId, who.fee, 'PAID', { expiresAt: Math.floor(Date.now() / 1000) - 60 }),
      malformed: 'not.a.token',
    };
    const before = await head();
    for (const [reason, token] of Object.entries(forgeries)) {
      const logged = refusedLogs().length;
      expect(await notify(token), reason).toMatchObject({ status: 400, json: { message: 'INVALID_NOTIFICATION' } });
      expect(refusedLogs().slice(logged).map((line) => line.reason)).toEqual([reason]);
      const back = await call('GET', `/api/payment/return?order-token=${encodeURIComponent(token)}`);
      expect(back.location).toBe('/payment/failed?code=INVALID_NOTIFICATION');
    }
    // Correctly signed, but stating another amount than the order's, or an order this site never placed.
    const wrongAmount = await providerToken(orderId, who.fee - 100, 'PAID');
    expect(await notify(wrongAmount)).toMatchObject({ status: 400, json: { message: 'INVALID_NOTIFICATION' } });
    expect(await notify(await providerToken(randomUUID(), who.fee, 'PAID'))).toMatchObject({ status: 400, json: { message: 'INVALID_NOTIFICATION' } });
    expect((await call('GET', '/api/payment/return')).location).toBe('/payment/failed?code=INVALID_NOTIFICATION');
    expect((await call('POST', '/api/payment/notification/montonio', { body: { orderToken: wrongAmount } })).status).toBe(400);
    expect(await head()).toBe(before);
    expect(await types(streams.payment(orderId))).toEqual(['PaymentOrdered']);
    for (const token of [...Object.values(forgeries), wrongAmount]) {
      expect(rawLogs.some((line) => line.includes(token))).toBe(false);
    }
    expect(rawLogs.some((line) => line.includes(SANDBOX_SECRET))).toBe(false);
  });

  test('a failed payment goes to the failed page; a replayed old token of a settled order changes nothing; the bank’s late PAID still counts', async () => {
    const who = await payer(1980);
    const { orderId, paymentUrl } = await order(who, who.fee);
    const failed = await atTheBank(paymentUrl, 'fail');
    expect(await types(streams.payment(orderId))).toEqual(['PaymentOrdered', 'PaymentFailed']);
    expect((await call('GET', failed.location)).location).toBe(`/payment/failed?code=${orderReference(orderId)}`);
    expect(await paymentInfo(who, await head())).toMatchObject({ isPaid: false });
    // The bank confirms late (spec §4: up to 72 h): recorded, and the participant is paid.
    expect(await notify(await providerToken(orderId, who.fee, 'PAID'))).toMatchObject({ status: 200 });
    expect(await types(streams.payment(orderId))).toEqual(['PaymentOrdered', 'PaymentFailed', 'PaymentSucceeded']);
    // The old failure's token, replayed: nothing new, and the order stays paid.
    const before = await head();
    expect(await notify(failed.orderToken)).toMatchObject({ status: 200, json: { ok: true } });
    expect((await call('GET', failed.location)).location).toBe(`/payment/success?amount=${(who.fee / 100).toFixed(2)}&code=${orderReference(orderId)}`);
    expect(await head()).toBe(before);
  });

  test('a participant born 2012 is charged the child fee (5 EUR) and is paid after paying it', async () => {
    const child = await payer(2012);
    expect(child.fee).toBe(fees.childCents);
    expect(await paymentInfo(child, await head())).toEqual({ isPaid: false, isChild: true, fee: 5, feeCents: fees.childCents, company: false });
    await refused(child, orderBody(fees.childCents - 1), 400, 'AMOUNT_TOO_LOW');
    const { orderId, paymentUrl } = await order(child, fees.childCents);
    expect((await app.store.readStream(streams.payment(orderId)))[0]!.data).toMatchObject({ kind: 'fee', amountCents: fees.childCents, feeCents: fees.childCents });
    const bank = await atTheBank(paymentUrl, 'succeed');
    expect(bank.page).toContain('5,00\u00a0€');
    expect(await paymentInfo(child, await head())).toEqual({ isPaid: true, isChild: true, fee: 5, feeCents: fees.childCents, company: false });
  });

  test('after a fee success /api/payment/info says isPaid and a refreshed session token says isPaid', async () => {
    const who = await payer(1980);
    const stale = await call('POST', '/api/session/refresh', { authorization: who.authorization, body: {} });
    expect(stale.status).toBe(200);
    expect(decodeJwt((stale.json as { token: string }).token)).toMatchObject({ userId: who.userId, participantId: who.participantId, isPaid: false });
    const { paymentUrl } = await order(who, who.fee);
    await atTheBank(paymentUrl, 'succeed');
    expect(await paymentInfo(who, await head())).toEqual({ isPaid: true, isChild: false, fee: centsToEuros(who.fee), feeCents: who.fee, company: false });
    const fresh = await call('POST', '/api/session/refresh', { authorization: who.authorization, body: {} });
    expect(fresh.status).toBe(200);
    const token = (fresh.json as { token: string }).token;
    expect(decodeJwt(token)).toMatchObject({ userId: who.userId, participantId: who.participantId, teamId: who.teamId, isPaid: true, is_approved: true, role: 'USER' });
    // The fresh token is a session token of this site.
    expect((await call('GET', '/api/payment/info', { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await call('POST', '/api/session/refresh', { body: {} })).status).toBe(401);
    const nobody = { ...sessions.access(admin), userId: randomUUID(), fullName: 'Nobody', role: 'USER' as const };
    expect((await call('POST', '/api/session/refresh', { authorization: `Bearer ${commandApi.jwt.sign(nobody)}` })).status).toBe(401);
  });

  test('a donation after paying shows in GET /api/fundraising, for the team and overall; the bank may be chosen at the provider', async () => {
    const who = await payer(1980);
    const { paymentUrl: feeUrl } = await order(who, who.fee);
    await atTheBank(feeUrl, 'succeed');
    const before = await fundraising(await head());
    const donation = 750;
    const { orderId, paymentUrl } = await order(who, donation, { isPaid: true, bank: '' });
    const bank = await atTheBank(paymentUrl, 'succeed', 'LHVBEE22');
    expect(bank.page).toContain('data-testid="sandbox-method"');
    expect(await types(streams.payment(orderId))).toEqual(['PaymentOrdered', 'DonationReceived']);
    expect(await types(streams.participant(who.participantId))).toEqual(['ParticipantRegistered', 'ParticipantPaymentMarked']);
    const after = await fundraising(await head());
    // Answers carry EUR: 7.50 EUR donated, 15 EUR fee.
    const cents = (euros: number) => Math.round(euros * 100);
    expect(cents(after.donations) - cents(before.donations)).toBe(donation);
    expect(after.fees).toBe(before.fees);
    expect(cents(after.total)).toBe(cents(after.fees) + cents(after.donations));
    expect(after.teams.find((t) => t.teamId === who.teamId)).toEqual({ teamId: who.teamId, fees: 15, donations: 7.5, total: 22.5, unknownCount: 0 });
    expect((await call('GET', bank.location)).location).toBe(`/payment/success?amount=${(donation / 100).toFixed(2)}&code=${orderReference(orderId)}`);
  });

  test('the administrator’s mark still works and feeds the payment info; a replay rebuilds the same payment read models', async () => {
    const who = await payer(1980);
    const marked = await call('PUT', `/api/admin/participant/${who.participantId}`, { authorization: adminAuthorization(), body: { is_paid: true } });
    expect(marked.status, marked.text).toBe(200);
    expect((await app.store.readStream(streams.participant(who.participantId))).at(-1)).toMatchObject({
      type: 'ParticipantPaymentMarked', data: { isPaid: true, source: 'admin' },
    });
    expect(await paymentInfo(who, (marked.json as { position: number }).position)).toMatchObject({ isPaid: true });
    await refused(who, orderBody(who.fee), 400, 'ALREADY_PAID_FOR');

    const snapshot = async () => ({
      info: await app.db.withSchema('rm').selectFrom('payment_info').selectAll().orderBy('participant_id').execute(),
      teams: await app.db.withSchema('rm').selectFrom('fundraising_teams').selectAll().orderBy('team_id').execute(),
      totals: await app.db.withSchema('rm').selectFrom('fundraising_totals').selectAll().execute(),
      orders: await app.db.withSchema('rm').selectFrom('payment_orders').selectAll().orderBy('order_id').execute(),
    });
    await fundraising(await head());
    const live = await snapshot();
    expect(live.totals[0]!.fees_cents).toBeGreaterThan(0);
    await rebuildReadModels(app.db, app.store, projections);
    expect(await snapshot()).toEqual(live);
  });

  // ---- euros at the edge, cents inside; the order read of the result page ----------

  const postOrder = (who: Payer, body: unknown) => call('POST', '/api/payment/order', { authorization: who.authorization, body });
  const orderRead = async (reference: string, authorization?: string, position?: number) =>
    call('GET', `/api/payment/order/${reference}`, {
      ...(authorization ? { authorization } : {}), headers: position ? { 'x-min-position': String(position) } : {},
    });

  test('a 15 EUR fee order and a 20.50 EUR custom order each answer a paymentUrl; the events hold cents, the answers euros', async () => {
    const adult = await payer(1980);
    // The spec's Montonio-shaped request, written as §9 writes the fee: 15 (and 15.00 is the same number).
    const fee = await postOrder(adult, JSON.parse(JSON.stringify(eurosBody(15)).replace(/15/g, '15.00')) as unknown);
    expect(fee.status, fee.text).toBe(200);
    const feeAnswer = fee.json as PaymentOrderAnswer;
    expect(feeAnswer.paymentUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/payment\/sandbox\//);
    expect(feeAnswer).toMatchObject({ reference: orderReference(feeAnswer.orderId), amount: 15 });
    expect((await app.store.readStream(streams.payment(feeAnswer.orderId)))[0]!.data).toMatchObject({ kind: 'fee', amountCents: 1500, feeCents: 1500 });

    const other = await payer(1980);
    // A custom amount, sent exactly as a client writes 20.50 in JSON.
    const raw = await fetch(`${site}/api/payment/order`, {
      method: 'POST', headers: { authorization: other.authorization, 'content-type': 'application/json' },
      body: '{"billingAddress":{},"isPaid":false,"grandTotal":20.50,"payment":{"method":"paymentInitiation","methodOptions":{"preferredCountry":"EE","preferredProvider":"HABAEE2X"},"amount":20.50}}',
    });
    const customAnswer = await raw.json() as PaymentOrderAnswer;
    expect(raw.status, JSON.stringify(customAnswer)).toBe(200);
    expect(customAnswer.paymentUrl).toContain('/api/payment/sandbox/');
    expect(customAnswer.amount).toBe(20.5);
    expect((await app.store.readStream(streams.payment(customAnswer.orderId)))[0]!.data).toMatchObject({ kind: 'fee', amountCents: 2050, feeCents: 1500 });

    // The bank pays it: the return still says amount=20.50, the notification's euros match the order's cents.
    const bank = await atTheBank(customAnswer.paymentUrl, 'succeed');
    expect((await call('GET', bank.location)).location).toBe(`/payment/success?amount=20.50&code=${customAnswer.reference}`);
    expect((await app.store.readStream(streams.payment(customAnswer.orderId)))[1]).toMatchObject({ type: 'PaymentSucceeded', data: { amountCents: 2050 } });
  });

  test('15 EUR for a child\'s 5 EUR fee is a custom amount; 0.15 is too low; 20.505, -5, "15", 1e9 are INVALID_AMOUNT; a donation in euros', async () => {
    const child = await payer(2014);
    await refused(child, eurosBody(4.99), 400, 'AMOUNT_TOO_LOW');
    const custom = await order(child, 1500);
    expect(custom.amount).toBe(15);
    expect((await app.store.readStream(streams.payment(custom.orderId)))[0]!.data).toMatchObject({ kind: 'fee', amountCents: 1500, feeCents: 500 });

    const adult = await payer(1980);
    await refused(adult, eurosBody(0.15), 400, 'AMOUNT_TOO_LOW');
    await refused(adult, eurosBody(14.99), 400, 'AMOUNT_TOO_LOW');
    for (const bad of [20.505, 1.005, -5, -0.01, '15', '15.00', 1e9, 1_000_000.01, 1e-7]) {
      await refused(adult, eurosBody(bad), 400, 'INVALID_AMOUNT');
      await refused(adult, eurosBody(15, { grandTotal: bad }), 400, 'INVALID_AMOUNT');
    }
    await refused(adult, eurosBody(15, { grandTotal: 15.01 }), 400, 'AMOUNT_NOT_MATCH');
    for (const bad of [null, true, {}, [15]]) await refused(adult, eurosBody(bad), 400, 'INVALID_REQUEST');
    // The refusals changed nothing: the fee is still owed, 15 EUR.
    expect(await paymentInfo(adult, await head())).toMatchObject({ isPaid: false, fee: 15 });

    // A donation (isPaid true) in euros: at least 1 EUR (spec §9), 7.25 EUR stored as 725 cents.
    const fee = await order(adult, 1500);
    await atTheBank(fee.paymentUrl, 'succeed');
    await refused(adult, eurosBody(0.99, { isPaid: true, bank: '' }), 400, 'AMOUNT_TOO_LOW');
    const donation = await postOrder(adult, eurosBody(7.25, { isPaid: true, bank: '' }));
    expect(donation.status, donation.text).toBe(200);
    const donationAnswer = donation.json as PaymentOrderAnswer;
    expect(donationAnswer.amount).toBe(7.25);
    expect((await app.store.readStream(streams.payment(donationAnswer.orderId)))[0]!.data).toMatchObject({ kind: 'donation', amountCents: 725 });
    const one = await postOrder(adult, eurosBody(1, { isPaid: true, bank: '' }));
    expect(one.status, one.text).toBe(200);
  });

  test('GET /api/payment/order/{reference} answers the caller\'s own order in euros, 404 for another\'s or an unknown one, 401 without a session', async () => {
    const who = await payer(1980);
    const stranger = await payer(1980);
    const placed = await order(who, 2050);
    const reference = placed.reference;
    expect(reference).toBe(orderReference(placed.orderId));

    expect((await orderRead(reference)).status).toBe(401);
    const pending = await orderRead(reference, who.authorization, await head());
    expect(pending.status, pending.text).toBe(200);
    expect(pending.json as PaymentOrderStatusAnswer).toEqual({ reference, status: 'pending', amount: 20.5, kind: 'fee' });
    // Lower case is the same reference.
    expect((await orderRead(reference.toLowerCase(), who.authorization)).json).toMatchObject({ reference, status: 'pending' });

    // Another person's order and an unknown reference look the same: 404 NOT_FOUND.
    const foreign = await orderRead(reference, stranger.authorization);
    expect({ status: foreign.status, body: foreign.json }).toEqual({ status: 404, body: { message: 'NOT_FOUND' } });
    const unknown = await orderRead(reference === '00000000' ? '00000001' : '00000000', who.authorization);
    expect({ status: unknown.status, body: unknown.json }).toEqual({ status: 404, body: { message: 'NOT_FOUND' } });
    const admins = await orderRead(reference, adminAuthorization());
    expect(admins.status).toBe(404);
    expect((await orderRead('not-a-ref', who.authorization)).status).toBe(400);

    // Failed at the bank, then paid: the read follows the order (paid is final).
    await atTheBank(placed.paymentUrl, 'fail');
    expect((await orderRead(reference, who.authorization, await head())).json).toMatchObject({ status: 'failed', amount: 20.5 });
    const again = await order(who, 1500);
    await atTheBank(again.paymentUrl, 'succeed');
    expect((await orderRead(again.reference, who.authorization, await head())).json).toEqual({ reference: again.reference, status: 'paid', amount: 15, kind: 'fee' });

    // A donation reads as one.
    const gift = await order(who, 500, { isPaid: true, bank: '' });
    await atTheBank(gift.paymentUrl, 'succeed', 'LHVBEE22');
    expect((await orderRead(gift.reference, who.authorization, await head())).json).toEqual({ reference: gift.reference, status: 'paid', amount: 5, kind: 'donation' });
    expect((await app.db.withSchema('rm').selectFrom('payment_orders').select(['amount_cents', 'status']).where('order_id', '=', gift.orderId).executeTakeFirst()))
      .toEqual({ amount_cents: 500, status: 'paid' });
  });

  // ---- fees as spec §9 writes them --------------------------------------------

  const PASSWORD = 'kollane kaelkirjak jookseb 97';
  let registrations = 0;
  /** A person as POST /api/registerteam or /api/jointeam takes them (spec §3 registration payload). */
  const registration = (birthYear: number, extra: Record<string, unknown>) => {
    registrations += 1;
    return {
      full_name: `Firma Inimene ${registrations}`, email: `firma-${prefix}-${registrations}@example.ee`, gender: 'FEMALE', birth_year: birthYear,
      password: PASSWORD, newsletter: false, lang: 'est', ...extra,
    };
  };
  interface Member { participantId: number; teamId: number; userId: string; email: string; authorization: string }
  /** Registers through the API, lets the administrator approve the account, logs in (all over HTTP). */
  const signUp = async (path: '/api/registerteam' | '/api/jointeam', body: ReturnType<typeof registration>): Promise<Member> => {
    const registered = await call('POST', path, { body });
    expect(registered.status, registered.text).toBe(200);
    const userId = (await new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' }).userIdOfEmail(body.email as string))!;
    const approved = await call('PUT', `/api/admin/user/${userId}`, { authorization: adminAuthorization(), body: { is_approved: true } });
    expect(approved.status, approved.text).toBe(200);
    const login = await call('POST', '/api/login', { body: { email: body.email, password: PASSWORD } });
    expect(login.status, login.text).toBe(200);
    const token = (login.json as { token: string }).token;
    const claims = decodeJwt(token) as unknown as SessionClaims;
    return { participantId: claims.participantId!, teamId: claims.teamId!, userId, email: body.email as string, authorization: `Bearer ${token}` };
  };
  const joinCodeOf = async (teamId: number) => ((await app.store.readStream(streams.team(teamId)))[0]!.data as TeamRegistered['data']).joinCode;
  const members = async (who: Member, position?: number) => {
    const response = await call('GET', `/api/team/${who.teamId}/participants`, {
      authorization: who.authorization, headers: position ? { 'x-min-position': String(position) } : {},
    });
    expect(response.status, response.text).toBe(200);
    return response.json as TeamMembersAnswer;
  };
  const teamOrder = (who: Member, euros: number) => call('POST', '/api/payment/order', { authorization: who.authorization, body: { ...eurosBody(euros), forTeam: true } });
  const refund = (reference: string, body: unknown, authorization = adminAuthorization(), headers: Record<string, string> = {}) =>
    call('POST', `/api/admin/payment/${reference}/refund`, { authorization, body, headers });
  const teamFees = async (teamId: number) => {
    const raised = await fundraising(await head());
    return raised.teams.find((t) => t.teamId === teamId)?.fees ?? 0;
  };

  let company: { captain: Member; member: Member; child: Member; order: PaymentOrderAnswer } | undefined;

  test('a company team of 3 pays 45 EUR once, through the sandbox, and all three show paid', async () => {
    const captain = await signUp('/api/registerteam', registration(1980, { type: 'REGISTER_TEAM', team_name: `Firma ${prefix} OÜ`, company: true }));
    // The registration event records it (an optional field: absent reads as false).
    expect((await app.store.readStream(streams.team(captain.teamId)))[0]!.data).toMatchObject({ teamId: captain.teamId, company: true });
    const code = await joinCodeOf(captain.teamId);
    // A member joins the team as it is: `company` on /jointeam is refused.
    const refusedJoin = await call('POST', '/api/jointeam', { body: registration(1990, { type: 'JOIN_TEAM', team_join_code: code, company: true }) });
    expect({ status: refusedJoin.status, body: refusedJoin.json }).toEqual({ status: 400, body: { message: 'INVALID_REQUEST' } });
    const member = await signUp('/api/jointeam', registration(1990, { type: 'JOIN_TEAM', team_join_code: code, company: false }));
    const child = await signUp('/api/jointeam', registration(2012, { type: 'JOIN_TEAM', team_join_code: code }));
    expect(new Set([member.teamId, child.teamId])).toEqual(new Set([captain.teamId]));

    // The fee per person whatever the birth year; the captain alone sees the team's total.
    expect(await paymentInfo(captain.authorization, await head())).toEqual({
      isPaid: false, isChild: false, fee: 15, feeCents: 1500, company: true, unpaidMembers: 3, teamFee: 45,
    });
    expect(await paymentInfo(child.authorization)).toEqual({ isPaid: false, isChild: true, fee: 15, feeCents: 1500, company: true });
    expect(await paymentInfo(member.authorization)).toEqual({ isPaid: false, isChild: false, fee: 15, feeCents: 1500, company: true });

    // Only the captain pays for the team, and not less than 15 EUR a member.
    expect(await teamOrder(member, 45)).toMatchObject({ status: 403, json: { message: 'FORBIDDEN' } });
    expect(await teamOrder(captain, 44.99)).toMatchObject({ status: 400, json: { message: 'AMOUNT_TOO_LOW' } });
    expect(await call('POST', '/api/payment/order', { authorization: captain.authorization, body: { ...eurosBody(45, { isPaid: true, bank: '' }), forTeam: true } }))
      .toMatchObject({ status: 400, json: { message: 'INVALID_REQUEST' } });

    const placed = await teamOrder(captain, 45);
    expect(placed.status, placed.text).toBe(200);
    const order = placed.json as PaymentOrderAnswer;
    expect(order).toMatchObject({ amount: 45, reference: orderReference(order.orderId), covers: [captain.participantId, member.participantId, child.participantId].sort((a, b) => a - b) });
    expect((await app.store.readStream(streams.payment(order.orderId)))[0]!.data).toMatchObject({
      kind: 'fee', amountCents: 4500, feeCents: 1500, participantId: captain.participantId, teamId: captain.teamId,
    });

    // The sandbox confirms it (webhook, then the return): one payment of 45 EUR, three marks in one append.
    const bank = await atTheBank(order.paymentUrl, 'succeed');
    expect(bank.page).toContain('45,00\u00a0€');
    expect((await call('GET', bank.location)).location).toBe(`/payment/success?amount=45.00&code=${order.reference}`);
    expect(await notify(bank.orderToken)).toMatchObject({ status: 200 });
    const payment = await app.store.readStream(streams.payment(order.orderId));
    expect(payment.map((e) => e.type)).toEqual(['PaymentOrdered', 'PaymentSucceeded']);
    expect(payment[1]!.data).toMatchObject({ amountCents: 4500 });
    for (const who of [captain, member, child]) {
      const mark = (await app.store.readStream(streams.participant(who.participantId))).at(-1)!;
      expect(mark).toMatchObject({ type: 'ParticipantPaymentMarked', data: { participantId: who.participantId, isPaid: true, source: 'payment', orderId: order.orderId } });
      expect(mark.metadata.commandId).toBe(payment[1]!.metadata.commandId);
    }

    // All three show paid: their payment info, the team page's members, their sessions.
    const position = await head();
    expect(await paymentInfo(captain.authorization, position)).toEqual({
      isPaid: true, isChild: false, fee: 15, feeCents: 1500, company: true, unpaidMembers: 0, teamFee: 0,
    });
    for (const who of [member, child]) expect(await paymentInfo(who.authorization, position)).toMatchObject({ isPaid: true, fee: 15 });
    expect((await members(captain, position)).map((m) => [m.id, m.is_paid]).sort()).toEqual(
      [[captain.participantId, true], [member.participantId, true], [child.participantId, true]].sort());
    const refreshed = await call('POST', '/api/session/refresh', { authorization: child.authorization, body: {} });
    expect(decodeJwt((refreshed.json as { token: string }).token)).toMatchObject({ participantId: child.participantId, isPaid: true });
    expect(await teamFees(captain.teamId)).toBe(45);
    // Paid once: nobody is left to pay for.
    expect(await teamOrder(captain, 15)).toMatchObject({ status: 400, json: { message: 'ALREADY_PAID_FOR' } });
    company = { captain, member, child, order };
  });

  test('members who join later are unpaid; one born 2014 pays 15 EUR alone (not 5), another is paid for by the captain', async () => {
    const { captain } = company!;
    const code = await joinCodeOf(captain.teamId);
    const late = await signUp('/api/jointeam', registration(2014, { type: 'JOIN_TEAM', team_join_code: code }));
    const later = await signUp('/api/jointeam', registration(1975, { type: 'JOIN_TEAM', team_join_code: code }));
    expect(await paymentInfo(late.authorization, await head())).toEqual({ isPaid: false, isChild: true, fee: 15, feeCents: 1500, company: true });
    expect(await paymentInfo(captain.authorization)).toMatchObject({ isPaid: true, unpaidMembers: 2, teamFee: 30 });

    // Alone, at the company fee: the child fee of 5 EUR is too low.
    const asLate = { participantId: late.participantId, teamId: late.teamId, userId: late.userId, authorization: late.authorization, fee: 1500 };
    await refused(asLate, eurosBody(5), 400, 'AMOUNT_TOO_LOW');
    const own = await order(asLate, 1500);
    expect((await app.store.readStream(streams.payment(own.orderId)))[0]!.data).toMatchObject({ kind: 'fee', amountCents: 1500, feeCents: 1500 });
    expect((await app.store.readStream(streams.payment(own.orderId)))[0]!.data).not.toHaveProperty('covers');
    await atTheBank(own.paymentUrl, 'succeed');
    expect(await paymentInfo(late.authorization, await head())).toMatchObject({ isPaid: true, fee: 15 });

    // The captain, paid already, pays for the one left.
    expect(await paymentInfo(captain.authorization)).toMatchObject({ unpaidMembers: 1, teamFee: 15 });
    const placed = await teamOrder(captain, 15);
    expect(placed.status, placed.text).toBe(200);
    expect((placed.json as PaymentOrderAnswer).covers).toEqual([later.participantId]);
    await atTheBank((placed.json as PaymentOrderAnswer).paymentUrl, 'succeed');
    expect(await paymentInfo(later.authorization, await head())).toMatchObject({ isPaid: true });
    expect(await paymentInfo(captain.authorization)).toMatchObject({ unpaidMembers: 0, teamFee: 0 });
    expect(await teamFees(captain.teamId)).toBe(75);
  });

  test('the bank transfer details come from configuration, personalised; unset, they are a flagged example', async () => {
    const who = await payer(2012);
    expect((await call('GET', '/api/payment/banktransfer')).status).toBe(401);
    const response = await call('GET', '/api/payment/banktransfer', { authorization: who.authorization, headers: { 'x-min-position': String(await head()) } });
    expect(response.status, response.text).toBe(200);
    expect(response.json as BankTransferAnswer).toEqual({
      accountName: 'MTÜ Sinilill Test', iban: 'EE38 2200 2210 2014 5685',
      description: `Sinilill ${edition2025.year} osalustasu ${who.participantId} tiim ${who.teamId}`, amount: 5, example: false,
    });
    // A company team member's amount is the company fee.
    const { child } = company!;
    expect((await call('GET', '/api/payment/banktransfer', { authorization: child.authorization })).json).toMatchObject({ amount: 15 });
    // Without configuration: the made-up development details, flagged.
    const defaults = buildQueryApi({ db: app.db, now: () => NOW, readYourWritesTimeoutMs: 5000, jwtSecret: JWT_SECRET, changes: { subscribe: () => () => undefined } });
    try {
      const answer = await defaults.inject({ url: '/api/payment/banktransfer', headers: { authorization: who.authorization } });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ example: true, iban: 'EE00 0000 0000 0000 0000', description: `Sinilill ${edition2025.year} ID ${who.participantId}` });
    } finally {
      await defaults.close();
    }
  });

  test('an administrator\'s mark is a manual payment of the fee due: counted in the totals, taken back when undone', async () => {
    const who = await payer(2012);
    const before = await teamFees(who.teamId);
    const marked = await call('PUT', `/api/admin/participant/${who.participantId}`, { authorization: adminAuthorization(), body: { is_paid: true } });
    expect(marked.status, marked.text).toBe(200);
    expect((await app.store.readStream(streams.participant(who.participantId))).at(-1)).toMatchObject({
      type: 'ParticipantPaymentMarked', data: { isPaid: true, source: 'admin', manualCents: 500 },
    });
    expect(await teamFees(who.teamId)).toBe(before + 5);
    const unmarked = await call('PUT', `/api/admin/participant/${who.participantId}`, { authorization: adminAuthorization(), body: { is_paid: false } });
    expect(unmarked.status, unmarked.text).toBe(200);
    expect((await app.store.readStream(streams.participant(who.participantId))).at(-1)).toMatchObject({
      type: 'ParticipantPaymentMarked', data: { isPaid: false, source: 'admin', manualCents: 500 },
    });
    expect(await teamFees(who.teamId)).toBe(before);
    // In a company team the fee due is the company fee.
    const { captain } = company!;
    const code = await joinCodeOf(captain.teamId);
    const joiner = await signUp('/api/jointeam', registration(2013, { type: 'JOIN_TEAM', team_join_code: code }));
    const teamBefore = await teamFees(captain.teamId);
    expect((await call('PUT', `/api/admin/participant/${joiner.participantId}`, { authorization: adminAuthorization(), body: { is_paid: true } })).status).toBe(200);
    expect((await app.store.readStream(streams.participant(joiner.participantId))).at(-1)).toMatchObject({ data: { manualCents: 1500 } });
    expect(await teamFees(captain.teamId)).toBe(teamBefore + 15);
  });

  test('refunds — admin only, partial then full; the totals follow, and a full refund of the team fee unmarks its members', async () => {
    const { captain, member, child, order: teamFee } = company!;
    const reason = { reason: 'Ettevõte maksis arvega' };
    // Administrators only, enforced by the server; checked before the body.
    expect((await refund(teamFee.reference, reason, captain.authorization)).status).toBe(403);
    expect(await refund(teamFee.reference, reason, captain.authorization)).toMatchObject({ json: { message: 'FORBIDDEN' } });
    expect((await call('POST', `/api/admin/payment/${teamFee.reference}/refund`, { body: reason })).status).toBe(401);
    // Shape: amount in EUR with two decimals, a reason, a known paid order.
    expect(await refund(teamFee.reference, { amount: 10.005, ...reason })).toMatchObject({ status: 400, json: { message: 'INVALID_AMOUNT' } });
    expect(await refund(teamFee.reference, { amount: 0, ...reason })).toMatchObject({ status: 400, json: { message: 'INVALID_AMOUNT' } });
    expect(await refund(teamFee.reference, { amount: 10 })).toMatchObject({ status: 400, json: { message: 'INVALID_REQUEST' } });
    expect(await refund(teamFee.reference === '00000000' ? '00000001' : '00000000', reason)).toMatchObject({ status: 404, json: { message: 'NOT_FOUND' } });
    const unpaid = await order(await payer(1980), 1500);
    // By its order id at once; by its reference once the read model knows it (the console lists from there).
    expect(await refund(unpaid.orderId, reason)).toMatchObject({ status: 409, json: { message: 'ORDER_NOT_PAID' } });
    await fundraising(await head());
    expect(await refund(unpaid.reference.toLowerCase(), reason)).toMatchObject({ status: 409, json: { message: 'ORDER_NOT_PAID' } });

    // Partial: 10 of 45 EUR; the flags stay, the totals go down by 10.
    const raisedBefore = await fundraising(await head());
    const teamBefore = await teamFees(captain.teamId);
    const partial = await refund(teamFee.reference, { amount: 10, ...reason }, adminAuthorization(), { 'idempotency-key': `refund-${prefix}-1` });
    expect(partial.status, partial.text).toBe(200);
    expect(partial.json as RefundAnswer).toMatchObject({ success: true, orderId: teamFee.orderId, reference: teamFee.reference, refunded: 10, refundedTotal: 10, remaining: 35, full: false });
    // A retried request (same Idempotency-Key) counts once.
    const retried = await refund(teamFee.reference, { amount: 10, ...reason }, adminAuthorization(), { 'idempotency-key': `refund-${prefix}-1` });
    expect(retried.json).toEqual(partial.json);
    expect(await teamFees(captain.teamId)).toBe(teamBefore - 10);
    const raisedPartly = await fundraising(await head());
    expect(Math.round(raisedPartly.fees * 100)).toBe(Math.round(raisedBefore.fees * 100) - 1000);
    expect(await paymentInfo(child.authorization)).toMatchObject({ isPaid: true });
    expect((await orderRead(teamFee.reference, captain.authorization)).json).toEqual({ reference: teamFee.reference, status: 'paid', amount: 45, kind: 'fee', refunded: 10 });

    // More than is left: a clear code, nothing recorded.
    const atHead = await head();
    expect(await refund(teamFee.reference, { amount: 35.01, ...reason })).toMatchObject({ status: 400, json: { message: 'REFUND_EXCEEDS_PAYMENT' } });
    expect(await head()).toBe(atHead);

    // Full: the rest by default; the three members the order had marked paid are unpaid again.
    const full = await refund(teamFee.orderId, reason);
    expect(full.status, full.text).toBe(200);
    expect(full.json as RefundAnswer).toMatchObject({ refunded: 35, refundedTotal: 45, remaining: 0, full: true });
    expect(await types(streams.payment(teamFee.orderId))).toEqual(['PaymentOrdered', 'PaymentSucceeded', 'PaymentRefunded', 'PaymentRefunded']);
    for (const who of [captain, member, child]) {
      expect((await app.store.readStream(streams.participant(who.participantId))).at(-1)).toMatchObject({
        type: 'ParticipantPaymentMarked', data: { isPaid: false, source: 'refund', orderId: teamFee.orderId },
      });
    }
    const position = (full.json as RefundAnswer).position;
    for (const who of [member, child]) expect(await paymentInfo(who.authorization, position)).toMatchObject({ isPaid: false });
    expect(await paymentInfo(captain.authorization)).toMatchObject({ isPaid: false, unpaidMembers: 3, teamFee: 45 });
    const listed = new Map((await members(captain)).map((m) => [m.id, m.is_paid]));
    expect([captain, member, child].map((who) => listed.get(who.participantId))).toEqual([false, false, false]);
    expect(await teamFees(captain.teamId)).toBe(teamBefore - 45);
    expect(await refund(teamFee.reference, reason)).toMatchObject({ status: 400, json: { message: 'REFUND_EXCEEDS_PAYMENT' } });
    // The first refund's key again, after the full refund: its own answer (docs/decisions/0007), nothing recorded.
    const settled = await head();
    const late = await refund(teamFee.reference, { amount: 10, ...reason }, adminAuthorization(), { 'idempotency-key': `refund-${prefix}-1` });
    expect(late.json).toEqual(partial.json);
    expect(await head()).toBe(settled);

    // The console's list of a member's orders: the team fee covering them, refunded.
    const listing = await call('GET', `/api/admin/participant/${child.participantId}/payments`, { authorization: adminAuthorization(), headers: { 'x-min-position': String(position) } });
    expect(listing.status, listing.text).toBe(200);
    expect((listing.json as AdminParticipantPaymentsAnswer).orders).toContainEqual({
      orderId: teamFee.orderId, reference: teamFee.reference, participantId: captain.participantId, kind: 'fee', status: 'paid',
      amount: 45, refunded: 45, covers: teamFee.covers,
    });
    expect((await call('GET', `/api/admin/participant/${child.participantId}/payments`, { authorization: child.authorization })).status).toBe(403);
  });

  test('a donation\'s refund lowers the donations; a single fee refunded in full unmarks its payer only', async () => {
    const who = await payer(1980);
    const fee = await order(who, 1500);
    await atTheBank(fee.paymentUrl, 'succeed');
    const gift = await order(who, 800, { isPaid: true, bank: '' });
    await atTheBank(gift.paymentUrl, 'succeed', 'LHVBEE22');
    const before = await fundraising(await head());
    const back = await refund(gift.reference, { amount: 3, reason: 'Topeltannetus' });
    expect(back.json).toMatchObject({ refunded: 3, remaining: 5, full: false });
    const after = await fundraising(await head());
    expect(Math.round(after.donations * 100)).toBe(Math.round(before.donations * 100) - 300);
    expect(after.fees).toBe(before.fees);
    expect(await paymentInfo(who, await head())).toMatchObject({ isPaid: true });
    const whole = await refund(fee.reference, { amount: 15, reason: 'Ei osale' });
    expect(whole.json).toMatchObject({ full: true, remaining: 0 });
    expect(await paymentInfo(who, (whole.json as RefundAnswer).position)).toMatchObject({ isPaid: false });
    // Unpaid again, the participant may pay again.
    const again = await order(who, 1500);
    expect(again.amount).toBe(15);
  });

  test('a replay rebuilds the same payment read models, company teams, manual payments and refunds included', async () => {
    const rm = () => app.db.withSchema('rm');
    const snapshot = async () => ({
      info: await rm().selectFrom('payment_info').selectAll().orderBy('participant_id').execute(),
      teams: await rm().selectFrom('fundraising_teams').selectAll().orderBy('team_id').execute(),
      totals: await rm().selectFrom('fundraising_totals').selectAll().execute(),
      orders: await rm().selectFrom('payment_orders').selectAll().orderBy('order_id').execute(),
      companies: await rm().selectFrom('company_teams').selectAll().orderBy('team_id').execute(),
    });
    await fundraising(await head());
    const live = await snapshot();
    expect(live.companies.map((row) => row.team_id)).toContain(company!.captain.teamId);
    expect(live.orders.find((row) => row.order_id === company!.order.orderId)).toMatchObject({ refunded_cents: 4500, covers: company!.order.covers });
    await rebuildReadModels(app.db, app.store, projections);
    expect(await snapshot()).toEqual(live);
  });
});
