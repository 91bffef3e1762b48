/**
 * Rate limits that count people (docs/decisions/0024), through a real gateway in front of real
 * command APIs on real PostgreSQL and Redis.
 *
 * The audit's findings, each reproduced here: the limits counted the gateway (every client behind
 * it was 127.0.0.1), so ten wrong passwords locked any chosen user out (the key was the gateway's
 * address plus the e-mail), password spraying over 40 e-mails was not limited, 25 registrations in
 * 5 s went through (each sending a mail), and the reset form, which tells whether an address is
 * registered (spec §5), had no limit per client.
 *
 * Two clients through the gateway are two loopback source addresses (127.0.0.2, 127.0.0.3, …;
 * Linux routes all of 127.0.0.0/8 to lo) bound with Node's http `localAddress`. The gateway itself
 * reaches the APIs from 127.0.0.1, the one peer they trust with X-Forwarded-For.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { AccountDirectory, AccountService, CommandService } from '@sinilill/commands';
import { buildCommandApi, slowDownMs, type CommandApiDependencies, type RateLimits } from '@sinilill/command-api';
import type { ActingUser } from '@sinilill/domain';
import { buildGateway } from '@sinilill/gateway';
import { freePort } from '@sinilill/local-infra';
import type { Mailer, OutgoingMail } from '@sinilill/mail';
import { testApplication, type TestApplication } from '../support/app';
import { runningClock } from '../support/running-clock';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const ADMIN: ActingUser = { userId: 'b7d1f6c4-3f51-4a4c-9d51-2f0f5c6c0a01', role: 'ADMIN', participantId: null, teamId: null };
const PASSWORD = 'Sinilill jookseb 2025!';

interface Answer {
  status: number;
  body: { message?: string; token?: string; success?: boolean };
  retryAfter: number | null;
}

let app: TestApplication;
let accountPool: pg.Pool;
let accounts: AccountService;
let commands: CommandService;
let redis: Redis;
/** In the 2025 edition's days (registration is judged by them), at the real clock's pace. */
const clock = runningClock();
const mails: OutgoingMail[] = [];
const mailer: Mailer = { send: async (mail) => { mails.push(mail); }, close: () => undefined };
const closing: (() => Promise<unknown>)[] = [];
let serial = 0;

beforeAll(async () => {
  app = await testApplication({ now: clock });
  accountPool = new pg.Pool({ connectionString: app.url, max: 8 });
  const directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
  commands = new CommandService({ store: app.store, ids: app.ids, now: clock, directory });
  accounts = new AccountService({ store: app.store, ids: app.ids, directory, mailer, now: clock, publicUrl: 'http://sinilill.test' });
  // As server.ts makes it: no offline queue, a short command timeout; connected before use.
  redis = new Redis(inject('redisUrl'), { lazyConnect: true, enableOfflineQueue: false, commandTimeout: 1000, maxRetriesPerRequest: 0 });
  await redis.connect();
}, 120_000);

afterAll(async () => {
  for (const close of closing.reverse()) await close();
  redis?.disconnect();
  await accountPool?.end();
  await app?.close();
});

/** A command API listening on 127.0.0.1 with these limits; its counters under `prefix` in Redis. */
async function commandApi(rateLimits: Partial<RateLimits> = {}, options: { prefix?: string; redis?: CommandApiDependencies['redis'] } = {}): Promise<{ api: FastifyInstance; url: string }> {
  const api = buildCommandApi({
    commands, accounts, jwtSecret: SECRET, rateLimits,
    redis: options.redis === undefined ? redis : options.redis,
    rateLimitPrefix: options.prefix ?? `test-${randomUUID()}:rate-limit:`,
  });
  await api.listen({ host: '127.0.0.1', port: 0 });
  closing.push(() => api.close());
  return { api, url: `http://127.0.0.1:${(api.server.address() as AddressInfo).port}` };
}

/** A gateway in front of `commandApiUrl` (the query API is not needed: every call here is a POST). */
async function gatewayFor(commandApiUrl: string): Promise<string> {
  const gateway = buildGateway({ commandApiUrl, queryApiUrl: `http://127.0.0.1:${await freePort()}`, webRoot: '/nonexistent/web/dist' });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  closing.push(() => gateway.close());
  return `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
}

/** POSTs JSON to `base` + /api + `path` from the loopback address `from`, with extra headers. */
function post(base: string, path: string, body: unknown, from: string, headers: Record<string, string> = {}): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/api${path}`, {
      method: 'POST', localAddress: from, agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers },
    }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => { text += chunk.toString(); });
      res.on('end', () => {
        const retryAfter = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Answer['body'], retryAfter: retryAfter === undefined ? null : Number(retryAfter) });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const login = (base: string, from: string, email: string, password: string, headers: Record<string, string> = {}) =>
  post(base, '/login', { email, password }, from, headers);

