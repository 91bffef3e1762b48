/**
 * The APIs' documentation, on the whole application running in this process
 * (tests/support/running-app.ts: both APIs with every optional part — accounts, payments with the
 * sandbox, the replay queue and queue board, the history, media — and the gateway in front).
 *
 * - Every /api route either API registered (collected by an onRoute hook as it was registered;
 *   the auto-added HEAD twins of GET routes, the documentation's own routes under /api/docs and
 *   the routes a plugin hides — Bull Board's — excepted) is an operation of its API's OpenAPI
 *   document, fetched through the gateway, and the documents list nothing else; /health and
 *   /metrics are not in them.
 * - Both documents pass `redocly lint` with the recommended ruleset (no errors), run as an API
 *   client would run it, offline. Every operation has its entry in API_OPERATIONS (a summary, a
 *   description, tags), an operationId unique across both documents, and the examples the map
 *   gives are valid by the route's own schema.
 * - A route behind a login carries the bearer scheme (whether its plugin adds the guard or the
 *   route itself does), a public one declares none (`security: []`), an administrators' route the
 *   `admin` tag and its 403.
 * - The error statuses list catalogue codes: what the route declares, with every code of that
 *   status, and what every route may answer (400, 500, 503).
 * - GET /api/docs answers the UI's page (with its own content security policy) offering both
 *   documents, and the page's static assets load.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { repoRoot } from '@sinilill/config';
import { API_CSP, API_OPERATIONS, DOCS_PAGE_CSP, operationIdOf, operationKey } from '@sinilill/http';
import { ERROR_CODES } from '@sinilill/domain';
import { startRunningApp, type CollectedRoute, type RunningApp } from '../support/running-app';

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  requestBody?: { content: Record<string, { schema: object; example?: unknown }> };
  security?: Record<string, string[]>[];
  description?: string;
  'x-required-role'?: string;
  responses: Record<string, { description: string; content?: Record<string, { example?: unknown; schema: { properties?: { message?: { enum?: string[] } } } }> }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
}

let running: RunningApp;
let site: string;
const documents: Partial<Record<CollectedRoute['api'], OpenApiDocument>> = {};

beforeAll(async () => {
  running = await startRunningApp({ now: () => new Date('2025-04-15T09:00:00Z'), readYourWritesTimeoutMs: 1000, sweepIntervalMs: 60_000 });
  site = `http://127.0.0.1:${running.ports.gateway}`;
  for (const api of ['command', 'query'] as const) {
    const answer = await fetch(`${site}/api/docs/${api}.json`);
    expect(answer.status, api).toBe(200);
    documents[api] = await answer.json() as OpenApiDocument;
  }
});
afterAll(async () => {
  await running?.close();
});

/** A Fastify route pattern as an OpenAPI path: `:id` → `{id}`, `*` → `{*}` (as @fastify/swagger writes them). */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*/g, '{*}');
}

