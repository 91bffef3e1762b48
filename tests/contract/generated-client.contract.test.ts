/**
 * A client generated from the served API documents, as an API client's author would make one:
 * openapi-typescript generates the types from `/api/docs/command.json` and `/api/docs/query.json`
 * at test time (its Node API; nothing is type-checked at run time), and openapi-fetch calls every
 * public route (no login) and every member route (a member registered, confirmed and logged in
 * through the same client) of a stack as `npm start` runs it (startStack, the 2025 edition open on
 * 20 April 2025). Each answer is checked against what the document describes for its status: the
 * status must be listed, the content type must be one the document names, and a JSON body must
 * be valid by the described schema (ajv, JSON Schema 2020-12, as OpenAPI 3.1 has it). So a route
 * that answers other than it describes fails here, whether its answer is a success or a refusal.
 *
 * The administrators' routes are called too, with the stack's administrator (ADMIN_EMAIL), most
 * of the commands so that they refuse (an unknown id, a body the rules refuse) and change nothing
 * the other calls need. The calls are the documents' own list: the last test fails on an
 * operation no call reached, so a new route needs its call here.
 *
 * Kept apart from the web client's shapes, like the spec contract suite: nothing here imports
 * @sinilill/contracts or web code.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { eventually, startStack, type RunningStack } from '../support/stack';
import { decodeToken, linkFromMail, paymentRequest } from './spec-client';

const PASSWORD = 'Genereeritud klient 2025 kevadel';
const CAPTAIN = 'generaator.kapten@example.test';
const MEMBER = 'generaator.liige@example.test';
const ADMIN = { email: 'generaator.haldur@sinilill.test', password: 'Generaatori haldur 2025 kevadel!' };

type Api = 'command' | 'query';
interface MediaObject { schema?: object }
interface ResponseObject { description: string; content?: Record<string, MediaObject> }
interface OperationObject {
  operationId: string;
  summary: string;
  security?: Record<string, string[]>[];
  'x-required-role'?: string;
  requestBody?: { content: Record<string, MediaObject> };
  responses: Record<string, ResponseObject>;
}
interface OpenApiDocument { paths: Record<string, Record<string, OperationObject>> }

/** What openapi-fetch answers (data on 2xx, error otherwise, the raw Response always). */
interface Answer { data?: unknown; error?: unknown; response: Response }
/** openapi-fetch's `request`, untyped: the types are generated at test time, after this file was compiled. */
type Request = (method: string, url: string, init?: Record<string, unknown>) => Promise<Answer>;

let stack: RunningStack;
const documents: Partial<Record<Api, OpenApiDocument>> = {};
const generated: Partial<Record<Api, string>> = {};
let request: Request;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

/** `METHOD /api/path` of every call made, to compare with the documents' list at the end. */
const called = new Set<string>();

