/**
 * The gateway at its edges: an upstream that is down or restarting answers 503
 * SERVICE_UNAVAILABLE with nothing internal in the body (it answered 500 with the upstream's
 * address); a body over the API's limit answers 413 REQUEST_TOO_LARGE at the gateway (it answered
 * 500, EPIPE, and held small requests meanwhile), while the requests beside it are served.
 * The upstream stand-in is built with the APIs' own createApp (same limit and error handler).
 *
 * Production's front door, nginx with infra/nginx/sinilill.conf, where nginx is
 * installed (skipped otherwise): `nginx -t` accepts the configuration; and, run in front of two
 * stand-in APIs that say which of them answered, it routes every method and path of a matrix
 * (the gateway's EXCEPTIONS among them) to the same API as the gateway, sets the same
 * X-Forwarded-* headers and drops what the client claims, streams server-sent events unbuffered,
 * refuses an oversized body with 413 REQUEST_TOO_LARGE and answers 503 SERVICE_UNAVAILABLE when an
 * API is down.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_ATTRIBUTES_BODY_LIMIT } from '@sinilill/contracts';
import { EXCEPTIONS, buildGateway } from '@sinilill/gateway';
import { DEFAULT_BODY_LIMIT, createApp } from '@sinilill/http';
import { freePort } from '@sinilill/local-infra';
import { NGINX_CONF, nginxAvailable, startNginx } from '../bench/stats-peers';

let upstream: FastifyInstance;
let gateway: FastifyInstance;
let base: string;

beforeAll(async () => {
  upstream = createApp();
  upstream.post('/api/echo', async (req) => ({ bytes: JSON.stringify(req.body).length }));
  upstream.put('/api/team/:id/publicattributes', { bodyLimit: PUBLIC_ATTRIBUTES_BODY_LIMIT }, async (req) => ({ bytes: JSON.stringify(req.body).length }));
  upstream.get('/api/stats', async () => ({ ok: true }));
  await upstream.listen({ host: '127.0.0.1', port: 0 });
  const commandApiUrl = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
  // The query API is "down": a port where nothing listens.
  const queryApiUrl = `http://127.0.0.1:${await freePort()}`;
  gateway = buildGateway({ queryApiUrl, commandApiUrl, webRoot: '/nonexistent/web/dist' });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

test('an upstream that does not answer gives 503 SERVICE_UNAVAILABLE, with no address or error in the body', async () => {
  const response = await fetch(`${base}/api/stats`);
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('2');
  const body = await response.text();
  expect(JSON.parse(body)).toEqual({ message: 'SERVICE_UNAVAILABLE' });
  expect(body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|connect/i);
});

/** Sends a JSON body of `bytes` bytes with its content-length, the way a browser does. */
function send(method: string, path: string, bytes: number): Promise<{ status: number; body: string }> {
  const payload = JSON.stringify({ text: 'x'.repeat(Math.max(0, bytes - 12)) });
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => { body += chunk.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    // The gateway may answer and close before the whole body is written: that is the point.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    req.end(payload);
  });
}

test('a body over the limit answers 413 REQUEST_TOO_LARGE at the gateway while small requests beside it are served', async () => {
  const big = send('POST', '/api/echo', DEFAULT_BODY_LIMIT + 1024);
  const small = Array.from({ length: 10 }, () => send('POST', '/api/echo', 100));
  const [refused, ...served] = await Promise.all([big, ...small]);
  expect(refused.status).toBe(413);
  expect(JSON.parse(refused.body)).toEqual({ message: 'REQUEST_TOO_LARGE' });
  expect(served.map((r) => r.status)).toEqual(Array(10).fill(200));
});

test('a team icon up to its own limit passes the gateway; beyond it 413 too', async () => {
  const icon = await send('PUT', '/api/team/1/publicattributes', 3 * 1024 * 1024);
  expect(icon.status, icon.body).toBe(200);
  const tooBig = await send('PUT', '/api/team/1/publicattributes', PUBLIC_ATTRIBUTES_BODY_LIMIT + 100);
  expect(tooBig.status).toBe(413);
});

test('the API itself names an oversized body REQUEST_TOO_LARGE (no gateway in between)', async () => {
  const direct = await upstream.inject({ method: 'POST', url: '/api/echo', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ text: 'x'.repeat(DEFAULT_BODY_LIMIT) }) });
  expect(direct.statusCode).toBe(413);
  expect(direct.json()).toEqual({ message: 'REQUEST_TOO_LARGE' });
});

/** Sends `bytes` of JSON in chunks, with no Content-Length (Transfer-Encoding: chunked). */
function sendChunked(method: string, path: string, bytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => { body += chunk.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    if (bytes > 0) {
      const chunk = 'x'.repeat(64 * 1024);
      req.write('{"text":"');
      for (let sent = 0; sent < bytes; sent += chunk.length) req.write(chunk);
      req.write('"}');
    }
    req.end();
  });
}

