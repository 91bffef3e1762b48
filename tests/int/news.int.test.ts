/**
 * The news page's stories (spec §7 POST /api/strapi/story {locale}): from the project's
 * own content files (infra/content/news) when no Strapi is configured, from Strapi 5 when it is
 * (here a local HTTP stand-in that records what it was asked), 400 INVALID_REQUEST for a bad
 * locale, 502 NEWS_UNAVAILABLE when Strapi fails; and the gateway sends this one POST to the
 * query API, not to the command API.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { repoRoot } from '@sinilill/config';
import type { NewsAnswer } from '@sinilill/contracts';
import { buildGateway } from '@sinilill/gateway';
import { buildQueryApi, type NewsOptions, type TeamChangeFeed } from '@sinilill/query-api';
import { testApplication, type TestApplication } from '../support/app';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const NO_CHANGES: TeamChangeFeed = { subscribe: () => () => undefined };

/** A stand-in for Strapi: answers whatever `reply` says and records each request. */
interface StrapiStandIn {
  url: string;
  requests: { url: URL; authorization: string | undefined }[];
  reply: (request: IncomingMessage) => { status: number; body: string; delayMs?: number };
  close(): Promise<void>;
}

async function strapiStandIn(): Promise<StrapiStandIn> {
  const standIn: StrapiStandIn = {
    url: '',
    requests: [],
    reply: () => ({ status: 200, body: JSON.stringify({ data: [], meta: {} }) }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((request, response) => {
    standIn.requests.push({ url: new URL(request.url ?? '/', 'http://strapi.local'), authorization: request.headers.authorization });
    const { status, body, delayMs = 0 } = standIn.reply(request);
    const timer = setTimeout(() => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(body);
    }, delayMs);
    response.on('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}

/** A Strapi 5 REST answer of GET /api/stories: two stories, rich text, a relative media URL. */
const STRAPI_STORIES = {
  data: [
    {
      id: 7,
      documentId: 'older-story-doc',
      title: 'Registration is open',
      locale: 'en',
      publishedAt: '2025-03-01T10:00:00.000Z',
      content: [{ type: 'paragraph', children: [{ type: 'text', text: 'Sign up now.' }] }],
      image: null,
    },
    {
      id: 9,
      documentId: 'results-doc',
      title: 'Results of Sinilill 2025',
      locale: 'en',
      publishedAt: '2025-05-04T09:00:00.000Z',
      content: [
        { type: 'heading', level: 2, children: [{ type: 'text', text: 'In numbers' }] },
        {
          type: 'paragraph',
          children: [
            { type: 'text', text: 'We covered ' },
            { type: 'text', text: '196,445 km', bold: true },
            { type: 'text', text: ' – see the ' },
            { type: 'link', url: 'https://example.ee', children: [{ type: 'text', text: 'home page' }] },
            { type: 'text', text: '.' },
          ],
        },
        {
          type: 'list',
          format: 'ordered',
          children: [
            { type: 'list-item', children: [{ type: 'text', text: '1,005 participants' }] },
            { type: 'list-item', children: [{ type: 'text', text: '121 teams' }] },
          ],
        },
        { type: 'quote', children: [{ type: 'text', text: 'Every kilometre counts.' }] },
        { type: 'image', image: { url: '/uploads/inline.png' }, children: [{ type: 'text', text: '' }] },
      ],
      image: {
        id: 3,
        documentId: 'media-doc',
        url: '/uploads/finish_line.jpg',
        alternativeText: 'Participants at the finish',
        width: 2000,
        height: 1200,
        formats: { medium: { url: '/uploads/medium_finish_line.jpg', width: 750, height: 450 } },
      },
    },
  ],
  meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 2 } },
};

let app: TestApplication;
let strapi: StrapiStandIn;
const started: FastifyInstance[] = [];

/** A query API with these news options, listening; closed after the file. */
async function queryApi(news?: NewsOptions): Promise<string> {
  const api = buildQueryApi({ db: app.db, now: () => new Date('2025-05-06T10:00:00Z'), readYourWritesTimeoutMs: 0, jwtSecret: SECRET, changes: NO_CHANGES, news });
  started.push(api);
  return api.listen({ host: '127.0.0.1', port: 0 });
}

async function stories(base: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${base}/api/strapi/story`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

beforeAll(async () => {
  [app, strapi] = await Promise.all([testApplication(), strapiStandIn()]);
}, 120_000);

afterAll(async () => {
  await Promise.all(started.map((api) => api.close()));
  await strapi?.close();
  await app?.close();
});

beforeEach(() => {
  strapi.requests.length = 0;
  strapi.reply = () => ({ status: 200, body: JSON.stringify(STRAPI_STORIES) });
});

describe('without Strapi: the project\'s own stories (infra/content/news)', () => {
  let base: string;
  beforeAll(async () => {
    base = await queryApi();
  });

  test('Estonian stories, newest first, for et and for the stored value est', async () => {
    for (const locale of ['et', 'est']) {
      const { status, json } = await stories(base, { locale });
      expect(status).toBe(200);
      const answer = json as NewsAnswer;
      expect(answer.stories.length).toBeGreaterThanOrEqual(2);
      expect(answer.stories[0]!.title).toMatch(/Sinilill 2025/);
      const times = answer.stories.map((s) => Date.parse(s.publishedAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(answer.stories.every((s) => s.body.length > 0)).toBe(true);
    }
  });

  test('English stories for en and eng: the same stories as in Estonian, in English', async () => {
    const et = (await stories(base, { locale: 'et' })).json as NewsAnswer;
    for (const locale of ['en', 'eng']) {
      const { status, json } = await stories(base, { locale });
      expect(status).toBe(200);
      const en = json as NewsAnswer;
      expect(en.stories.map((s) => s.id)).toEqual(et.stories.map((s) => s.id));
      expect(en.stories.map((s) => s.title)).not.toEqual(et.stories.map((s) => s.title));
    }
  });

  test('a folder without the language\'s file: no stories (the page says "No updates")', async () => {
    const empty = await queryApi({ contentDir: join(repoRoot, 'infra/content/no-such-folder') });
    expect(await stories(empty, { locale: 'en' })).toEqual({ status: 200, json: { stories: [] } });
  });

  test('a content file that is not a NewsAnswer: 502 NEWS_UNAVAILABLE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sinilill-news-'));
    try {
      writeFileSync(join(dir, 'et.json'), JSON.stringify({ stories: [{ title: 'No id, no date, no body' }] }));
      writeFileSync(join(dir, 'en.json'), '{ "stories": [');
      const broken = await queryApi({ contentDir: dir });
      expect(await stories(broken, { locale: 'et' })).toEqual({ status: 502, json: { message: 'NEWS_UNAVAILABLE' } });
      expect(await stories(broken, { locale: 'en' })).toEqual({ status: 502, json: { message: 'NEWS_UNAVAILABLE' } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test.each([
    ['an unknown locale', { locale: 'de' }],
    ['no locale', {}],
    ['a locale that is not a string', { locale: 1 }],
    ['an unknown field', { locale: 'et', page: 2 }],
  ])('%s: 400 INVALID_REQUEST', async (_name, body) => {
    expect(await stories(base, body)).toEqual({ status: 400, json: { message: 'INVALID_REQUEST' } });
  });

  test('no body at all: 400 INVALID_REQUEST', async () => {
    const response = await fetch(`${base}/api/strapi/story`, { method: 'POST' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'INVALID_REQUEST' });
  });
});

describe('with Strapi configured', () => {
  test('asks GET /api/stories in the page\'s language, newest first, populated, with the token', async () => {
    const base = await queryApi({ strapiUrl: strapi.url, strapiToken: 'read-only-token', cacheMs: 0 });
    expect((await stories(base, { locale: 'eng' })).status).toBe(200);
    expect((await stories(base, { locale: 'et' })).status).toBe(200);
    expect(strapi.requests.map((r) => r.url.pathname)).toEqual(['/api/stories', '/api/stories']);
    expect(strapi.requests.map((r) => r.url.searchParams.get('locale'))).toEqual(['en', 'et']);
    for (const { url, authorization } of strapi.requests) {
      expect(url.searchParams.get('sort')).toBe('publishedAt:desc');
      expect(url.searchParams.get('populate')).toBe('*');
      expect(authorization).toBe('Bearer read-only-token');
    }
  });

  test('maps Strapi\'s stories to the stable answer: rich text as plain blocks, media URL made absolute', async () => {
    const base = await queryApi({ strapiUrl: strapi.url, cacheMs: 0 });
    const { status, json } = await stories(base, { locale: 'en' });
    expect(status).toBe(200);
    expect(strapi.requests[0]!.authorization).toBeUndefined();
    expect(json).toEqual({
      stories: [
        {
          id: 'results-doc',
          title: 'Results of Sinilill 2025',
          publishedAt: '2025-05-04T09:00:00.000Z',
          body: [
            { type: 'heading', text: 'In numbers' },
            { type: 'paragraph', text: 'We covered 196,445 km – see the home page.' },
            { type: 'list', ordered: true, items: ['1,005 participants', '121 teams'] },
            { type: 'quote', text: 'Every kilometre counts.' },
          ],
          image: { url: `${strapi.url}/uploads/medium_finish_line.jpg`, alt: 'Participants at the finish', width: 750, height: 450 },
        },
        {
          id: 'older-story-doc',
          title: 'Registration is open',
          publishedAt: '2025-03-01T10:00:00.000Z',
          body: [{ type: 'paragraph', text: 'Sign up now.' }],
          image: null,
        },
      ],
    } satisfies NewsAnswer);
  });

  test('no stories in Strapi: an empty list', async () => {
    strapi.reply = () => ({ status: 200, body: JSON.stringify({ data: [], meta: {} }) });
    const base = await queryApi({ strapiUrl: strapi.url, cacheMs: 0 });
    expect(await stories(base, { locale: 'et' })).toEqual({ status: 200, json: { stories: [] } });
  });

  test.each([
    ['answers 500', () => ({ status: 500, body: JSON.stringify({ error: { status: 500 } }) })],
    ['refuses the token (401)', () => ({ status: 401, body: JSON.stringify({ error: { status: 401 } }) })],
    ['answers something that is not JSON', () => ({ status: 200, body: '<html>maintenance</html>' })],
    ['answers JSON without a data list', () => ({ status: 200, body: JSON.stringify({ stories: [] }) })],
    ['does not answer in time', () => ({ status: 200, body: JSON.stringify(STRAPI_STORIES), delayMs: 2000 })],
  ])('Strapi %s: 502 NEWS_UNAVAILABLE', async (_name, reply) => {
    strapi.reply = reply;
    const base = await queryApi({ strapiUrl: strapi.url, cacheMs: 0, timeoutMs: 300 });
    expect(await stories(base, { locale: 'et' })).toEqual({ status: 502, json: { message: 'NEWS_UNAVAILABLE' } });
  });

  test('Strapi not running at all: 502 NEWS_UNAVAILABLE', async () => {
    const base = await queryApi({ strapiUrl: 'http://127.0.0.1:9', cacheMs: 0, timeoutMs: 1000 });
    expect(await stories(base, { locale: 'en' })).toEqual({ status: 502, json: { message: 'NEWS_UNAVAILABLE' } });
  });

  test('answers are reused for a while per language, failures are not', async () => {
    const base = await queryApi({ strapiUrl: strapi.url, cacheMs: 60_000 });
    strapi.reply = () => ({ status: 503, body: '{}' });
    expect((await stories(base, { locale: 'en' })).status).toBe(502);
    strapi.reply = () => ({ status: 200, body: JSON.stringify(STRAPI_STORIES) });
    expect((await stories(base, { locale: 'en' })).status).toBe(200);
    expect((await stories(base, { locale: 'en' })).status).toBe(200);
    expect((await stories(base, { locale: 'eng' })).status).toBe(200);
    expect((await stories(base, { locale: 'et' })).status).toBe(200);
    expect(strapi.requests.map((r) => r.url.searchParams.get('locale'))).toEqual(['en', 'en', 'et']);
  });
});

test('the gateway sends POST /api/strapi/story to the query API (other POSTs go to the command API)', async () => {
  const base = await queryApi();
  // The command API is not running: a story request that went there would fail.
  const gateway = buildGateway({ queryApiUrl: base, commandApiUrl: 'http://127.0.0.1:9', webRoot: '/nonexistent-web-root' });
  started.push(gateway);
  const gatewayBase = await gateway.listen({ host: '127.0.0.1', port: 0 });
  const { status, json } = await stories(gatewayBase, { locale: 'en' });
  expect(status).toBe(200);
  expect((json as NewsAnswer).stories.length).toBeGreaterThan(0);
  expect((await stories(gatewayBase, { locale: 'xx' })).json).toEqual({ message: 'INVALID_REQUEST' });
  const command = await fetch(`${gatewayBase}/api/entry`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(command.status).toBeGreaterThanOrEqual(500);
});