/** A registered, approved account with PASSWORD (registered and approved in the service, no limit spent). */
async function account(who: string): Promise<{ email: string; userId: string }> {
  const email = `${who}-${++serial}@example.ee`;
  const id = randomUUID();
  const registered = await accounts.registerTeam({
    fullName: 'Vera Ohver', email, gender: 'FEMALE', birthYear: 1980, password: PASSWORD, newsletter: false, lang: 'est',
    teamName: `Piiratud ${serial} ${id.slice(0, 6)}`,
  }, { actor: { ...ADMIN, role: 'USER', userId: null }, metadata: { commandId: id, correlationId: id, causationId: null } });
  await accounts.setApproval(registered.userId, true, { actor: ADMIN, metadata: { commandId: `approve-${id}`, correlationId: id, causationId: null } });
  return { email, userId: registered.userId };
}

function registration(from: string) {
  const n = ++serial;
  return {
    full_name: 'Mari Maasikas', email: `mari-${n}-${from.replaceAll('.', '-')}@example.ee`, gender: 'FEMALE', birth_year: 1980,
    password: 'kevadine-salasõna-1', newsletter: false, type: 'REGISTER_TEAM', team_name: `Tiim ${n} ${randomUUID().slice(0, 8)}`, lang: 'est',
  };
}

const expectLimited = (answer: Answer) => {
  expect({ status: answer.status, body: answer.body }).toEqual({ status: 429, body: { message: 'TOO_MANY_REQUESTS' } });
  expect(answer.retryAfter).toBeGreaterThan(0);
};