test('a chunked body over the limit answers 413 REQUEST_TOO_LARGE, not 503 (found by the fuzz suite)', async () => {
  const answer = await sendChunked('POST', '/api/echo', DEFAULT_BODY_LIMIT * 2);
  expect(answer.status, answer.body).toBe(413);
  expect(JSON.parse(answer.body)).toEqual({ message: 'REQUEST_TOO_LARGE' });
  const small = await sendChunked('POST', '/api/echo', 1000);
  expect(small.status, small.body).toBe(200);
});

test('an empty chunked body on a method the gateway does not proxy is answered at once (found by the fuzz suite)', async () => {
  const answer = await Promise.race([
    sendChunked('OPTIONS', '/api/stats', 0),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 5 s')), 5_000)),
  ]);
  expect(answer.status).toBeLessThan(500);
});

const hasNginx = nginxAvailable();

describe.skipIf(!hasNginx)('nginx with infra/nginx/sinilill.conf, production\'s front door', () => {
  /** A stand-in API answering every method and path with which API it is, what it got, and the headers. */
  const standIn = (api: 'query' | 'command') => {
    const app = createApp();
    let served = 0;
    app.addHook('onSend', async (request, reply, payload) => {
      reply.header('x-api', api);
      // As the query API's cached public answers say it (answer-cache.ts): a browser revalidates.
      if (request.url.startsWith('/api/settings')) reply.header('cache-control', 'public, no-cache');
      return payload;
    });
    app.get('/api/team/:id/live', (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-api': api });
      reply.raw.write('event: change\ndata: {"teamId":1,"position":1}\n\n');
      setTimeout(() => reply.raw.end(), 1500);
    });
    app.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/*', bodyLimit: PUBLIC_ATTRIBUTES_BODY_LIMIT,
      handler: async (req) => ({ api, method: req.method, url: req.url, headers: req.headers, served: ++served }),
    });
    return app;
  };
  const apis = { query: standIn('query'), command: standIn('command') };
  let gatewayBase = '';
  let gatewayApp: FastifyInstance;
  let nginx: { url: string; stop: () => Promise<void> };

  beforeAll(async () => {
    const query = await apis.query.listen({ host: '127.0.0.1', port: 0 });
    const command = await apis.command.listen({ host: '127.0.0.1', port: 0 });
    gatewayApp = buildGateway({ queryApiUrl: query, commandApiUrl: command, webRoot: '/nonexistent/web/dist' });
    gatewayBase = await gatewayApp.listen({ host: '127.0.0.1', port: 0 });
    nginx = await startNginx({ query, command });
  });

  afterAll(async () => {
    await nginx?.stop();
    await gatewayApp?.close();
    for (const api of Object.values(apis)) {
      api.server.closeAllConnections();
      await api.close();
    }
  });

  test('nginx -t accepts the configuration', () => {
    const prefix = mkdtempSync(join(tmpdir(), 'sinilill-nginx-t-'));
    try {
      mkdirSync(join(prefix, '.data/nginx'), { recursive: true });
      const checked = spawnSync('nginx', ['-t', '-p', `${prefix}/`, '-c', NGINX_CONF], { encoding: 'utf8' });
      expect(checked.status, checked.stderr).toBe(0);
      expect(checked.stderr).toMatch(/test is successful/);
    } finally {
      rmSync(prefix, { recursive: true, force: true });
    }
  });

  test('every method and path goes to the same API through nginx as through the gateway', async () => {
    const paths = [
      '/api/stats', '/api/stats?x=1', '/api/entry', '/api/team/7', '/api/team/7/newcode', '/api/team/7/newcode?lang=et',
      '/api/admin/replay', '/api/admin/replay/status', '/api/admin/queues', '/api/admin/queues/ui/x.js', '/api/admin/userdata',
      '/api/strapi/story', '/api/payment/methods', '/api/payment/return?order=1', '/api/payment/sandbox/checkout', '/api/payment/info',
      ...EXCEPTIONS.map((route) => route.path.replace(':id', '3')),
    ];
    const which = async (base: string, method: string, path: string) =>
      (await fetch(`${base}${path}`, { method, ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}', headers: { 'content-type': 'application/json' } }) }))
        .headers.get('x-api');
    const differences: string[] = [];
    for (const path of paths) {
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE']) {
        const [viaGateway, viaNginx] = [await which(gatewayBase, method, path), await which(nginx.url, method, path)];
        if (viaGateway !== viaNginx) differences.push(`${method} ${path}: gateway → ${viaGateway}, nginx → ${viaNginx}`);
      }
    }
    expect(differences).toEqual([]);
    expect(await which(nginx.url, 'GET', '/api/stats')).toBe('query');
    expect(await which(nginx.url, 'POST', '/api/entry')).toBe('command');
    expect(await which(nginx.url, 'GET', '/api/team/7/newcode')).toBe('command');
    expect(await which(nginx.url, 'POST', '/api/strapi/story')).toBe('query');
  });

  test('X-Forwarded-* as the gateway sets them; what the client claims is not passed on', async () => {
    const claims = { 'x-forwarded-for': '6.6.6.6', forwarded: 'for=6.6.6.6', 'x-real-ip': '6.6.6.6', 'x-forwarded-host': 'evil.example' };
    for (const base of [gatewayBase, nginx.url]) {
      const { headers } = await (await fetch(`${base}/api/team/7`, { headers: claims })).json() as { headers: Record<string, string> };
      expect(headers).toMatchObject({ 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'http', 'x-forwarded-host': new URL(base).host });
      expect(headers.forwarded).toBeUndefined();
      expect(headers['x-real-ip']).toBeUndefined();
    }
  });

  test('public answers are kept for one second (docs/decisions/0044); read-your-writes and cookies pass by the cache, a member\'s token does not', async () => {
    const get = async (headers: Record<string, string> = {}, method = 'GET') => {
      const response = await fetch(`${nginx.url}/api/settings`, { method, headers, ...(method === 'POST' ? { body: '{}' } : {}) });
      const body = await response.json() as { served: number };
      return { cache: response.headers.get('x-cache-status'), served: body.served };
    };
    const first = await get();
    expect(first.cache).toBe('MISS');
    const again = await get();
    expect(again).toEqual({ cache: 'HIT', served: first.served });
    // The answer is everyone's: a logged-in member's page, which sends its token, is served from the cache too.
    // (HIT, or a stale copy while one request refreshes it when the second has passed meanwhile.)
    expect(['HIT', 'UPDATING', 'STALE']).toContain((await get({ authorization: 'Bearer x' })).cache);
    for (const headers of [{ 'x-min-position': '5' }, { cookie: 'a=b' }] as Record<string, string>[]) {
      const passed = await get(headers);
      expect(passed.cache, JSON.stringify(headers)).toBe('BYPASS');
      expect(passed.served).toBeGreaterThan(first.served);
    }
    // Another method is never answered from the cache.
    expect((await get({ 'content-type': 'application/json' }, 'POST')).cache).toBeNull();
    // A second later the answer is fetched again (served stale once while one request refreshes it).
    let fresh = await get();
    for (const deadline = Date.now() + 6000; !(fresh.cache === 'HIT' && fresh.served > first.served + 3) && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      fresh = await get();
    }
    expect(fresh.cache).toBe('HIT');
    expect(fresh.served).toBeGreaterThan(first.served + 3);
  });

  test('the editions and the statistics are kept for a second like the settings; a path below them is not', async () => {
    const cacheOf = async (path: string) => (await fetch(`${nginx.url}${path}`, { headers: { authorization: 'Bearer x' } })).headers.get('x-cache-status');
    for (const path of ['/api/editions', '/api/stats/teams']) {
      expect(await cacheOf(path), path).toBe('MISS');
      expect(['HIT', 'UPDATING', 'STALE'], path).toContain(await cacheOf(path));
    }
    expect(await cacheOf('/api/editions/2025')).toBeNull();
    expect(await cacheOf('/api/team/7')).toBeNull();
  });

  test('the live stream is not buffered: its first event arrives while the stream is open', async () => {
    const started = performance.now();
    const response = await fetch(`${nginx.url}/api/team/1/live`);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('event: change');
    expect(performance.now() - started).toBeLessThan(1000);
    await reader.cancel();
  });

  test('a body over the limit answers 413 REQUEST_TOO_LARGE; a team icon up to its own limit passes', async () => {
    const tooBig = await fetch(`${nginx.url}/api/entry`, { method: 'POST', body: 'x'.repeat(DEFAULT_BODY_LIMIT + 1024), headers: { 'content-type': 'application/json' } });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toEqual({ message: 'REQUEST_TOO_LARGE' });
    const icon = await fetch(`${nginx.url}/api/team/1/publicattributes`, {
      method: 'PUT', body: JSON.stringify({ icon: 'x'.repeat(3 * 1024 * 1024) }), headers: { 'content-type': 'application/json' },
    });
    expect(icon.status).toBe(200);
  });

  test('an API that is down answers 503 SERVICE_UNAVAILABLE with Retry-After, nothing internal', async () => {
    apis.command.server.closeAllConnections();
    await apis.command.close();
    const response = await fetch(`${nginx.url}/api/entry`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('2');
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ message: 'SERVICE_UNAVAILABLE' });
    expect(body).not.toMatch(/127\.0\.0\.1|nginx/i);
  });
});
