/**
 * Hardening on the APIs as their builders wire them (buildCommandApi, buildQueryApi, on a
 * scratch database):
 *
 * - `trustProxy` (config TRUST_PROXY, passed by each server.ts): a gateway on another host is
 *   believed when its network is listed, and only then; the config's default `loopback` (a
 *   proxy-addr keyword) believes the local gateway. (That a direct client's X-Forwarded-For is
 *   ignored under the built-in default, and that the rate limits count `request.ip`, is
 *   tests/int/rate-limits.int.test.ts (g).) The gateway takes the same setting for a proxy in
 *   front of it (Caddy, an ingress) and forwards the client's address, not the proxy's; by
 *   default it believes nobody (rate-limits (a)).
 * - Both APIs send helmet's headers and `default-src 'none'` on their JSON answers, and shed load
 *   (under-pressure is registered; its behaviour is packages/http/src/pressure.test.ts).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildCommandApi } from '@sinilill/command-api';
import { buildGateway } from '@sinilill/gateway';
import { API_CSP } from '@sinilill/http';
import { buildQueryApi } from '@sinilill/query-api';
import { testApplication, type TestApplication } from '../support/app';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

let app: TestApplication;
const built: FastifyInstance[] = [];

beforeAll(async () => {
  app = await testApplication();
});
afterAll(async () => {
  for (const api of built) await api.close();
  await app?.close();
});

/** Both APIs with this trust list, each with a route answering the address it believes. */
async function apis(trustProxy?: string): Promise<{ command: FastifyInstance; query: FastifyInstance }> {
  const command = buildCommandApi({ commands: app.commands, jwtSecret: SECRET, ...(trustProxy !== undefined ? { trustProxy } : {}) });
  const query = buildQueryApi({
    db: app.db, now: () => new Date(), readYourWritesTimeoutMs: 100, jwtSecret: SECRET,
    changes: { subscribe: () => () => undefined }, ...(trustProxy !== undefined ? { trustProxy } : {}),
  });
  for (const api of [command, query]) {
    api.get('/api/test/ip', async (request) => ({ ip: request.ip }));
    await api.ready();
    built.push(api);
  }
  return { command, query };
}

async function seenAddress(api: FastifyInstance, from: string, forwardedFor: string): Promise<string> {
  const answer = await api.inject({ method: 'GET', url: '/api/test/ip', remoteAddress: from, headers: { 'x-forwarded-for': forwardedFor } });
  return (answer.json() as { ip: string }).ip;
}

describe('trustProxy: whose X-Forwarded-For the APIs believe', () => {
  test('a gateway in another network (containers) is believed once that network is listed, and loopback then is not', async () => {
    for (const api of Object.values(await apis('10.0.0.0/8'))) {
      expect(await seenAddress(api, '10.1.2.3', '203.0.113.9')).toBe('203.0.113.9');
      expect(await seenAddress(api, '127.0.0.1', '203.0.113.9')).toBe('127.0.0.1');
      expect(await seenAddress(api, '192.0.2.1', '203.0.113.9')).toBe('192.0.2.1');
    }
  });

  test("the configuration's default, `loopback`, believes a local gateway and nobody else", async () => {
    for (const api of Object.values(await apis('loopback'))) {
      expect(await seenAddress(api, '127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
      expect(await seenAddress(api, '::1', '203.0.113.9')).toBe('203.0.113.9');
      expect(await seenAddress(api, '10.1.2.3', '203.0.113.9')).toBe('10.1.2.3');
    }
  });
});

describe("trustProxy on the gateway: the client's address behind a proxy in front", () => {
  test('behind a trusted proxy the client\'s address goes upstream (one address; what was claimed before the proxy is dropped); untrusted, the peer\'s', async () => {
    const upstream = Fastify();
    upstream.get('/api/echo', async (request) => ({ forwardedFor: request.headers['x-forwarded-for'] }));
    await upstream.listen({ host: '127.0.0.1', port: 0 });
    built.push(upstream);
    const url = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
    const forwarded = async (gateway: FastifyInstance, from: string, chain: string) =>
      ((await gateway.inject({ method: 'GET', url: '/api/echo', remoteAddress: from, headers: { 'x-forwarded-for': chain } })).json() as { forwardedFor: string }).forwardedFor;

    const behindProxy = buildGateway({ queryApiUrl: url, commandApiUrl: url, webRoot: '/nonexistent/web/dist', trustProxy: 'loopback,uniquelocal' });
    built.push(behindProxy);
    // Caddy on the private network (10.0.0.5) saw the client 203.0.113.9, which claimed 198.51.100.1 before it.
    expect(await forwarded(behindProxy, '10.0.0.5', '198.51.100.1, 203.0.113.9')).toBe('203.0.113.9');
    // A client straight from the internet claims what it likes: its own address goes on.
    expect(await forwarded(behindProxy, '203.0.113.20', '198.51.100.1')).toBe('203.0.113.20');

    const edge = buildGateway({ queryApiUrl: url, commandApiUrl: url, webRoot: '/nonexistent/web/dist' });
    built.push(edge);
    expect(await forwarded(edge, '10.0.0.5', '203.0.113.9')).toBe('10.0.0.5');
  });
});

describe('security headers and load shedding on both APIs', () => {
  test("JSON answers carry helmet's headers and default-src 'none'; under-pressure is registered", async () => {
    for (const api of Object.values(await apis())) {
      const answer = await api.inject({ method: 'GET', url: '/api/test/ip' });
      expect(answer.headers['content-security-policy']).toBe(API_CSP);
      expect(answer.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'strict-transport-security': expect.stringContaining('max-age=') });
      expect(api.hasDecorator('isUnderPressure')).toBe(true);
      expect(api.isUnderPressure()).toBe(false);
    }
  });
});
