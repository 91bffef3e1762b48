/**
 * The Idempotency-Key on the POSTs and PUTs that ignored it (docs/decisions/0108): the web client
 * sends one key per command and sends it again when it retries a request whose answer was lost.
 * Each route here is sent twice with the same key and must answer alike with one effect: one
 * payment order (and one call to the provider), one reset mail, one token spent, one
 * confirmation, one password change. Without a key a second request is a second command (shown
 * once, for the order), and the key reused with another body is IDEMPOTENCY_KEY_REUSED.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { AccountDirectory, AccountService, CommandService } from '@sinilill/commands';
import { Announcements, buildCommandApi, readModelLookups } from '@sinilill/command-api';
import { REFRESH_COOKIE, type SessionClaims } from '@sinilill/contracts';
import { announcementStreams, centsToEuros, feeFor, streams, type ActingUser } from '@sinilill/domain';
import { edition2025 } from '@sinilill/domain/seed';
import type { OutgoingMail } from '@sinilill/mail';
import { SandboxProvider, type PaymentProvider } from '@sinilill/payments';
import { streamIndexOn, testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const NOW = new Date('2025-04-15T09:00:00Z');
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const PASSWORD = 'Sinilill jookseb 2025!';
const LINK = {
  confirm: /\/confirm\/account\/([A-Za-z0-9_-]{43})\/([0-9a-f-]{36})/,
  reset: /\/passwordreset\/([A-Za-z0-9_-]{43})\/([0-9a-f-]{36})/,
};

let app: TestApplication;
let accountPool: pg.Pool;
let commands: CommandService;
let accounts: AccountService;
let sessions: TestSessions;
let api: FastifyInstance;
let announcements: Announcements;
const mails: OutgoingMail[] = [];
/** The orders the provider was asked to create, by order id. */
const created: string[] = [];
let serial = 0;

beforeAll(async () => {
  app = await testApplication({ now: () => NOW });
  accountPool = new pg.Pool({ connectionString: app.url, max: 6 });
  const directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
  commands = new CommandService({ store: app.store, ids: app.ids, now: () => NOW, directory, streamIndex: streamIndexOn(app.pool), ...readModelLookups(app.pool) });
  accounts = new AccountService({
    store: app.store, ids: app.ids, directory, now: () => NOW, publicUrl: 'http://sinilill.test',
    mailer: { send: async (mail) => { mails.push(mail); }, close: () => undefined },
  });
  sessions = testSessions(app, { now: () => NOW });
  const sandbox = new SandboxProvider({ secret: 'sandbox-payment-secret-for-tests-0123456789', publicUrl: 'http://sinilill.test' });
  // The sandbox, counting the orders it is asked to create.
  const provider: PaymentProvider = {
    name: sandbox.name,
    listMethods: () => sandbox.listMethods(),
    createOrder: (order) => {
      created.push(order.orderId);
      return sandbox.createOrder(order);
    },
    verifyToken: (token) => sandbox.verifyToken(token),
  };
  announcements = new Announcements({
    store: app.store, redisUrl: inject('redisUrl'), prefix: `test-${randomUUID()}`, publicUrl: 'http://sinilill.test', secret: SECRET, now: () => NOW,
    mailer: { send: async (mail) => { mails.push(mail); }, close: () => undefined },
  });
  api = buildCommandApi({
    commands, accounts, announcements, jwtSecret: SECRET, rateLimit: { max: 1000, timeWindowMs: 60_000 },
    payments: { provider, publicUrl: 'http://sinilill.test' },
  });
  await api.ready();
}, 120_000);

afterAll(async () => {
  await api?.close();
  await announcements?.close();
  await accountPool?.end();
  await app?.close();
});

/** Sends `body` to `url` with `key` as Idempotency-Key (none when null). */
function send(method: 'POST' | 'PUT', url: string, body: object, key: string | null, authorization?: string): Promise<LightMyRequestResponse> {
  return api.inject({
    method, url: `/api${url}`, payload: body,
    headers: { ...(key === null ? {} : { 'idempotency-key': key }), ...(authorization ? { authorization } : {}) },
  });
}

/** The same request twice under one key: both answers, which must be alike. */
async function twice(method: 'POST' | 'PUT', url: string, body: object, authorization?: string): Promise<[LightMyRequestResponse, LightMyRequestResponse]> {
  const key = randomUUID();
  const first = await send(method, url, body, key, authorization);
  const second = await send(method, url, body, key, authorization);
  expect(first.statusCode, first.body).toBe(200);
  expect({ status: second.statusCode, body: second.json() as unknown }).toEqual({ status: first.statusCode, body: first.json() as unknown });
  return [first, second];
}

