/**
 * The activity-file upload's body limit at the front doors: the development
 * gateway and production's nginx (infra/nginx/sinilill.conf, where nginx is installed) pass a file
 * up to ACTIVITY_FILE_BODY_LIMIT to the command API and answer a larger one 413 REQUEST_TOO_LARGE
 * themselves, as the command API answers 413 ACTIVITY_FILE_TOO_LARGE when reached directly; and
 * both take a body announced with `Expect: 100-continue` (what curl sends for a body over 1 MB):
 * 100 Continue first, then the upstream's answer.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ACTIVITY_FILE_BODY_LIMIT } from '@sinilill/contracts';
import { buildGateway } from '@sinilill/gateway';
import { createApp } from '@sinilill/http';
import { nginxAvailable, startNginx } from '../bench/stats-peers';

let upstream: FastifyInstance;
let gateway: FastifyInstance;
let commandUrl: string;
let gatewayUrl: string;

beforeAll(async () => {
  // Stands in for the command API's route: the same limit, the raw bytes counted.
  upstream = createApp();
  upstream.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: ACTIVITY_FILE_BODY_LIMIT }, (_request, body, done) => done(null, body));
  upstream.post('/api/team/:id/activity-files', { bodyLimit: ACTIVITY_FILE_BODY_LIMIT }, async (request) => ({ bytes: (request.body as Buffer).length }));
  upstream.get('/api/stats', async () => ({ ok: true }));
  await upstream.listen({ host: '127.0.0.1', port: 0 });
  commandUrl = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
  gateway = buildGateway({ queryApiUrl: commandUrl, commandApiUrl: commandUrl, webRoot: '/nonexistent/web/dist' });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

async function post(base: string, bytes: number): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}/api/team/1/activity-files`, {
    method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(bytes),
  }).catch(() => null);
  if (!response) return { status: 0, body: null };
  return { status: response.status, body: await response.json() };
}

/**
 * POSTs `bytes` zero bytes as curl does for a large body: `Expect: 100-continue`, the body sent
 * only once the server answered 100 Continue. Answers the status, the body, and whether 100 came.
 */
function postExpectingContinue(base: string, bytes: number): Promise<{ status: number; body: unknown; continued: boolean }> {
  return new Promise((resolve, reject) => {
    let continued = false;
    const request = httpRequest(`${base}/api/team/1/activity-files`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes), expect: '100-continue' },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), continued }));
    });
    request.on('continue', () => {
      continued = true;
      request.end(Buffer.alloc(bytes));
    });
    request.on('error', reject);
    request.flushHeaders();
  });
}

test('the gateway takes a body sent with Expect: 100-continue, as curl sends one over 1 MB', async () => {
  expect(await postExpectingContinue(gatewayUrl, 3 * 1024 * 1024)).toEqual({ status: 200, body: { bytes: 3 * 1024 * 1024 }, continued: true });
});

test('the gateway passes a file up to the limit and answers a larger one 413 REQUEST_TOO_LARGE', async () => {
  expect(await post(gatewayUrl, 5 * 1024 * 1024)).toEqual({ status: 200, body: { bytes: 5 * 1024 * 1024 } });
  expect(await post(gatewayUrl, ACTIVITY_FILE_BODY_LIMIT)).toEqual({ status: 200, body: { bytes: ACTIVITY_FILE_BODY_LIMIT } });
  expect(await post(gatewayUrl, ACTIVITY_FILE_BODY_LIMIT + 1)).toEqual({ status: 413, body: { message: 'REQUEST_TOO_LARGE' } });
});

// Skipped only where nginx is missing and `npm test` could not install it (no root, no sudo: tests/support/ensure-system.ts).
describe.skipIf(!nginxAvailable())('nginx with infra/nginx/sinilill.conf', () => {
  let nginx: { url: string; stop: () => Promise<void> };
  beforeAll(async () => {
    nginx = await startNginx({ query: commandUrl, command: commandUrl });
  });
  afterAll(async () => {
    await nginx?.stop();
  });

  test('passes a file up to the limit and answers a larger one 413 REQUEST_TOO_LARGE', async () => {
    expect(await post(nginx.url, 5 * 1024 * 1024)).toEqual({ status: 200, body: { bytes: 5 * 1024 * 1024 } });
    expect(await post(nginx.url, ACTIVITY_FILE_BODY_LIMIT + 1)).toEqual({ status: 413, body: { message: 'REQUEST_TOO_LARGE' } });
  });

  test('takes a body sent with Expect: 100-continue', async () => {
    expect(await postExpectingContinue(nginx.url, 3 * 1024 * 1024)).toEqual({ status: 200, body: { bytes: 3 * 1024 * 1024 }, continued: true });
  });
});
