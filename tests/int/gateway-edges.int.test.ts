/**
 * The gateway at its edges (issue 13): an upstream that is down or restarting answers 503
 * SERVICE_UNAVAILABLE with nothing internal in the body (it answered 500 with the upstream's
 * address); a body over the API's limit answers 413 REQUEST_TOO_LARGE at the gateway (it answered
 * 500, EPIPE, and held small requests meanwhile), while the requests beside it are served.
 * The upstream stand-in is built with the APIs' own createApp (same limit and error handler).
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_ATTRIBUTES_BODY_LIMIT } from '@sinilill/contracts';
import { buildGateway } from '@sinilill/gateway';
import { DEFAULT_BODY_LIMIT, createApp } from '@sinilill/http';
import { freePort } from '@sinilill/local-infra';

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
