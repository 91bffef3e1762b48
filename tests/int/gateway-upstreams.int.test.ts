/**
 * The gateway over lists of upstreams (many processes of each kind), against
 * stand-in APIs that say which of them answered (built with the APIs' own createApp):
 *
 * - reads and commands are balanced round-robin over each kind's list;
 * - an upstream that refuses connections is passed over: a read, and a command with a usable
 *   Idempotency-Key, are sent to the next one (the client sees no failure); a command without a
 *   key is never sent twice (503), and the next one goes elsewhere;
 * - an upstream killed while it holds a keyed command (the connection lost before any answer):
 *   the command is sent to the next one with its body intact;
 * - a keyed body is kept whole (a 12 MB icon passes, resent after a refused connection); one over
 *   the API's limit is refused 413 before anything is forwarded.
 */
import type { AddressInfo } from 'node:net';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildGateway } from '@sinilill/gateway';
import { PUBLIC_ATTRIBUTES_BODY_LIMIT } from '@sinilill/contracts';
import { DEFAULT_BODY_LIMIT, createApp } from '@sinilill/http';
import { freePort } from '@sinilill/local-infra';

interface StandIn {
  name: string;
  url: string;
  app: FastifyInstance;
  /** Bodies it received on POST /api/entry, in order. */
  received: unknown[];
}

const standIns: StandIn[] = [];
const gateways: FastifyInstance[] = [];

/** A stand-in API named `name`: GET /api/stats and POST /api/entry answer `{ from: name }`. */
async function standIn(name: string, options: { dropEntries?: boolean } = {}): Promise<StandIn> {
  const app = createApp();
  const received: unknown[] = [];
  app.get('/api/stats', async () => ({ from: name }));
  app.post('/api/entry', async (req, reply) => {
    // A process killed while it holds the request: the connection goes, no answer comes.
    if (options.dropEntries) {
      req.raw.socket.destroy();
      return reply.hijack();
    }
    received.push(req.body);
    return { from: name, body: req.body };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const made = { name, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, app, received };
  standIns.push(made);
  return made;
}

/** A gateway over the given lists, listening; its base URL. */
async function gatewayOver(commandApiUrls: string[], queryApiUrls: string[]): Promise<string> {
  const gateway = buildGateway({ commandApiUrls, queryApiUrls, webRoot: '/nonexistent/web/dist' });
  gateways.push(gateway);
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
}

const down = async () => `http://127.0.0.1:${await freePort()}`;

const postEntry = (base: string, body: unknown, key?: string) => fetch(`${base}/api/entry`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
  body: JSON.stringify(body),
});

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.close()));
  await Promise.all(standIns.map((s) => s.app.close()));
});

describe('balanced over the lists', () => {
  let base: string;
  beforeAll(async () => {
    const [c1, c2, q1, q2] = await Promise.all([standIn('c1'), standIn('c2'), standIn('q1'), standIn('q2')]);
    base = await gatewayOver([c1.url, c2.url], [q1.url, q2.url]);
  });

  test('reads alternate over the query APIs, commands over the command APIs', async () => {
    const reads = [];
    for (let i = 0; i < 4; i++) reads.push(((await (await fetch(`${base}/api/stats`)).json()) as { from: string }).from);
    expect(reads.sort()).toEqual(['q1', 'q1', 'q2', 'q2']);
    const commands = [];
    for (let i = 0; i < 4; i++) commands.push(((await (await postEntry(base, { distance: i })).json()) as { from: string }).from);
    expect(commands.sort()).toEqual(['c1', 'c1', 'c2', 'c2']);
  });
});