describe('through the gateway, the limits count each client, not the gateway', () => {
  test('(a) two clients behind one gateway have a budget each; what a client claims in X-Forwarded-For changes nothing', async () => {
    const { url } = await commandApi({ loginPerAddress: { max: 3, timeWindowMs: 60_000 } });
    const gateway = await gatewayFor(url);
    const nobody = () => `nobody-${++serial}@example.ee`;
    for (let i = 0; i < 3; i++) expect((await login(gateway, '127.0.0.2', nobody(), 'wrong-password-1')).status).toBe(401);
    // The fourth from 127.0.0.2 is refused, whichever address it claims: the gateway overwrites the claim.
    expectLimited(await login(gateway, '127.0.0.2', nobody(), 'wrong-password-1'));
    expectLimited(await login(gateway, '127.0.0.2', nobody(), 'wrong-password-1', { 'x-forwarded-for': '203.0.113.7' }));
    // Another client behind the same gateway still has its budget (before: one budget for everyone).
    expect((await login(gateway, '127.0.0.3', nobody(), 'wrong-password-1')).status).toBe(401);
    // …and claiming to be the limited one costs it nothing either.
    expect((await login(gateway, '127.0.0.4', nobody(), 'wrong-password-1', { 'x-forwarded-for': '127.0.0.2' })).status).toBe(401);
  });

  test('(b) an attacker failing 12 times at a victim is stopped, and the victim still logs in from elsewhere', async () => {
    const { url } = await commandApi(); // the defaults: 10 failures per account and address in 15 minutes
    const gateway = await gatewayFor(url);
    const victim = await account('victim');
    const attempts: Answer[] = [];
    for (let i = 0; i < 12; i++) attempts.push(await login(gateway, '127.0.0.2', victim.email, `guess-number-${i}`));
    expect(attempts.map((a) => a.status)).toEqual([...Array(10).fill(401), 429, 429]);
    expectLimited(attempts[10]!);
    expect(attempts[10]!.retryAfter).toBeLessThanOrEqual(15 * 60);
    // Even the right password from the attacker's address waits: a guess answered 429 tells nothing.
    expectLimited(await login(gateway, '127.0.0.2', victim.email, PASSWORD));
    // The victim, at another address: in at once (before: locked out with the attacker).
    const own = await login(gateway, '127.0.0.3', victim.email, PASSWORD);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.token).toEqual(expect.any(String));
  });

  test('(b) guessing from many addresses slows the account down for at most the bound; the owner passes after the delay or at once after a reset', async () => {
    expect([1, 2, 3, 4, 9, 30].map((beyond) => slowDownMs(beyond, 300_000))).toEqual([1000, 2000, 4000, 8000, 256_000, 300_000]);
    const { url } = await commandApi({
      loginFailuresPerAccountAndAddress: { max: 2, timeWindowMs: 60_000 },
      loginFailuresPerAccount: { max: 3, timeWindowMs: 60_000 },
      loginSlowDownMaxMs: 2000,
    });
    const gateway = await gatewayFor(url);
    const victim = await account('owner');
    for (const from of ['127.0.0.2', '127.0.0.3']) {
      for (let i = 0; i < 2; i++) expect((await login(gateway, from, victim.email, `botnet-guess-${i}`)).status).toBe(401);
    }
    // 4 failures, 1 past the account's 3: the account is held 1 s for everyone, the owner too.
    const held = await login(gateway, '127.0.0.4', victim.email, PASSWORD);
    expectLimited(held);
    expect(held.retryAfter).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await login(gateway, '127.0.0.4', victim.email, PASSWORD)).status).toBe(200);

    // More guesses: the holds double (2 s), never past loginSlowDownMaxMs.
    expect((await login(gateway, '127.0.0.5', victim.email, 'botnet-guess-5')).status).toBe(401);
    const longer = await login(gateway, '127.0.0.4', victim.email, PASSWORD);
    expectLimited(longer);
    expect(longer.retryAfter).toBe(2);
    // The owner resets the password from the mailed link: the account's counters are cleared.
    mails.length = 0;
    expect((await post(gateway, '/requestpasswordreset', { email: victim.email, lang: 'est' }, '127.0.0.4')).status).toBe(200);
    const link = /\/passwordreset\/([A-Za-z0-9_-]{43})\/([0-9a-f-]{36})/.exec(mails.find((mail) => mail.to.includes(victim.email))!.text)!;
    const reset = await post(gateway, '/resetpassword', { userId: link[2], token: link[1], newPassword: 'uus kevadine parool 2025' }, '127.0.0.4');
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect((await login(gateway, '127.0.0.4', victim.email, 'uus kevadine parool 2025')).status).toBe(200);
  });

  test('(c) spraying 40 e-mails from one address is stopped after 30 attempts', async () => {
    const { url } = await commandApi(); // the defaults: 30 logins per address in 10 minutes
    const gateway = await gatewayFor(url);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await login(gateway, '127.0.0.2', `sprayed-${i}-${++serial}@example.ee`, 'Summer2025!')).status);
    expect(statuses).toEqual([...Array(30).fill(401), ...Array(10).fill(429)]);
    expect((await login(gateway, '127.0.0.3', `sprayed-other-${++serial}@example.ee`, 'Summer2025!')).status).toBe(401);
  });

  test('(d) 25 registrations in 5 s from one address: 10 pass (10 mails), the rest 429; another address still registers', async () => {
    const { url } = await commandApi(); // the defaults: 10 registrations per address in a minute, 100 in an hour
    const gateway = await gatewayFor(url);
    mails.length = 0;
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 25 }, () => post(gateway, '/registerteam', registration('127.0.0.2'), '127.0.0.2')));
    expect(performance.now() - started).toBeLessThan(5000);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(15);
    for (const answer of refused) {
      expectLimited(answer);
      expect(answer.retryAfter).toBeLessThanOrEqual(60);
    }
    expect(mails).toHaveLength(10);
    // /jointeam shares the budget: a join from the same address is refused too.
    expectLimited(await post(gateway, '/jointeam', { ...registration('127.0.0.2'), type: 'JOIN_TEAM', team_name: undefined, team_join_code: 'ABCDEFGH' }, '127.0.0.2'));
    expect((await post(gateway, '/registerteam', registration('127.0.0.3'), '127.0.0.3')).status).toBe(200);
  }, 60_000);

  test('(d2) a group behind one address registers 60 people in half an hour; a script there is stopped after 10 a minute and 100 an hour', async () => {
    let now = Date.parse('2025-03-20T09:00:00Z');
    const api = buildCommandApi({ commands, accounts, jwtSecret: SECRET, redis: null, rateLimitClock: () => now });
    closing.push(() => api.close());
    const register = async () => {
      const answer = await api.inject({ method: 'POST', url: '/api/registerteam', payload: registration('127.0.0.1') });
      return { status: answer.statusCode, retryAfter: answer.headers['retry-after'] === undefined ? null : Number(answer.headers['retry-after']) };
    };
    // Two people finish the wizard every minute for 30 minutes, now and then three at once.
    const group: number[] = [];
    for (let minute = 0; minute < 30; minute++) {
      now += 60_000;
      for (let i = 0; i < (minute % 5 === 0 ? 3 : 2) && group.length < 60; i++) group.push((await register()).status);
    }
    expect(group).toEqual(Array(60).fill(200));
    // A script in the same minute: 10 pass, the 11th waits for the minute's end.
    now += 60_000;
    const burst = [];
    for (let i = 0; i < 11; i++) burst.push(await register());
    expect(burst.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(burst[10]!.status).toBe(429);
    expect(burst[10]!.retryAfter).toBeGreaterThan(0);
    expect(burst[10]!.retryAfter).toBeLessThanOrEqual(60);
    // Going on at 10 a minute, it meets the hour's 100 and waits for the hour's end.
    const script = [];
    for (let minute = 0; minute < 4; minute++) {
      now += 60_000;
      for (let i = 0; i < 10; i++) script.push(await register());
    }
    expect(script.filter((a) => a.status === 200)).toHaveLength(30);
    const stopped = script.find((a) => a.status === 429)!;
    expect(stopped.retryAfter).toBeGreaterThan(20 * 60);
    expect(stopped.retryAfter).toBeLessThanOrEqual(60 * 60);
  }, 120_000);

  test('(e) the reset form answers an unknown address as a known one (nothing mailed), 10 times per client address', async () => {
    const { url } = await commandApi(); // the defaults: 10 reset requests per address in 15 minutes
    const gateway = await gatewayFor(url);
    const known = await account('known');
    mails.length = 0;
    const answers: Answer[] = [];
    for (let i = 0; i < 12; i++) answers.push(await post(gateway, '/requestpasswordreset', { email: `unknown-${i}-${++serial}@example.ee`, lang: 'eng' }, '127.0.0.2'));
    expect(answers.slice(0, 10).map((a) => [a.status, a.body.success])).toEqual(Array(10).fill([200, true]));
    expect(mails).toEqual([]);
    expectLimited(answers[10]!);
    // Even a known address is not answered from there any more: no sweeping past the limit.
    expectLimited(await post(gateway, '/requestpasswordreset', { email: known.email, lang: 'eng' }, '127.0.0.2'));
    const elsewhere = await post(gateway, '/requestpasswordreset', { email: `unknown-x-${++serial}@example.ee`, lang: 'eng' }, '127.0.0.3');
    expect([elsewhere.status, elsewhere.body.success]).toEqual([200, true]);
    expect((await post(gateway, '/requestpasswordreset', { email: known.email, lang: 'eng' }, '127.0.0.3')).status).toBe(200);
  });
});

