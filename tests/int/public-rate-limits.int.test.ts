/**
 * Rate limits of the public routes that cost work or could be guessed at (docs/decisions/0108), on
 * two instances of each API sharing one Redis, as two processes behind the gateway would: the
 * requests alternate between the instances, and the one past the limit is refused whichever
 * instance it reaches, 429 `{ message: 'TOO_MANY_REQUESTS' }` with the IETF draft's headers
 * (RateLimit-Limit, -Remaining, -Reset, -Policy) and Retry-After. The account routes' older limits
 * answer with the same headers.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { AccountDirectory, AccountService, CommandService } from '@sinilill/commands';
import { Announcements, buildCommandApi } from '@sinilill/command-api';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { MediaStore } from '@sinilill/media';
import { buildQueryApi } from '@sinilill/query-api';
import { testApplication, type TestApplication } from '../support/app';
import { NO_MAIL } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const NOW = new Date('2025-04-15T09:00:00Z');
/** Small enough to pass in a few requests; a minute, so that no window ends during a test. */
const LIMIT = { max: 3, timeWindowMs: 60_000 };

let app: TestApplication;
let redis: Redis;
const closing: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  app = await testApplication({ now: () => NOW });
  redis = new Redis(inject('redisUrl'), { lazyConnect: true, enableOfflineQueue: false, commandTimeout: 1000, maxRetriesPerRequest: 0 });
  await redis.connect();
}, 120_000);

afterAll(async () => {
  for (const close of closing.reverse()) await close();
  redis?.disconnect();
  await app?.close();
});

/** Two query APIs counting under one fresh prefix in the shared Redis, every public limit LIMIT. */
async function twoQueryApis(): Promise<[FastifyInstance, FastifyInstance]> {
  const prefix = `test-${randomUUID()}:rate-limit:`;
  const history = withPersonalDataProtection(new PostgresEventStore({ pool: app.pool }), new PersonalDataVault({ pool: app.pool }), PERSONAL_DATA_FIELDS);
  const build = async () => {
    const api = buildQueryApi({
      db: app.db, now: () => NOW, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes: { subscribe: () => () => undefined },
      history, media: new MediaStore(app.pool), redis, rateLimitPrefix: prefix, rateLimit: LIMIT,
    });
    await api.ready();
    closing.push(() => api.close());
    return api;
  };
  return [await build(), await build()];
}

/** Two command APIs (accounts and announcements) counting under one fresh prefix, every limit LIMIT. */
async function twoCommandApis(): Promise<[FastifyInstance, FastifyInstance]> {
  const prefix = `test-${randomUUID()}:rate-limit:`;
  const directory = new AccountDirectory({ pool: app.pool, indexSecret: 'test-index-secret-0123456789' });
  const commands = new CommandService({ store: app.store, ids: app.ids, now: () => NOW, directory });
  const accounts = new AccountService({ store: app.store, ids: app.ids, directory, mailer: NO_MAIL, now: () => NOW, publicUrl: 'http://sinilill.test' });
  const announcements = new Announcements({
    store: app.store, redisUrl: inject('redisUrl'), prefix: `test-${randomUUID()}`, publicUrl: 'http://sinilill.test', secret: SECRET, now: () => NOW, mailer: NO_MAIL,
  });
  closing.push(() => announcements.close());
  const build = async () => {
    const api = buildCommandApi({ commands, accounts, announcements, jwtSecret: SECRET, redis, rateLimitPrefix: prefix, rateLimit: LIMIT });
    await api.ready();
    closing.push(() => api.close());
    return api;
  };
  return [await build(), await build()];
}

interface Call {
  method: 'GET' | 'POST';
  url: string;
  payload?: Record<string, unknown>;
}

/** The inject options of `call` from `remoteAddress`. */
const from = (call: Call, remoteAddress: string) => ({
  method: call.method, url: call.url, remoteAddress, ...(call.payload === undefined ? {} : { payload: call.payload }),
});

/** `call` LIMIT.max + 1 times from one address, alternating between the two instances. */
async function pastTheLimit(apis: readonly [FastifyInstance, FastifyInstance], call: Call, remoteAddress = '203.0.113.7'): Promise<LightMyRequestResponse[]> {
  const answers: LightMyRequestResponse[] = [];
  for (let n = 0; n <= LIMIT.max; n++) {
    answers.push(await apis[n % 2]!.inject(from(call, remoteAddress)));
  }
  return answers;
}

