/**
 * The operators' queue board (docs/decisions/0017) on a real Redis: Bull Board over every queue, at
 * /api/admin/queues in the command API. A browser gets in with the HttpOnly cookie that
 * POST /api/admin/queues/session sets for an administrator — a narrow credential of its own
 *, not an access token; nobody else gets in. And the gateway
 * sends the replay and board paths to the command API whatever the method.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (the command API registers the plugin)
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildCommandApi } from '@sinilill/command-api';
import { QUEUE_BOARD_COOKIE, QUEUE_BOARD_SCOPE, type SessionClaims } from '@sinilill/contracts';
import { buildGateway } from '@sinilill/gateway';
import { createProjectionQueues, createReplayQueue, PROJECTION_NAMES, projectionQueueName, type Queue, type ReplayJob } from '@sinilill/messaging';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const admin: SessionClaims = {
  userId: 'b7d1f6c4-3f51-4a4c-9d51-2f0f5c6c0a01', fullName: 'Administrator', is_approved: true, participantId: null, teamId: null, role: 'ADMIN', isPaid: false,
};
const user: SessionClaims = {
  userId: '00000000-0000-4000-8000-000000000011', fullName: 'Test Person', is_approved: true, participantId: null, teamId: null, role: 'USER', isPaid: false,
};

describe('the queue board', () => {
  let app: TestApplication;
  let api: FastifyInstance;
  let replay: Queue<ReplayJob>;
  let watched: Queue[];
  let sessions: TestSessions;
  // Real accounts with live sessions (a token needs its account's session version).
  const bearer = (claims: SessionClaims) => ({ authorization: sessions.bearer(api, claims) });

  beforeAll(async () => {
    app = await testApplication();
    sessions = testSessions(app);
    await sessions.enrol(admin, user);
    const redisUrl = inject('redisUrl');
    const prefix = `test-board-${randomUUID()}`;
    replay = createReplayQueue({ redisUrl, prefix });
    watched = createProjectionQueues({ redisUrl, prefix });
    api = buildCommandApi({
      commands: app.commands, sessions: sessions.accounts, jwtSecret: SECRET, replayQueue: replay, boardQueues: [...watched, replay],
    });
    await api.ready();
  });
  afterAll(async () => {
    await api?.close();
    await Promise.all([replay?.close(), ...(watched ?? []).map((q) => q.close())]);
    await app?.close();
  });

  const session = async () => {
    const response = await api.inject({ method: 'POST', url: '/api/admin/queues/session', headers: bearer(admin) });
    expect(response.statusCode).toBe(200);
    const cookie = String(response.headers['set-cookie']);
    return { response, cookie, value: /^sinilill_queues=([^;]+)/.exec(cookie)![1]! };
  };

  test('a session needs an administrator: 401 without a token, 403 for a USER', async () => {
    const none = await api.inject({ method: 'POST', url: '/api/admin/queues/session' });
    expect([none.statusCode, none.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
    const forbidden = await api.inject({ method: 'POST', url: '/api/admin/queues/session', headers: bearer(user) });
    expect([forbidden.statusCode, forbidden.json()]).toEqual([403, { message: 'FORBIDDEN' }]);
    expect(forbidden.headers['set-cookie']).toBeUndefined();
  });

  test("an administrator's session is an HttpOnly, Secure, SameSite=Strict cookie for the board's path, 15 minutes long", async () => {
    const { response, cookie, value } = await session();
    expect(response.json()).toEqual({ path: '/api/admin/queues', expiresInSeconds: 900 });
    expect(cookie).toMatch(/; Path=\/api\/admin\/queues(;|$)/);
    expect(cookie).toMatch(/; HttpOnly(;|$)/);
    expect(cookie).toMatch(/; Secure(;|$)/);
    expect(cookie).toMatch(/; SameSite=Strict(;|$)/);
    expect(cookie).toMatch(/; Max-Age=900(;|$)/);
    // A queue-board token, not an access token: its own scope, key and claims.
    const claims = api.queueBoardToken.verify(value) as (ReturnType<typeof api.queueBoardToken.verify> & { iat: number; exp: number });
    const { sv, sid } = sessions.access(admin);
    expect(claims).toMatchObject({ scope: 'queue-board', userId: admin.userId, sv, sid });
    expect(claims).not.toHaveProperty('role');
    expect(claims.exp - claims.iat).toBe(900);
    expect(() => api.jwt.verify(value)).toThrow();
  });

  test('without the cookie the board answers 401; with a forged one or an access token 401; with a USER\'s board token 403', async () => {
    for (const url of ['/api/admin/queues', '/api/admin/queues/api/queues']) {
      const none = await api.inject({ method: 'GET', url });
      expect([none.statusCode, none.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
      const bearerOnly = await api.inject({ method: 'GET', url, headers: bearer(admin) });
      expect(bearerOnly.statusCode).toBe(401);
      const forged = await api.inject({ method: 'GET', url, headers: { cookie: `${QUEUE_BOARD_COOKIE}=not.a.token` } });
      expect(forged.statusCode).toBe(401);
      const accessToken = await api.inject({ method: 'GET', url, headers: { cookie: `${QUEUE_BOARD_COOKIE}=${api.jwt.sign(sessions.access(admin))}` } });
      expect([accessToken.statusCode, accessToken.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
      const { sv, sid } = sessions.access(user);
      const usersBoardToken = api.queueBoardToken.sign({ scope: QUEUE_BOARD_SCOPE, userId: user.userId, sv, sid }, 900);
      const asUser = await api.inject({ method: 'GET', url, headers: { cookie: `${QUEUE_BOARD_COOKIE}=${usersBoardToken}` } });
      expect([asUser.statusCode, asUser.json()]).toEqual([403, { message: 'FORBIDDEN' }]);
    }
  });

  test("with the cookie the board's page and its API answer, listing every queue", async () => {
    const { value } = await session();
    const headers = { cookie: `other=1; ${QUEUE_BOARD_COOKIE}=${value}` };
    const page = await api.inject({ method: 'GET', url: '/api/admin/queues', headers });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('/api/admin/queues');
    // Its assets come from under the same path, behind the same cookie (Node 20 serves them).
    expect(page.body).toContain('<base href="/api/admin/queues/"');
    const relative = /src="(static\/js\/[^"]+)"/.exec(page.body)?.[1];
    expect(relative).toBeDefined();
    const asset = `/api/admin/queues/${relative!}`;
    expect((await api.inject({ method: 'GET', url: asset!, headers })).statusCode).toBe(200);
    expect((await api.inject({ method: 'GET', url: asset! })).statusCode).toBe(401);
    const queues = await api.inject({ method: 'GET', url: '/api/admin/queues/api/queues', headers });
    expect(queues.statusCode).toBe(200);
    const names = queues.json<{ queues: { name: string }[] }>().queues.map((q) => q.name);
    expect(names).toContain('replay');
    for (const projection of PROJECTION_NAMES) expect(names).toContain(projectionQueueName(projection));
  });
});

describe('the gateway and the operators’ paths', () => {
  const upstreams: FastifyInstance[] = [];
  let gateway: FastifyInstance;
  const upstream = async (name: string) => {
    const server = Fastify();
    server.all('/*', async (request) => ({ upstream: name, method: request.method, url: request.url }));
    await server.listen({ host: '127.0.0.1', port: 0 });
    upstreams.push(server);
    return `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    gateway = buildGateway({ queryApiUrl: await upstream('query'), commandApiUrl: await upstream('command'), webRoot: '/nonexistent/web/dist' });
    await gateway.ready();
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all(upstreams.map((s) => s.close()));
  });

  test.each([
    ['GET', '/api/admin/replay/12'],
    ['POST', '/api/admin/replay'],
    ['GET', '/api/admin/queues'],
    ['GET', '/api/admin/queues/api/queues'],
    ['GET', '/api/admin/queues/static/js/main.js'],
    ['PUT', '/api/admin/queues/api/queues/replay/retry/failed'],
    ['POST', '/api/admin/queues/session'],
  ] as const)('%s %s goes to the command API', async (method, url) => {
    const response = await gateway.inject({ method, url });
    expect(response.json()).toMatchObject({ upstream: 'command', method, url });
  });

  test('other admin reads still go to the query API', async () => {
    const response = await gateway.inject({ method: 'GET', url: '/api/admin/history' });
    expect(response.json()).toMatchObject({ upstream: 'query' });
  });
});