describe('an upstream that refuses connections', () => {
  let base: string;
  let live: StandIn;
  beforeAll(async () => {
    live = await standIn('live');
    const query = await standIn('query');
    base = await gatewayOver([await down(), live.url], [await down(), query.url]);
  });

  test('reads and keyed commands go to the next one; the client sees no failure', async () => {
    for (let i = 0; i < 6; i++) {
      expect((await fetch(`${base}/api/stats`)).status).toBe(200);
      const response = await postEntry(base, { distance: 1.5, n: i }, `client-1:entry-${i}-0000`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ from: 'live', body: { distance: 1.5, n: i } });
    }
  });

  test('a command without a key is never sent twice: 503 at most once, then the live one takes them', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await postEntry(base, { distance: 2, n: i })).status);
    // The dead one was marked down by the test before (or by the first refusal here).
    expect(statuses.filter((status) => status === 503).length).toBeLessThanOrEqual(1);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(5);
  });

  test('with a fresh gateway, an unkeyed command whose upstream is down answers 503 SERVICE_UNAVAILABLE', async () => {
    const fresh = await gatewayOver([await down(), live.url], [live.url]);
    const statuses = [];
    for (let i = 0; i < 2; i++) {
      const response = await postEntry(fresh, { distance: 3, n: i });
      statuses.push(response.status);
      if (response.status === 503) expect(await response.json()).toEqual({ message: 'SERVICE_UNAVAILABLE' });
    }
    // Round-robin starts at the dead one: the first is refused (not resent), the next goes to the live one.
    expect(statuses).toEqual([503, 200]);
  });
});

describe('an upstream lost while it holds a keyed command', () => {
  test('the command goes to the next one with its body intact; an unkeyed one is not resent', async () => {
    const dropping = await standIn('dropping', { dropEntries: true });
    const live = await standIn('survivor');
    const base = await gatewayOver([dropping.url, live.url], [live.url]);
    const body = { distance: 4.25, text: 'ä'.repeat(5000) };
    const outcomes: { status: number; from?: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await postEntry(base, body, `client-2:lost-${i}-0000`);
      const answer = (await response.json()) as { from?: string; body?: unknown };
      outcomes.push({ status: response.status, ...(answer.from ? { from: answer.from } : {}) });
      if (answer.body) expect(answer.body).toEqual(body);
    }
    expect(outcomes.every((o) => o.status === 200 && o.from === 'survivor')).toBe(true);
    const unkeyed = [];
    for (let i = 0; i < 2; i++) unkeyed.push((await postEntry(base, body)).status);
    expect(unkeyed.sort()).toEqual([200, 503]);
  });
});

test('a keyed 12 MB body (a team icon) is kept and forwarded whole', async () => {
  const app = createApp();
  app.put('/api/team/:id/publicattributes', { bodyLimit: PUBLIC_ATTRIBUTES_BODY_LIMIT }, async (req) => ({ bytes: JSON.stringify(req.body).length }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  standIns.push({ name: 'icons', url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, app, received: [] });
  const base = await gatewayOver([await down(), standIns.at(-1)!.url], [standIns.at(-1)!.url]);
  for (const key of ['client-4:icon-0000', 'client-4:icon-0001']) {
    const payload = JSON.stringify({ icon: `data:image/png;base64,${'A'.repeat(12 * 1024 * 1024)}` });
    const response = await fetch(`${base}/api/team/7/publicattributes`, { method: 'PUT', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: payload });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ bytes: Buffer.byteLength(payload) });
  }
});

test('a keyed body over the limit is refused 413 REQUEST_TOO_LARGE at the gateway, even without a Content-Length', async () => {
  const live = await standIn('limit');
  const base = await gatewayOver([live.url], [live.url]);
  const payload = JSON.stringify({ text: 'x'.repeat(DEFAULT_BODY_LIMIT + 1024) });
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    // Chunked: no Content-Length for the gateway's onRequest check to judge.
    const req = request(`${base}/api/entry`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'client-3:big-0000', 'transfer-encoding': 'chunked' } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => { text += chunk.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    for (let i = 0; i < payload.length; i += 64 * 1024) req.write(payload.slice(i, i + 64 * 1024));
    req.end();
  });
  expect(answer.status).toBe(413);
  expect(JSON.parse(answer.body)).toEqual({ message: 'REQUEST_TOO_LARGE' });
  expect(live.received).toHaveLength(0);
});