/** The answers within the limit carry the draft's headers counting down; the one past it is 429 with Retry-After. */
function expectLimited(answers: readonly LightMyRequestResponse[]): void {
  const within = answers.slice(0, -1);
  const past = answers.at(-1)!;
  expect(within.map((answer) => answer.statusCode)).not.toContain(429);
  expect(within.map((answer) => answer.headers['ratelimit-remaining'])).toEqual(within.map((_, n) => String(LIMIT.max - n - 1)));
  for (const answer of within) {
    expect(answer.headers['ratelimit-limit']).toBe(String(LIMIT.max));
    expect(answer.headers['ratelimit-policy']).toBe(`${LIMIT.max};w=60`);
    expect(Number(answer.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect(answer.headers['retry-after']).toBeUndefined();
  }
  expect({ status: past.statusCode, body: past.json() }).toEqual({ status: 429, body: { message: 'TOO_MANY_REQUESTS' } });
  expect(past.headers['ratelimit-limit']).toBe(String(LIMIT.max));
  expect(past.headers['ratelimit-remaining']).toBe('0');
  expect(past.headers['ratelimit-policy']).toBe(`${LIMIT.max};w=60`);
  expect(Number(past.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(past.headers['retry-after'])).toBeLessThanOrEqual(60);
}

describe('the query API: each public route that costs work or could be guessed at is limited per address across processes', () => {
  const routes: [string, Call][] = [
    ['certificate verification', { method: 'GET', url: '/api/certificates/AAAA-BBBB-CCCC' }],
    ['the prize draw', { method: 'GET', url: '/api/draw' }],
    ['the share image', { method: 'GET', url: '/api/team/1/share.png' }],
    ['the share page', { method: 'GET', url: '/api/share/team/1' }],
    ['a stored image', { method: 'GET', url: `/api/images/${'a'.repeat(64)}.webp` }],
    ['the news', { method: 'POST', url: '/api/strapi/story', payload: { locale: 'et' } }],
  ];
  test.each(routes)('%s: past the limit 429 with the RateLimit headers and Retry-After', async (_name, call) => {
    const apis = await twoQueryApis();
    expectLimited(await pastTheLimit(apis, call));
    // Another address has a budget of its own.
    const other = await apis[0].inject(from(call, '198.51.100.20'));
    expect(other.statusCode).not.toBe(429);
  });

  test('the share image and the share page share one budget (a crawler fetches both for one share)', async () => {
    const apis = await twoQueryApis();
    for (let n = 0; n < LIMIT.max; n++) await apis[n % 2]!.inject({ method: 'GET', url: '/api/team/1/share.png', remoteAddress: '203.0.113.8' });
    const page = await apis[1].inject({ method: 'GET', url: '/api/share/team/1', remoteAddress: '203.0.113.8' });
    expect(page.statusCode).toBe(429);
  });

  test('a malformed request is refused before it is counted', async () => {
    const apis = await twoQueryApis();
    for (let n = 0; n <= LIMIT.max; n++) {
      const answer = await apis[n % 2]!.inject({ method: 'POST', url: '/api/strapi/story', payload: { locale: 42 }, remoteAddress: '203.0.113.9' });
      expect(answer.statusCode).toBe(400);
    }
    const good = await apis[0].inject({ method: 'POST', url: '/api/strapi/story', payload: { locale: 'et' }, remoteAddress: '203.0.113.9' });
    expect(good.headers['ratelimit-remaining']).toBe(String(LIMIT.max - 1));
  });
});

describe('the command API: public routes and the account routes answer alike', () => {
  test.each([
    ['the unsubscribe page', { method: 'POST', url: '/api/unsubscribe', payload: { token: 'not-a-real-unsubscribe-token' } }],
    ['account confirmation', { method: 'POST', url: '/api/confirmaccount', payload: { id: randomUUID(), token: 'not-a-real-token-0123456789' } }],
    ['password reset request (an older limit, now with the headers)', { method: 'POST', url: '/api/requestpasswordreset', payload: { email: 'nobody@example.ee', lang: 'est' } }],
    ['login (an older limit, now with the headers)', { method: 'POST', url: '/api/login', payload: { email: 'nobody@example.ee', password: 'wrong password 123' } }],
  ] as [string, Call][])('%s: past the limit 429 with the RateLimit headers and Retry-After', async (_name, call) => {
    const apis = await twoCommandApis();
    expectLimited(await pastTheLimit(apis, call));
  });

  test('the one-click unsubscribe and the page share one budget', async () => {
    const apis = await twoCommandApis();
    for (let n = 0; n < LIMIT.max; n++) {
      await apis[n % 2]!.inject({ method: 'POST', url: '/api/unsubscribe', payload: { token: 'not-a-real-unsubscribe-token' }, remoteAddress: '203.0.113.10' });
    }
    const oneClick = await apis[1].inject({
      method: 'POST', url: '/api/unsubscribe/not-a-real-unsubscribe-token', remoteAddress: '203.0.113.10',
      headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(429);
  });

  test('registration counts two windows by hand and answers with the same headers', async () => {
    const apis = await twoCommandApis();
    const answers: LightMyRequestResponse[] = [];
    for (let n = 0; n <= LIMIT.max; n++) {
      answers.push(await apis[n % 2]!.inject({
        method: 'POST', url: '/api/registerteam', remoteAddress: '203.0.113.11',
        // A weak password: refused after the limits counted it, nothing registered.
        payload: { full_name: 'Mari Maasikas', email: `mari-${n}@example.ee`, gender: 'FEMALE', birth_year: 1980, password: 'short', newsletter: false, type: 'REGISTER_TEAM', team_name: `Tiim ${randomUUID().slice(0, 8)}`, lang: 'est' },
      }));
    }
    expectLimited(answers);
  });
});