/** A registered account (through the service: its confirmation mail is captured). */
async function registered(): Promise<{ email: string; userId: string; teamId: number; participantId: number }> {
  serial += 1;
  const email = `kordaja-${serial}-${randomUUID().slice(0, 6)}@example.ee`;
  const id = randomUUID();
  const result = await accounts.registerTeam({
    fullName: 'Kaja Kordaja', email, gender: 'FEMALE', birthYear: 1985, password: PASSWORD, newsletter: false, lang: 'est',
    teamName: `Kordajad ${serial} ${id.slice(0, 6)}`,
  }, { actor: { ...SYSTEM, role: 'USER' }, metadata: { commandId: id, correlationId: id, causationId: null } });
  return { email, userId: result.userId, teamId: result.teamId, participantId: result.participantId };
}

const mailsTo = (email: string) => mails.filter((mail) => mail.to === email);
const linkOf = (mail: OutgoingMail, kind: 'confirm' | 'reset') => {
  const match = LINK[kind].exec(mail.text)!;
  return { token: match[1]!, userId: match[2]! };
};
const eventTypes = async (stream: string) => (await app.store.readStream(stream)).map((event) => event.type);

describe('a retried request with the same Idempotency-Key answers as the first and has one effect', () => {
  test('POST /confirmaccount: the retry answers success (not INVALID_ACCOUNT_TOKEN) and the account is confirmed once', async () => {
    const person = await registered();
    const { token, userId } = linkOf(mailsTo(person.email).at(-1)!, 'confirm');
    await twice('POST', '/confirmaccount', { token, id: userId });
    expect((await eventTypes(streams.user(userId))).filter((type) => type === 'AccountConfirmed')).toHaveLength(1);
  });

  test('POST /requestpasswordreset: the retry mails nothing and issues no second link', async () => {
    const person = await registered();
    const before = mailsTo(person.email).length;
    await twice('POST', '/requestpasswordreset', { email: person.email, lang: 'est' });
    expect(mailsTo(person.email).length - before).toBe(1);
    expect((await eventTypes(streams.user(person.userId))).filter((type) => type === 'PasswordResetRequested')).toHaveLength(1);
  });

  test('POST /resetpassword: the retry answers success (not INVALID_RESET_TOKEN) and the password is set once', async () => {
    const person = await registered();
    await accounts.requestPasswordReset({ email: person.email, lang: 'est' }, { actor: SYSTEM, metadata: { commandId: randomUUID(), correlationId: 'reset', causationId: null } });
    const { token, userId } = linkOf(mailsTo(person.email).at(-1)!, 'reset');
    await twice('POST', '/resetpassword', { userId, token, newPassword: 'Uus salasõna kevadeks 2025' });
    expect((await eventTypes(streams.user(userId))).filter((type) => type === 'PasswordResetCompleted')).toHaveLength(1);
  });

  test('PUT /account/changepassword: the retry (after the client refreshed its ended session) answers success, not INVALID_PASSWORD; the password changes once', async () => {
    const person = await registered();
    const admin: ActingUser = { userId: randomUUID(), role: 'ADMIN', participantId: null, teamId: null };
    await accounts.setApproval(person.userId, true, { actor: admin, metadata: { commandId: randomUUID(), correlationId: 'approve', causationId: null } });
    const claims: SessionClaims = { userId: person.userId, fullName: 'Kaja Kordaja', is_approved: true, participantId: person.participantId, teamId: person.teamId, role: 'USER', isPaid: false };
    await sessions.enrol(claims);
    const key = randomUUID();
    const body = { currentPassword: PASSWORD, newPassword: 'Teine salasõna suveks 2025' };
    const first = await send('PUT', '/account/changepassword', body, key, sessions.bearer(api, claims));
    expect(first.statusCode, first.body).toBe(200);
    // The change ended every session: the client refreshes with the cookie it got, then sends the command again.
    const cookie = first.cookies.find((c) => c.name === REFRESH_COOKIE)!;
    const refreshed = await api.inject({ method: 'POST', url: '/api/session/refresh', cookies: { [REFRESH_COOKIE]: cookie.value } });
    const second = await send('PUT', '/account/changepassword', body, key, `Bearer ${refreshed.json<{ token: string }>().token}`);
    expect({ status: second.statusCode, body: second.json() as unknown }).toEqual({ status: 200, body: first.json() as unknown });
    expect((await eventTypes(streams.user(person.userId))).filter((type) => type === 'PasswordChanged')).toHaveLength(1);
  });

  test('POST /admin/announcements: the retry answers the same announcement, recorded once (its mails are sent once)', async () => {
    const admin: SessionClaims = { userId: randomUUID(), fullName: 'Haldur', is_approved: true, participantId: null, teamId: null, role: 'ADMIN', isPaid: false };
    await sessions.enrol(admin);
    const body = { subject_et: 'Kevadine teade', body_et: 'Tere!', subject_en: 'Spring news', body_en: 'Hello!', audience: 'all' };
    const [first] = await twice('POST', '/admin/announcements', body, sessions.bearer(api, admin));
    const { announcementId } = first.json<{ announcementId: string }>();
    expect((await app.store.readStream(announcementStreams.announcement(announcementId))).map((event) => event.type)).toEqual(['AnnouncementPublished']);
    const published = await app.store.readEvents({ types: ['AnnouncementPublished'] });
    expect(published.filter((event) => (event.data as { subject_et: string }).subject_et === 'Kevadine teade')).toHaveLength(1);
    // The key reused for another text: refused, nothing recorded.
    const key = randomUUID();
    expect((await send('POST', '/admin/announcements', body, key, sessions.bearer(api, admin))).statusCode).toBe(200);
    const reused = await send('POST', '/admin/announcements', { ...body, body_et: 'Teine tekst' }, key, sessions.bearer(api, admin));
    expect({ status: reused.statusCode, body: reused.json() as unknown }).toEqual({ status: 422, body: { message: 'IDEMPOTENCY_KEY_REUSED' } });
  });

  describe('POST /payment/order', () => {
    const fee = centsToEuros(feeFor(1985, edition2025));
    const orderBody = { billingAddress: {}, isPaid: false, grandTotal: fee, payment: { method: 'paymentInitiation', methodOptions: { preferredCountry: 'EE', preferredProvider: 'HABAEE2X' }, amount: fee } };
    /** An approved participant's bearer token. */
    const payer = async () => {
      serial += 1;
      const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });
      const { teamId } = await commands.registerTeam({ teamName: `Maksjad ${serial} ${randomUUID().slice(0, 6)}`, description: '', joinCode: `KRD${serial}X${serial}QZ`, icon: null }, system(`idem-team-${randomUUID()}`));
      const email = `maksja-${serial}-${randomUUID().slice(0, 6)}@example.ee`;
      const { participantId } = await commands.registerParticipant({
        teamId, fullName: `Maksja ${serial}`, email, birthYear: 1985, gender: 'FEMALE', isCaptain: true, newsletter: false,
      }, system(`idem-person-${randomUUID()}`));
      const userId = (await new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' }).userIdOfEmail(email))!;
      const claims: SessionClaims = { userId, fullName: `Maksja ${serial}`, is_approved: true, participantId, teamId, role: 'USER', isPaid: false };
      await sessions.enrol(claims);
      return sessions.bearer(api, claims);
    };

    test('the retry answers the same order and payment URL; one order recorded, the provider asked once', async () => {
      const authorization = await payer();
      const [first] = await twice('POST', '/payment/order', orderBody, authorization);
      const { orderId, paymentUrl } = first.json<{ orderId: string; paymentUrl: string }>();
      expect(paymentUrl).toMatch(/^http/);
      expect(created.filter((id) => id === orderId)).toHaveLength(1);
      expect(await eventTypes(streams.payment(orderId))).toEqual(['PaymentOrdered']);
    });

    test('another key is another order; without a key every request is a new order', async () => {
      const authorization = await payer();
      const a = await send('POST', '/payment/order', orderBody, randomUUID(), authorization);
      const b = await send('POST', '/payment/order', orderBody, randomUUID(), authorization);
      const c = await send('POST', '/payment/order', orderBody, null, authorization);
      const ids = [a, b, c].map((answer) => answer.json<{ orderId: string }>().orderId);
      expect(new Set(ids).size).toBe(3);
    });

    test('the key reused with another body is IDEMPOTENCY_KEY_REUSED, and makes no order', async () => {
      const authorization = await payer();
      const key = randomUUID();
      expect((await send('POST', '/payment/order', orderBody, key, authorization)).statusCode).toBe(200);
      const before = created.length;
      const reused = await send('POST', '/payment/order', { ...orderBody, isPaid: true, grandTotal: 20, payment: { ...orderBody.payment, amount: 20 } }, key, authorization);
      expect({ status: reused.statusCode, body: reused.json() as unknown }).toEqual({ status: 422, body: { message: 'IDEMPOTENCY_KEY_REUSED' } });
      expect(created.length).toBe(before);
    });
  });
});