describe('the counters are shared and cannot be dodged', () => {
  test('(f) two command-API processes on one Redis share the counters', async () => {
    const prefix = `test-${randomUUID()}:rate-limit:`;
    const limits = { loginPerAddress: { max: 4, timeWindowMs: 60_000 }, loginFailuresPerAccountAndAddress: { max: 2, timeWindowMs: 60_000 } };
    const first = await commandApi(limits, { prefix });
    const second = await commandApi(limits, { prefix });
    const victim = await account('shared');
    // Two failures at the first process lock this address out of the account at the second.
    expect((await login(first.url, '127.0.0.5', victim.email, 'wrong-guess-1')).status).toBe(401);
    expect((await login(first.url, '127.0.0.5', victim.email, 'wrong-guess-2')).status).toBe(401);
    expectLimited(await login(second.url, '127.0.0.5', victim.email, PASSWORD));
    // The address's login budget (4) is shared too: three spent, one left, wherever it is spent.
    expect((await login(second.url, '127.0.0.5', `other-${++serial}@example.ee`, 'wrong-guess-3')).status).toBe(401);
    expectLimited(await login(first.url, '127.0.0.5', `other-${++serial}@example.ee`, 'wrong-guess-4'));
    // Without Redis each process would count alone: a third one with its own memory still answers.
    const alone = await commandApi(limits, { redis: null });
    expect((await login(alone.url, '127.0.0.5', `other-${++serial}@example.ee`, 'wrong-guess-5')).status).toBe(401);
  });

  test('(g) X-Forwarded-For from a client talking to the API directly is ignored; only the gateway\'s address is believed', async () => {
    const { url } = await commandApi({ loginPerAddress: { max: 3, timeWindowMs: 60_000 } });
    const spoofed = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i}` });
    for (let i = 0; i < 3; i++) expect((await login(url, '127.0.0.6', `direct-${++serial}@example.ee`, 'wrong-password-1', spoofed(i))).status).toBe(401);
    expectLimited(await login(url, '127.0.0.6', `direct-${++serial}@example.ee`, 'wrong-password-1', spoofed(99)));
    // From 127.0.0.1 (where the gateway connects from) the header is believed: that address is counted.
    for (let i = 0; i < 3; i++) expect((await login(url, '127.0.0.1', `trusted-${++serial}@example.ee`, 'wrong-password-1', { 'x-forwarded-for': '198.51.100.50' })).status).toBe(401);
    expectLimited(await login(url, '127.0.0.1', `trusted-${++serial}@example.ee`, 'wrong-password-1', { 'x-forwarded-for': '198.51.100.50' }));
    expect((await login(url, '127.0.0.1', `trusted-${++serial}@example.ee`, 'wrong-password-1', { 'x-forwarded-for': '198.51.100.51' })).status).toBe(401);
  });

  test('(h) while Redis does not answer, each process still limits (in its memory) and nothing answers 500', async () => {
    const deadRedis = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      lazyConnect: true, enableOfflineQueue: false, commandTimeout: 250, maxRetriesPerRequest: 0, retryStrategy: () => null,
    });
    deadRedis.on('error', () => undefined);
    closing.push(async () => deadRedis.disconnect());
    const { url } = await commandApi({ loginPerAddress: { max: 2, timeWindowMs: 60_000 } }, { redis: deadRedis });
    const victim = await account('no-redis');
    expect((await login(url, '127.0.0.7', victim.email, 'wrong-guess-1')).status).toBe(401);
    expect((await login(url, '127.0.0.8', victim.email, PASSWORD)).status).toBe(200);
    expect((await login(url, '127.0.0.7', victim.email, 'wrong-guess-2')).status).toBe(401);
    expectLimited(await login(url, '127.0.0.7', victim.email, 'wrong-guess-3'));
  });
});

describe('a password must be hard to guess, not only 6 characters long', () => {
  test('registration, password change and reset refuse abcdef, salasõna1 and the own e-mail with 400 PASSWORD_TOO_WEAK (too short stays PASSWORD_TOO_SHORT)', async () => {
    const { url } = await commandApi();
    const gateway = await gatewayFor(url);
    const refusal = (answer: Answer) => [answer.status, answer.body.message];
    expect(refusal(await post(gateway, '/registerteam', { ...registration('127.0.0.9'), password: 'abcde' }, '127.0.0.9'))).toEqual([400, 'PASSWORD_TOO_SHORT']);
    expect(refusal(await post(gateway, '/registerteam', { ...registration('127.0.0.9'), password: 'abcdef' }, '127.0.0.9'))).toEqual([400, 'PASSWORD_TOO_WEAK']);
    const own = registration('127.0.0.9');
    expect(refusal(await post(gateway, '/registerteam', { ...own, password: own.email }, '127.0.0.9'))).toEqual([400, 'PASSWORD_TOO_WEAK']);

    const person = await account('weak');
    const { token } = (await login(gateway, '127.0.0.9', person.email, PASSWORD)).body;
    const change = (newPassword: string) => new Promise<Answer>((resolve, reject) => {
      const payload = JSON.stringify({ currentPassword: PASSWORD, newPassword });
      const req = httpRequest(`${gateway}/api/account/changepassword`, {
        method: 'PUT', localAddress: '127.0.0.9', agent: false,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => { text += chunk.toString(); });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Answer['body'], retryAfter: null }));
      });
      req.on('error', reject);
      req.end(payload);
    });
    expect(refusal(await change('salasõna1'))).toEqual([400, 'PASSWORD_TOO_WEAK']);
    expect(refusal(await change('123456'))).toEqual([400, 'PASSWORD_TOO_WEAK']);

    mails.length = 0;
    expect((await post(gateway, '/requestpasswordreset', { email: person.email, lang: 'eng' }, '127.0.0.9')).status).toBe(200);
    const link = /\/passwordreset\/([A-Za-z0-9_-]{43})\/([0-9a-f-]{36})/.exec(mails.find((mail) => mail.to.includes(person.email))!.text)!;
    const reset = (newPassword: string) => post(gateway, '/resetpassword', { userId: link[2], token: link[1], newPassword }, '127.0.0.9');
    expect(refusal(await reset(person.email))).toEqual([400, 'PASSWORD_TOO_WEAK']);
    expect(refusal(await reset('password1'))).toEqual([400, 'PASSWORD_TOO_WEAK']);
    // A refused password spent nothing: the link still sets a strong one.
    expect((await reset('kolm rohelist konna')).status).toBe(200);
    expect((await login(gateway, '127.0.0.9', person.email, 'kolm rohelist konna')).status).toBe(200);
  });
});