/** The documented /api routes: every method of every path that is not the documentation's own. */
function documentedRoutes(api: CollectedRoute['api']): string[] {
  return Object.entries(documents[api]!.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
}

function operation(api: CollectedRoute['api'], method: string, path: string): Operation {
  const found = documents[api]!.paths[path]?.[method.toLowerCase()];
  if (!found) throw new Error(`${method} ${path} is not in the ${api} API's document`);
  return found;
}

function codesOf(op: Operation, status: number): string[] {
  return op.responses[String(status)]?.content?.['application/json']?.schema.properties?.message?.enum ?? [];
}

describe('OpenAPI documents generated from the route schemas', () => {
  test('every /api route of both APIs is in its API\'s document (method and path), and nothing else is', () => {
    for (const api of ['command', 'query'] as const) {
      const hidden = (route: CollectedRoute) => (route.schema as { hide?: boolean } | undefined)?.hide === true;
      const registered = new Set(running.routes
        .filter((route) => route.api === api && route.url.startsWith('/api/') && !route.url.startsWith('/api/docs') && !hidden(route))
        .map((route) => `${route.method} ${openApiPath(route.url)}`));
      const documented = new Set(documentedRoutes(api));
      // Sanity: the collection saw the routes of plugin-guarded, route-guarded and public files.
      expect(registered.size, api).toBeGreaterThan(40);
      // Every route, but the HEAD twins Fastify adds to GET routes (documented by their GET).
      expect([...registered].filter((route) => !route.startsWith('HEAD ') && !documented.has(route)), api).toEqual([]);
      expect([...documented].filter((route) => !registered.has(route)), api).toEqual([]);
    }
    for (const api of ['command', 'query'] as const) {
      expect(documents[api]!.openapi).toBe('3.1.0');
      expect(Object.keys(documents[api]!.paths).filter((path) => !path.startsWith('/api/'))).toEqual([]);
    }
  });

  test('routes behind a login carry the bearer scheme; public routes none; administrators\' routes are marked', () => {
    const bearer = [{ bearerAuth: [] }];
    for (const api of ['command', 'query'] as const) {
      expect(documents[api]!.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    }
    // The entry and team commands are guarded by their plugin (app.addHook), the payment reads by the route.
    expect(operation('command', 'POST', '/api/entry').security).toEqual(bearer);
    expect(operation('command', 'PUT', '/api/team/{id}/publicattributes').security).toEqual(bearer);
    expect(operation('command', 'PUT', '/api/account/changepassword').security).toEqual(bearer);
    expect(operation('query', 'GET', '/api/payment/info').security).toEqual(bearer);
    expect(operation('query', 'GET', '/api/team/{id}').security).toEqual(bearer);
    expect(operation('query', 'GET', '/api/team/{id}').responses['401']).toBeDefined();
    // Public: declared as needing nothing.
    expect(operation('query', 'GET', '/api/stats').security).toEqual([]);
    expect(operation('command', 'POST', '/api/login').security).toEqual([]);
    expect(operation('command', 'POST', '/api/registerteam').security).toEqual([]);
    // The session routes take the refresh cookie (logout also without it).
    expect(operation('command', 'POST', '/api/session/refresh').security).toEqual([{ refreshCookie: [] }, { bearerAuth: [] }]);
    expect(operation('command', 'POST', '/api/session/logout').security).toEqual([{ refreshCookie: [] }, {}]);
    // Administrators only: the admin plugin's hooks (command API) and the routes' own (query API).
    for (const [api, method, path] of [['command', 'PUT', '/api/admin/user/{id}'], ['query', 'GET', '/api/admin/userdata'], ['command', 'POST', '/api/admin/replay']] as const) {
      const op = operation(api, method, path);
      expect(op.security, path).toEqual(bearer);
      expect(op['x-required-role'], path).toBe('ADMIN');
      expect(op.tags, path).toContain(path.startsWith('/api/admin/replay') ? 'operations' : 'admin');
      expect(codesOf(op, 403), path).toContain('FORBIDDEN');
      expect(op.description, path).toMatch(/Administrators only/);
    }
    expect(operation('query', 'GET', '/api/team/{id}')['x-required-role']).toBeUndefined();
    // The queue board's session is an operators' tool; Bull Board's own page, assets and API stay out.
    expect(operation('command', 'POST', '/api/admin/queues/session').tags).toEqual(['operations']);
    expect(running.routes.filter((route) => route.url.startsWith('/api/admin/queues/static')).length).toBeGreaterThan(0);
    expect(Object.keys(documents.command!.paths).filter((path) => path.startsWith('/api/admin/queues/') && path !== '/api/admin/queues/session')).toEqual([]);
    expect(documents.command!.paths['/api/admin/queues']).toBeUndefined();
  });

  test('error statuses list the catalogue codes they carry, as `{ message: CODE }`', () => {
    const entry = operation('command', 'POST', '/api/entry');
    // Declared by the route: every code of the status.
    expect(codesOf(entry, 400)).toEqual(expect.arrayContaining(['INVALID_REQUEST', 'INVALID_PERFORMED_AT', 'INVALID_DISTANCE', 'ENTRY_DEADLINE_PASSED']));
    expect(codesOf(entry, 409)).toEqual(expect.arrayContaining(['CONCURRENCY_CONFLICT', 'FIELD_MISMATCH']));
    expect(codesOf(entry, 422)).toEqual(['IDEMPOTENCY_KEY_REUSED']);
    expect(entry.responses['409']!.description).toMatch(/CONCURRENCY_CONFLICT/);
    // Every route of its kind: a body over the limit, the unexpected, the unavailable.
    expect(codesOf(entry, 413)).toEqual(['REQUEST_TOO_LARGE']);
    const login = operation('command', 'POST', '/api/login');
    expect(codesOf(login, 401)).toEqual(expect.arrayContaining(['INVALID_CREDENTIALS']));
    expect(codesOf(login, 429)).toEqual(['TOO_MANY_REQUESTS']);
    const stats = operation('query', 'GET', '/api/stats');
    expect(codesOf(stats, 400)).toEqual(['INVALID_REQUEST', 'INVALID_CHARACTERS']);
    expect(stats.responses['200']).toBeDefined();
    expect(stats.responses['401']).toBeUndefined();
    for (const api of ['command', 'query'] as const) {
      for (const [path, methods] of Object.entries(documents[api]!.paths)) {
        for (const [method, op] of Object.entries(methods)) {
          expect(codesOf(op, 500), `${method} ${path}`).toEqual(['GENERIC_ERROR']);
          expect(codesOf(op, 503), `${method} ${path}`).toEqual(['SERVICE_UNAVAILABLE']);
          for (const [status] of Object.entries(op.responses).filter(([status]) => Number(status) >= 400)) {
            const codes = codesOf(op, Number(status));
            expect(codes.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
            expect(codes.filter((code) => !(ERROR_CODES as readonly string[]).includes(code)), `${method} ${path} ${status}`).toEqual([]);
          }
        }
      }
    }
  });

  test('GET /api/docs answers the UI offering both documents, its assets load, each API answers with its policy', async () => {
    const page = await fetch(`${site}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toBe(DOCS_PAGE_CSP);
    const html = await page.text();
    expect(html).toContain('swagger-ui-bundle.js');
    const bundle = await fetch(`${site}/api/docs/static/swagger-ui-bundle.js`);
    expect([bundle.status, bundle.headers.get('content-type')]).toEqual([200, expect.stringMatching(/javascript/)]);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const initializer = await (await fetch(`${site}/api/docs/static/swagger-initializer.js`)).text();
    expect(initializer).toContain('/api/docs/query.json');
    expect(initializer).toContain('/api/docs/command.json');
    // The documents themselves are JSON answers with the APIs' policy.
    const document = await fetch(`${site}/api/docs/command.json`);
    expect(document.headers.get('content-security-policy')).toBe(API_CSP);
    expect((await document.json() as OpenApiDocument).info.title).toBe('Sinilill command API');
  });
});

/** Each operation of both documents: [api, METHOD, path, operation]. */
function everyOperation(): [CollectedRoute['api'], string, string, Operation][] {
  return (['command', 'query'] as const).flatMap((api) => Object.entries(documents[api]!.paths)
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => [api, method.toUpperCase(), path, op] as [CollectedRoute['api'], string, string, Operation])));
}

describe('OpenAPI documents a generator and a person can use', () => {
  test('every operation has its texts in API_OPERATIONS and an operationId unique across both documents', () => {
    const missing = everyOperation().filter(([, method, path]) => API_OPERATIONS[operationKey(method, path)] === undefined).map(([api, method, path]) => `${api}: ${method} ${path}`);
    expect(missing, 'routes without an entry in packages/http/src/api-operations.ts').toEqual([]);
    const ids = everyOperation().map(([, , , op]) => op.operationId);
    expect(ids.filter((id) => id === undefined || !/^[a-z][A-Za-z0-9]*$/.test(id))).toEqual([]);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    for (const [api, method, path, op] of everyOperation()) {
      const text = API_OPERATIONS[operationKey(method, path)]!;
      expect(op.operationId, `${api} ${method} ${path}`).toBe(text.operationId ?? operationIdOf(method, path));
      expect(op.summary, `${api} ${method} ${path}`).toBe(text.summary);
      expect(op.description, `${api} ${method} ${path}`).toContain(text.description);
      expect(op.tags, `${api} ${method} ${path}`).toEqual(expect.arrayContaining([...text.tags]));
    }
    // The derivation: method, static segments, a trailing parameter as By<Name>.
    expect(operation('query', 'GET', '/api/team/{id}/entries').operationId).toBe('getTeamEntries');
    expect(operation('query', 'GET', '/api/team/{id}').operationId).toBe('getTeamById');
    expect(operation('query', 'GET', '/api/admin/users.csv').operationId).toBe('getAdminUsersCsv');
  });

  test('the examples of the spec\'s §3 entities are valid by their operation\'s schemas', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    let checked = 0;
    for (const [api, method, path, op] of everyOperation()) {
      const examples = [
        ...Object.values(op.requestBody?.content ?? {}).map((media) => ['request', media.schema, media.example] as const),
        ...Object.entries(op.responses).flatMap(([status, answer]) => Object.values(answer.content ?? {}).map((media) => [status, media.schema, media.example] as const)),
      ].filter(([, , example]) => example !== undefined);
      for (const [where, schema, example] of examples) {
        const valid = ajv.validate(schema, example);
        expect(valid ? [] : ajv.errors, `${api} ${method} ${path} ${where}`).toEqual([]);
        checked += 1;
      }
    }
    // Team, Participant, Entry, User, Team stat entry, Payment info, join code, admin rows (query); the payloads, login, Entry, methods (command).
    expect(checked).toBeGreaterThanOrEqual(17);
  });

  test('both documents pass `redocly lint` with the recommended ruleset, offline', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sinilill-openapi-'));
    try {
      for (const api of ['command', 'query'] as const) {
        const file = join(folder, `${api}.json`);
        writeFileSync(file, JSON.stringify(documents[api]));
        // The CLI's telemetry and update check are off: the lint reads the file and nothing else.
        const { stdout } = await promisify(execFile)(process.execPath, [
          join(repoRoot, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', '--extends=recommended', '--format=json', '--max-problems=1000', file,
        ], { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' }, maxBuffer: 64 * 1024 * 1024 })
          .catch((failure: { stdout?: string }) => ({ stdout: failure.stdout ?? '' }));
        const report = JSON.parse(stdout) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
        const errors = report.problems.filter((problem) => problem.severity === 'error')
          .map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? '?'}`);
        expect(errors, api).toEqual([]);
        expect(report.totals.errors, api).toBe(0);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
