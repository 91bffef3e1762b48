/**
 * Security headers: the gateway's policy allows the built index.html's inline
 * script by its hash (and follows a rebuild), the APIs answer with `default-src 'none'` unless an
 * answer states its own policy, helmet's headers come with both, and nginx's front door sends the
 * same headers and the same policy as the gateway (with its nonce where the gateway has hashes).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { createApp } from './index';
import { API_CSP, OPERATOR_PAGE_CSP, apiSecurityHeaders, cspHeader, inlineScriptHashes, siteCspDirectives, siteSecurityHeaders } from './security-headers';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const PRELOAD = "(function(){var link=document.createElement('link');link.rel='modulepreload';document.head.appendChild(link)})()";
const page = (script: string) => `<!doctype html><html><head>
<script type="module" crossorigin src="/assets/index-abc.js"></script>
<script>${script}</script>
</head><body><div id="root"></div></body></html>`;

const webRoot = mkdtempSync(join(tmpdir(), 'sinilill-web-'));
afterAll(() => rmSync(webRoot, { recursive: true, force: true }));

async function gatewayLike(root: string): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(siteSecurityHeaders, { webRoot: root });
  app.get('/', async (_request, reply) => reply.type('text/html').send('<!doctype html>'));
  await app.ready();
  return app;
}

describe('inlineScriptHashes', () => {
  test('hashes the inline scripts only, as CSP sources', () => {
    expect(inlineScriptHashes(page(PRELOAD))).toEqual([sha256(PRELOAD)]);
    expect(inlineScriptHashes('<script src="/a.js"></script><SCRIPT defer>x()</SCRIPT><script> </script>')).toEqual([sha256('x()')]);
  });
});

describe('siteSecurityHeaders (the gateway)', () => {
  test("the web client's policy with its index.html's inline script by hash, helmet's headers, and a rebuilt client's new hash", async () => {
    writeFileSync(join(webRoot, 'index.html'), page(PRELOAD));
    const app = await gatewayLike(webRoot);
    const first = await app.inject({ method: 'GET', url: '/' });
    expect(first.headers['content-security-policy']).toBe(cspHeader(siteCspDirectives([sha256(PRELOAD)])));
    expect(first.headers['content-security-policy']).toContain("script-src 'self' 'sha256-");
    expect(first.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' });

    const rebuilt = PRELOAD.replace('modulepreload', 'preload');
    writeFileSync(join(webRoot, 'index.html'), page(rebuilt));
    utimesSync(join(webRoot, 'index.html'), new Date(), new Date(Date.now() + 5000));
    // Looked at again after a second at most.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await app.inject({ method: 'GET', url: '/' });
    expect(second.headers['content-security-policy']).toBe(cspHeader(siteCspDirectives([sha256(rebuilt)])));
    await app.close();
  });

  test('without a built client: the policy allows no inline script', async () => {
    const app = await gatewayLike(join(webRoot, 'missing'));
    expect((await app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']).toBe(cspHeader(siteCspDirectives()));
    await app.close();
  });
});

describe('apiSecurityHeaders (the APIs)', () => {
  test("JSON answers get default-src 'none'; an HTML page without a policy the operators' page policy; a stated policy is kept", async () => {
    const app = createApp();
    await app.register(apiSecurityHeaders);
    app.get('/api/json', async () => ({ ok: true }));
    app.get('/api/board', async (_request, reply) => reply.type('text/html; charset=utf-8').send('<!doctype html>'));
    app.get('/api/own', async (_request, reply) => reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'").type('text/html').send('<p>'));
    await app.ready();
    const json = await app.inject({ method: 'GET', url: '/api/json' });
    expect(json.headers['content-security-policy']).toBe(API_CSP);
    expect(json.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'cross-origin-resource-policy': 'same-origin' });
    expect((await app.inject({ method: 'GET', url: '/api/board' })).headers['content-security-policy']).toBe(OPERATOR_PAGE_CSP);
    expect((await app.inject({ method: 'GET', url: '/api/own' })).headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    // Refusals too (the not-found answer).
    expect((await app.inject({ method: 'GET', url: '/api/nothing' })).headers['content-security-policy']).toBe(API_CSP);
    await app.close();
  });
});

describe("nginx's front door (infra/nginx/sinilill.conf)", () => {
  /** The `add_header` lines of the `location <path> {` block: lower-cased name → value. */
  function nginxHeaders(location: string): Record<string, string> {
    const conf = readFileSync(new URL('../../../infra/nginx/sinilill.conf', import.meta.url), 'utf8');
    const block = new RegExp(`\\n\\s*location ${location.replace(/[/]/g, '\\/')} \\{([\\s\\S]*?)\\n\\s*\\}`).exec(conf)?.[1] ?? '';
    return Object.fromEntries([...block.matchAll(/add_header\s+(\S+)\s+"([^"]*)"/g)].map((m) => [m[1]!.toLowerCase(), m[2]!]));
  }

  test("sends the gateway's headers for the client's pages, and the same policy with a nonce for the inline script", async () => {
    const app = await gatewayLike(join(webRoot, 'missing'));
    const gateway = (await app.inject({ method: 'GET', url: '/' })).headers;
    await app.close();
    const own = ['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'content-security-policy'];
    const expected = Object.fromEntries(Object.entries(gateway).filter(([name]) => !own.includes(name)).map(([name, value]) => [name, String(value)]));
    const pages = nginxHeaders('/');
    expect(pages['content-security-policy']).toBe(cspHeader(siteCspDirectives(["'nonce-$request_id'"])));
    const { 'content-security-policy': _policy, 'cache-control': _pagesCache, ...pageHeaders } = pages;
    expect(pageHeaders).toEqual(expected);
    const { 'cache-control': _assetsCache, ...assetHeaders } = nginxHeaders('/assets/');
    expect(assetHeaders).toEqual(expected);
  });
});