beforeAll(async () => {
  stack = await startStack({ CLOCK_START: '2025-04-20T12:00:00+03:00', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  for (const api of ['command', 'query'] as const) {
    const answer = await fetch(`${stack.baseUrl}/api/docs/${api}.json`);
    expect(answer.status).toBe(200);
    documents[api] = await answer.json() as OpenApiDocument;
  }
  // The served documents name a relative server ('/'): the client is given the site's origin.
  request = createClient({ baseUrl: stack.baseUrl }).request as unknown as Request;
});
afterAll(async () => {
  await stack?.stop();
});

/** Which document holds `METHOD path`, and its operation. */
function find(method: string, path: string): [Api, OperationObject] {
  for (const api of ['command', 'query'] as const) {
    const operation = documents[api]!.paths[path]?.[method.toLowerCase()];
    if (operation) return [api, operation];
  }
  throw new Error(`${method} ${path} is in neither document`);
}

/** The media type of an answer, without parameters. */
function mediaOf(response: Response): string | null {
  return response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? null;
}

/** Whether answers in `media` are JSON (application/json, …+json; not NDJSON). */
function isJson(media: string): boolean {
  return media === 'application/json' || media.endsWith('+json');
}

/** How openapi-fetch should read the answer of an operation: by the media types its success answers describe. */
function parseAsOf(operation: OperationObject): 'json' | 'text' | 'arrayBuffer' | 'stream' {
  const media = Object.entries(operation.responses).filter(([status]) => /^2/.test(status)).flatMap(([, answer]) => Object.keys(answer.content ?? {}));
  if (media.includes('text/event-stream')) return 'stream';
  if (media.length === 0 || media.some(isJson)) return 'json';
  return media.every((type) => type.startsWith('text/')) ? 'text' : 'arrayBuffer';
}

interface Call {
  /** The access token of POST /api/login, sent as `Authorization: Bearer <token>`. */
  token?: string;
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
  headers?: Record<string, string>;
  /** For a body that is not JSON (an activity file's bytes). */
  raw?: boolean;
}

/**
 * Calls `METHOD path` through the generated client and checks the answer against the document:
 * a described status, a described content type, a JSON body valid by its schema.
 * @returns the answer's status and its body (parsed JSON, text, bytes or null).
 */
async function call(method: string, path: string, options: Call = {}): Promise<{ status: number; body: unknown; response: Response }> {
  const [api, operation] = find(method, path);
  called.add(`${method} ${path}`);
  const parseAs = parseAsOf(operation);
  const answer = await request(method, path, {
    ...(options.params ? { params: options.params } : {}),
    ...(options.body !== undefined ? { body: options.body } : {}),
    ...(options.raw ? { bodySerializer: (body: unknown) => body } : {}),
    headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
    parseAs,
    // A redirect is an answer of its own (303 to a page), as the document describes it.
    redirect: 'manual',
  });
  const { response } = answer;
  let body = response.ok ? answer.data : answer.error;
  if (parseAs === 'stream' && body instanceof ReadableStream) {
    await body.cancel();
    body = null;
  }
  const where = `${api}: ${method} ${path} answered ${response.status} ${mediaOf(response) ?? '(no body)'}`;
  const described = operation.responses[String(response.status)] ?? operation.responses.default;
  expect(described, `${where}, a status its document does not describe: ${JSON.stringify(body)?.slice(0, 300)}`).toBeDefined();
  const media = mediaOf(response);
  const content = described!.content ?? {};
  if (Object.keys(content).length === 0) {
    expect([body ?? '', '', null, undefined], `${where}: the document describes no body`).toContain(body ?? '');
  } else if (media !== null && response.status !== 304) {
    expect(Object.keys(content), `${where}: a content type its document does not describe`).toContain(media);
    const schema = content[media]?.schema;
    if (isJson(media) && schema) {
      const valid = ajv.validate(schema, body);
      expect(valid ? [] : ajv.errors, `${where}: the body is not as described: ${JSON.stringify(body)?.slice(0, 300)}`).toEqual([]);
    }
  }
  return { status: response.status, body, response };
}

/** `answer` has `status` (or, with 'refused', any status from 400 on), else the failure shows its body. */
function expectStatus(answer: { status: number; body: unknown }, status: number | 'refused'): void {
  const seen = `${answer.status} ${JSON.stringify(answer.body)?.slice(0, 300)}`;
  if (status === 'refused') expect(answer.status, seen).toBeGreaterThanOrEqual(400);
  else expect(answer.status, seen).toBe(status);
}

/** A one-lap GPX walk of about 1.1 km on `day`, 10:00–10:20 UTC. */
function gpx(day: string): string {
  const points = Array.from({ length: 11 }, (_, i) => `<trkpt lat="${(59.437 + i * 0.001).toFixed(4)}" lon="24.7536"><time>${day}T10:${String(i * 2).padStart(2, '0')}:00Z</time></trkpt>`);
  return `<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><type>walking</type><trkseg>${points.join('')}</trkseg></trk></gpx>`;
}

/** What the calls build on, in the order they run. */
const s = {
  captainToken: '', memberToken: '', adminToken: '', memberUserId: '', teamId: 0, participantId: 0, userId: '', joinCode: '',
  entryId: 0, reference: '', orderId: '', bankCode: '', icon: '', certificateCode: 'ABCD-EFGH-JKLM',
};

describe('a client generated by openapi-typescript from the served documents', () => {
  test('openapi-typescript generates both documents\' types, with every operation by its operationId', async () => {
    for (const api of ['command', 'query'] as const) {
      const source = astToString(await openapiTS(documents[api] as unknown as Parameters<typeof openapiTS>[0]));
      generated[api] = source;
      expect(source).toContain('export interface paths');
      for (const methods of Object.values(documents[api]!.paths)) {
        for (const operation of Object.values(methods)) expect(source, api).toContain(`    ${operation.operationId}: {`);
      }
      // Every route the stack serves has its texts (api-operations.ts): none is summarised by its bare method and path.
      const bare = Object.entries(documents[api]!.paths).flatMap(([path, methods]) => Object.entries(methods)
        .filter(([method, operation]) => operation.summary === `${method.toUpperCase()} ${path}`).map(([method]) => `${method.toUpperCase()} ${path}`));
      expect(bare, api).toEqual([]);
    }
  });

  test('public reads answer as described', async () => {
    const stats = await call('GET', '/api/stats');
    expectStatus(stats, 200);
    s.icon = ((stats.body as { teams: { team: { icon: string | null } }[] }).teams.find((row) => row.team.icon?.startsWith('/api/images/'))?.team.icon ?? '').replace('/api/images/', '');
    expectStatus(await call('GET', '/api/stats/teams', { params: { query: { page: 1, size: 10, sort: 'distance', order: 'desc', q: 'a' } } }), 200);
    expectStatus(await call('GET', '/api/fundraising'), 200);
    expectStatus(await call('GET', '/api/settings'), 200);
    expectStatus(await call('GET', '/api/editions'), 200);
    expectStatus(await call('GET', '/api/draw'), 200);
    expectStatus(await call('GET', '/api/health'), 200);
    // 2025 is still open on 20 April 2025: its results are not published yet.
    expectStatus(await call('GET', '/api/history/editions/{year}', { params: { path: { year: 2025 } } }), 404);
    expectStatus(await call('GET', '/api/certificates/{code}', { params: { path: { code: s.certificateCode } } }), 404);
    expectStatus(await call('GET', '/api/images/{name}', { params: { path: { name: `${'0'.repeat(64)}.webp` } } }), 404);
    if (s.icon !== '') expectStatus(await call('GET', '/api/images/{name}', { params: { path: { name: s.icon } } }), 200);
    const teamId = (stats.body as { teams: { team: { id: number } }[] }).teams[0]!.team.id;
    expectStatus(await call('GET', '/api/team/{id}/share.png', { params: { path: { id: teamId }, query: { lang: 'et' } } }), 200);
    expectStatus(await call('GET', '/api/share/team/{id}', { params: { path: { id: teamId }, query: { lang: 'en' } } }), 200);
    // The news source is not configured in a test stack: whatever it answers must be described.
    await call('POST', '/api/strapi/story', { body: { locale: 'et' } });
  });

  test('registration, confirmation and login through the client; the accounts\' public routes answer as described', async () => {
    expectStatus(await call('POST', '/api/passwordstrength', { body: { password: PASSWORD } }), 200);
    const registration = { team_join_code: '', full_name: 'Gea Generaator', email: CAPTAIN, gender: 1, birth_year: 1988, password: PASSWORD, newsletter: false, type: 'REGISTER_TEAM', team_name: 'Generaatori Tiim', lang: 'est' };
    expectStatus(await call('POST', '/api/registerteam', { body: registration }), 200);
    expectStatus(await call('POST', '/api/login', { body: { email: CAPTAIN, password: PASSWORD } }), 403);
    expectStatus(await call('POST', '/api/confirmaccount', { body: { token: 'x'.repeat(43), id: 'no-such-account' } }), 400);
    expectStatus(await call('POST', '/api/confirmaccount', { body: await linkFromMail(stack, CAPTAIN, '/confirm/account') }), 200);
    const login = await call('POST', '/api/login', { body: { email: CAPTAIN, password: PASSWORD } });
    expectStatus(login, 200);
    s.captainToken = (login.body as { token: string }).token;
    const claims = decodeToken(s.captainToken);
    s.teamId = claims.teamId as number;
    s.participantId = claims.participantId as number;
    s.userId = claims.userId as string;
    expectStatus(await call('POST', '/api/requestpasswordreset', { body: { email: CAPTAIN, lang: 'eng' } }), 200);
    expectStatus(await call('POST', '/api/resetpassword', { body: { userId: s.userId, token: 'x'.repeat(43), newPassword: 'Uus parool mis ei kehti 2025' } }), 400);
  });

  test('the team page\'s reads and commands answer as described', async () => {
    const path = { id: s.teamId };
    const code = await call('GET', '/api/team/{id}/joincode', { token: s.captainToken, params: { path } });
    expectStatus(code, 200);
    s.joinCode = (code.body as { code: string }).code;
    const join = { team_join_code: s.joinCode, full_name: 'Mart Generaator', email: MEMBER, gender: 0, birth_year: 1990, password: PASSWORD, newsletter: false, type: 'JOIN_TEAM', lang: 'eng' };
    expectStatus(await call('POST', '/api/jointeam', { body: join }), 200);
    await eventually(async () => (await call('GET', '/api/team/{id}', { token: s.captainToken, params: { path } })).status === 200);
    expectStatus(await call('GET', '/api/team/{id}/participants', { token: s.captainToken, params: { path } }), 200);
    expectStatus(await call('PUT', '/api/team/{id}/publicattributes', { token: s.captainToken, params: { path }, body: { description: 'Generaator käib.' } }), 200);
    expectStatus(await call('GET', '/api/team/{id}/newcode', { token: s.captainToken, params: { path } }), 200);
    expectStatus(await call('GET', '/api/team/{id}/live', { token: s.captainToken, params: { path } }), 200);
    // A stranger's team: refused as described.
    const other = s.teamId === 1 ? 2 : 1;
    expectStatus(await call('GET', '/api/team/{id}', { token: s.captainToken, params: { path: { id: other } } }), 403);
    // The team of the earlier edition: none, a first-time team.
    await call('POST', '/api/team/{id}/invite-returning', { token: s.captainToken, params: { path } });
  });

  test('entries: add, edit, what it did, from an activity file, delete', async () => {
    const added = await call('POST', '/api/entry', { token: s.captainToken, body: { distance: 5.25, entry_type: 'RUNNING', performed_at: '2025-04-19' } });
    expectStatus(added, 200);
    s.entryId = (added.body as { entry: { id: number } }).entry.id;
    expectStatus(await call('PUT', '/api/entry/{id}/edit', { token: s.captainToken, params: { path: { id: s.entryId } }, body: { distance: 6.5, entry_type: 'RUNNING', performed_at: '2025-04-19' } }), 200);
    expectStatus(await call('POST', '/api/entry', { token: s.captainToken, body: { distance: 5, entry_type: 'RUNNING', performed_at: '2025-03-19' } }), 400);
    await eventually(async () => ((await call('GET', '/api/team/{id}/entries', { token: s.captainToken, params: { path: { id: s.teamId } } })).body as unknown[]).length === 1);
    expectStatus(await call('GET', '/api/team/{id}/entries/{entryId}/contribution', { token: s.captainToken, params: { path: { id: s.teamId, entryId: s.entryId } } }), 200);
    expectStatus(await call('GET', '/api/participant/{id}/contributions', { token: s.captainToken, params: { path: { id: s.participantId } } }), 200);
    const proposal = await call('POST', '/api/team/{id}/activity-files', {
      token: s.captainToken, params: { path: { id: s.teamId } }, raw: true, body: Buffer.from(gpx('2025-04-18')),
      headers: { 'content-type': 'application/octet-stream', 'x-file-name': encodeURIComponent('hommik.gpx') },
    });
    expectStatus(proposal, 200);
    const confirmed = await call('POST', '/api/team/{id}/activity-files/confirm', {
      token: s.captainToken, params: { path: { id: s.teamId } }, body: { token: (proposal.body as { token: string }).token },
    });
    expectStatus(confirmed, 200);
    const fromFile = (confirmed.body as { entry: { id: number } }).entry.id;
    expectStatus(await call('PUT', '/api/entry/delete', { token: s.captainToken, body: { ids: [fromFile] } }), 200);
  });

  test('certificates, payment and the caller\'s own data answer as described', async () => {
    // Entries may still be added on 20 April: not yet.
    expectStatus(await call('GET', '/api/participant/{id}/certificate.pdf', { token: s.captainToken, params: { path: { id: s.participantId } } }), 409);
    expectStatus(await call('GET', '/api/team/{id}/certificate.pdf', { token: s.captainToken, params: { path: { id: s.teamId } } }), 409);
    expectStatus(await call('GET', '/api/payment/info', { token: s.captainToken }), 200);
    expectStatus(await call('GET', '/api/payment/banktransfer', { token: s.captainToken }), 200);
    const methods = await call('GET', '/api/payment/methods', { token: s.captainToken });
    expectStatus(methods, 200);
    const bank = (methods.body as { countries: { country: string; methods: { code: string; logoUrl: string }[] }[] }).countries[0]!;
    s.bankCode = bank.methods[0]!.code;
    const logo = bank.methods[0]!.logoUrl.split('/').at(-1)!;
    expectStatus(await call('GET', '/api/payment/sandbox/logos/{file}', { params: { path: { file: logo } } }), 200);
    const order = await call('POST', '/api/payment/order', { token: s.captainToken, body: paymentRequest(15, { country: bank.country, provider: s.bankCode }) });
    expectStatus(order, 200);
    const { reference, orderId, paymentUrl } = order.body as { reference: string; orderId: string; paymentUrl: string };
    s.reference = reference;
    s.orderId = orderId;
    // The order's read model follows the command: read until it shows it.
    await eventually(async () => (await call('GET', '/api/payment/order/{reference}', { token: s.captainToken, params: { path: { reference } } })).status === 200);
    // The sandbox bank's page, then its form refused without the page's session (a 400 page).
    const session = new URL(paymentUrl, stack.baseUrl).searchParams.get('session') ?? '';
    expectStatus(await call('GET', '/api/payment/sandbox/checkout/{orderId}', { params: { path: { orderId }, query: { session } } }), 200);
    await call('POST', '/api/payment/sandbox/checkout/{orderId}', { params: { path: { orderId } }, body: 'session=forged&outcome=succeed', headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: true });
    expectStatus(await call('GET', '/api/payment/return', { params: { query: { 'order-token': 'forged' } } }), 303);
    expectStatus(await call('POST', '/api/payment/notification/{provider}', { params: { path: { provider: 'sandbox' } }, body: { orderToken: 'forged' } }), 400);
    expectStatus(await call('GET', '/api/me/data', { token: s.captainToken }), 200);
    expectStatus(await call('GET', '/api/me/data.csv', { token: s.captainToken }), 200);
  });

  test('Strava (not configured in a test stack) and returning to a new edition answer as described', async () => {
    expectStatus(await call('GET', '/api/me/strava', { token: s.captainToken }), 200);
    await call('POST', '/api/me/strava/connect', { token: s.captainToken, body: { mode: 'confirm' } });
    await call('PUT', '/api/me/strava', { token: s.captainToken, body: { mode: 'auto' } });
    await call('DELETE', '/api/me/strava', { token: s.captainToken });
    await call('POST', '/api/me/strava/proposals/{activityId}/confirm', { token: s.captainToken, params: { path: { activityId: 1 } }, body: {} });
    await call('DELETE', '/api/me/strava/proposals/{activityId}', { token: s.captainToken, params: { path: { activityId: 1 } } });
    expectStatus(await call('GET', '/api/strava/callback', { params: { query: { state: 'forged', code: 'x', scope: 'read,activity:read' } } }), 303);
    await call('GET', '/api/strava/webhook', { params: { query: { 'hub.mode': 'subscribe', 'hub.verify_token': 'wrong', 'hub.challenge': 'abc' } } });
    await call('POST', '/api/strava/webhook', { body: { object_type: 'activity', object_id: 1, aspect_type: 'create', owner_id: 1, subscription_id: 1, event_time: 1745140000, updates: {} } });
    // 2025 is the edition taking registrations, and the caller is in it already.
    await call('POST', '/api/me/editions/{year}/join', { token: s.captainToken, params: { path: { year: 2025 } }, body: { mode: 'joinCode', joinCode: s.joinCode } });
  });

  test('the administrators\' reads answer as described', async () => {
    const login = await call('POST', '/api/login', { body: ADMIN });
    expectStatus(login, 200);
    s.adminToken = (login.body as { token: string }).token;
    const token = s.adminToken;
    const page = { page: 1, size: 10, order: 'desc', q: 'a' };
    for (const path of ['/api/admin/userdata', '/api/admin/teamdata', '/api/admin/entrydata', '/api/admin/editions', '/api/admin/review', '/api/admin/parked', '/api/admin/queues/announcements']) {
      expectStatus(await call('GET', path, { token }), 200);
    }
    const users = await call('GET', '/api/admin/users', { token, params: { query: { ...page, q: 'generaator' } } });
    expectStatus(users, 200);
    s.memberUserId = ((users.body as { rows: { id: string; email: string | null }[] }).rows.find((row) => row.email === MEMBER)?.id) ?? '';
    expectStatus(await call('GET', '/api/admin/teams', { token, params: { query: { ...page, sort: 'team_name', edition: '2025' } } }), 200);
    expectStatus(await call('GET', '/api/admin/entries', { token, params: { query: { ...page, sort: 'created_at', edition: '2025' } } }), 200);
    expectStatus(await call('GET', '/api/admin/users.csv', { token, params: { query: { q: 'generaator' } } }), 200);
    expectStatus(await call('GET', '/api/admin/teams.csv', { token, params: { query: { q: 'Generaator' } } }), 200);
    expectStatus(await call('GET', '/api/admin/entries.csv', { token, params: { query: { q: 'Generaator' } } }), 200);
    expectStatus(await call('GET', '/api/admin/history', { token, params: { query: { order: 'desc', limit: 5 } } }), 200);
    expectStatus(await call('GET', '/api/admin/history/timeline', { token, params: { query: { stream: `team-${s.teamId}` } } }), 200);
    expectStatus(await call('GET', '/api/admin/history/team/{id}/as-of', { token, params: { path: { id: s.teamId }, query: { at: '2030-01-01T00:00:00.000Z' } } }), 200);
    expectStatus(await call('GET', '/api/admin/history/export', { token, params: { query: { team: s.teamId, format: 'csv' } } }), 200);
    expectStatus(await call('GET', '/api/admin/participant/{id}/payments', { token, params: { path: { id: s.participantId } } }), 200);
    expectStatus(await call('GET', '/api/admin/queues/announcements/recipients', { token, params: { query: { audience: 'newsletter' } } }), 200);
    // A member is refused as described.
    expectStatus(await call('GET', '/api/admin/userdata', { token: s.captainToken }), 403);
  });

  test('the administrators\' commands answer as described', async () => {
    const token = s.adminToken;
    expectStatus(await call('PUT', '/api/admin/user/{id}', { token, params: { path: { id: s.memberUserId } }, body: { is_approved: true } }), 200);
    expectStatus(await call('PUT', '/api/admin/participant/{id}', { token, params: { path: { id: s.participantId } }, body: { is_paid: true } }), 200);
    expectStatus(await call('PUT', '/api/admin/team/{id}', { token, params: { path: { id: s.teamId } }, body: { id: s.teamId, description: 'Haldur muutis.' } }), 200);
    expectStatus(await call('PUT', '/api/admin/settings', { token, body: { registrationEnabled: true, entryInsertionEnabled: true } }), 200);
    expectStatus(await call('POST', '/api/admin/resetpassword', { token, body: { userId: s.memberUserId, newPassword: 'Halduri antud parool 2025' } }), 200);
    // Refusals: unknown ids, an entry not under review, an order not paid, bodies the rules refuse.
    expectStatus(await call('PUT', '/api/admin/deleteentities/{entity}', { token, params: { path: { entity: 'entry' } }, body: { ids: [987_654_321] } }), 'refused');
    expectStatus(await call('POST', '/api/admin/parked/{position}/retry', { token, params: { path: { position: 987_654_321 } }, body: {} }), 'refused');
    expectStatus(await call('POST', '/api/admin/parked/{position}/skip', { token, params: { path: { position: 987_654_321 } }, body: { reason: 'proov' } }), 'refused');
    expectStatus(await call('POST', '/api/admin/review', { token, body: { ids: [s.entryId], decision: 'approve', note: 'proov' } }), 409);
    expectStatus(await call('POST', '/api/admin/payment/{reference}/refund', { token, params: { path: { reference: s.reference } }, body: { reason: 'proov' } }), 'refused');
    expectStatus(await call('POST', '/api/admin/announcements', { token, body: { subject_et: 'Proov', body_et: 'Proov', subject_en: 'Test', body_en: 'Test' } }), 400);
    await call('POST', '/api/admin/announcements/test', { token, body: { subject_et: 'Proov', body_et: 'Proovitekst', subject_en: 'Test', body_en: 'Test text' } });
    expectStatus(await call('POST', '/api/admin/editions', { token, body: {} }), 400);
    expectStatus(await call('PUT', '/api/admin/editions/{year}', { token, params: { path: { year: 2031 } }, body: {} }), 'refused');
    expectStatus(await call('POST', '/api/admin/editions/{year}/open', { token, params: { path: { year: 2031 } } }), 'refused');
    expectStatus(await call('POST', '/api/admin/editions/{year}/close', { token, params: { path: { year: 2031 } } }), 'refused');
    const commitment = 'ab'.repeat(32);
    expectStatus(await call('POST', '/api/admin/draw/commit', { token, body: { commitment, drawAt: '2025-05-05T17:00:00+03:00', winners: 3 } }), 200);
    expectStatus(await call('POST', '/api/admin/draw/reveal', { token, body: { seed: 'not-the-committed-seed-0123' } }), 'refused');
    expectStatus(await call('POST', '/api/admin/queues/session', { token }), 200);
    // Last of the administrators' calls: a replay rebuilds every read model.
    const replay = await call('POST', '/api/admin/replay', { token });
    expectStatus(replay, 200);
    expectStatus(await call('GET', '/api/admin/replay/{jobId}', { token, params: { path: { jobId: (replay.body as { jobId: string }).jobId } } }), 200);
  });

  test('the session routes and the account\'s own commands answer as described', async () => {
    expectStatus(await call('POST', '/api/session/refresh', { token: s.captainToken }), 200);
    expectStatus(await call('PUT', '/api/account/changepassword', { token: s.captainToken, body: { currentPassword: 'Vale parool 2025 kevadel', newPassword: 'Uus parool 2025 kevadel' } }), 400);
    expectStatus(await call('POST', '/api/me/erase', { token: s.captainToken, body: { password: 'Vale parool 2025 kevadel' } }), 'refused');
    expectStatus(await call('POST', '/api/session/logout', { token: s.captainToken }), 200);
    expectStatus(await call('POST', '/api/session/refresh'), 401);
  });

  test('unsubscribing answers as described (where the stack serves the announcements)', async () => {
    if (documents.command!.paths['/api/unsubscribe']) {
      expectStatus(await call('POST', '/api/unsubscribe', { body: { token: 'forged' } }), 400);
      expectStatus(await call('POST', '/api/unsubscribe/{token}', { params: { path: { token: 'forged' } }, body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: true }), 400);
    }
  });

  test('every operation of both documents was called', () => {
    const expected = (['command', 'query'] as const).flatMap((api) => Object.entries(documents[api]!.paths).flatMap(([path, methods]) => Object.keys(methods)
      .map((method) => `${method.toUpperCase()} ${path}`)));
    expect(expected.length).toBeGreaterThan(100);
    expect(expected.filter((key) => !called.has(key))).toEqual([]);
  });
});
