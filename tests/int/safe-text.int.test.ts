/**
 * The boundary: NUL, lone surrogates and control characters never get into
 * the system. The audit's findings — `POST /api/registerteam` with `"full_name":"Evil\u0000Name"`
 * answered 200 (and then stalled the projections), NUL and lone surrogates in unencrypted fields
 * answered 500 — now answer 400 INVALID_CHARACTERS and append nothing; a multi-line description
 * still takes its line breaks; NUL in a query string or path of the admin searches is a 4xx,
 * never a 500.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (authPlugin registers the plugin)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { AccountDirectory, AccountService, CommandService } from '@sinilill/commands';
import type { ActingUser } from '@sinilill/domain';
import type { Mailer } from '@sinilill/mail';
import { buildCommandApi, readModelLookups } from '@sinilill/command-api';
import { buildQueryApi } from '@sinilill/query-api';
import { streamIndexOn, testApplication, type TestApplication } from '../support/app';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const NOW = new Date('2025-04-15T09:00:00Z');
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const noMail: Mailer = { send: async () => undefined, close: () => undefined };

describe('safe text at the boundary', () => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let commands: CommandService;
  let commandApi: FastifyInstance;
  let queryApi: FastifyInstance;
  let teamId: number;
  let participantId: number;
  let joinCode: string;
  /** Bearer tokens from real logins (POST /api/login), whatever a session token holds. */
  let memberToken: string;
  let adminToken: string;

  const member = () => ({ authorization: `Bearer ${memberToken}` });
  const admin = () => ({ authorization: `Bearer ${adminToken}` });
  const login = async (email: string, password: string) => {
    const response = await commandApi.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { token: string }).token;
  };
  /** A raw JSON body, so that escapes such as `\ud800` reach the server as written. */
  const send = (method: 'POST' | 'PUT', url: string, json: string, headers: Record<string, string> = {}) =>
    commandApi.inject({ method, url, payload: json, headers: { 'content-type': 'application/json', ...headers } });
  const expectRefusal = (response: LightMyRequestResponse, status: number, code: string) => {
    expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({ status, body: { message: code } });
  };
  const registration = (fields: Record<string, string>, type: 'REGISTER_TEAM' | 'JOIN_TEAM' = 'REGISTER_TEAM') => {
    // Each value is inserted as raw JSON text (so a test can write "\ud800" or "\u0000" itself).
    const values: Record<string, string> = {
      full_name: '"Mari Maasikas"', email: `"mari-${Math.random().toString(36).slice(2)}@example.ee"`, password: '"Sinilill jookseb aprillis 2025"',
      team_name: type === 'REGISTER_TEAM' ? `"Tiim ${Math.random().toString(36).slice(2, 8)}"` : '""',
      team_join_code: type === 'JOIN_TEAM' ? JSON.stringify(joinCode) : '""',
      ...fields,
    };
    const raw = Object.entries(values).map(([key, value]) => `"${key}":${value}`).join(',');
    return `{${raw},"gender":"FEMALE","birth_year":1990,"newsletter":false,"type":"${type}","lang":"est"}`;
  };
  const head = () => app.store.headPosition();

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    accountPool = new pg.Pool({ connectionString: app.url, max: 6 });
    const directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
    commands = new CommandService({ store: app.store, ids: app.ids, now: () => NOW, directory, streamIndex: streamIndexOn(app.pool), ...readModelLookups(app.pool) });
    const accounts = new AccountService({ store: app.store, ids: app.ids, directory, mailer: noMail, now: () => NOW, publicUrl: 'http://sinilill.test' });
    commandApi = buildCommandApi({ commands, accounts, jwtSecret: SECRET, rateLimit: { max: 1000, timeWindowMs: 60_000 } });
    await commandApi.ready();
    queryApi = buildQueryApi({
      db: app.db, now: () => NOW, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET,
      changes: { subscribe: () => () => undefined }, history: app.store,
    });
    await queryApi.ready();
    const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });
    joinCode = 'SAFE2345';
    ({ teamId } = await commands.registerTeam({ teamName: 'Turvaline Tiim', description: '', joinCode, icon: null }, system('safe-team')));
    ({ participantId } = await commands.registerParticipant({
      teamId, fullName: 'Kati Karu', email: 'kati@example.ee', birthYear: 1985, gender: 'FEMALE', isCaptain: true, newsletter: false,
    }, system('safe-member')));
    // The member (an imported-style account) gets a password from the administrator's reset.
    await accounts.adminResetPassword((await directory.userIdOfEmail('kati@example.ee'))!, 'Kati jookseb aprillis 2025', system('safe-member-password'));
    await accounts.ensureAdmin('admin@example.ee', 'admin-parool', NOW);
    await app.project();
    memberToken = await login('kati@example.ee', 'Kati jookseb aprillis 2025');
    adminToken = await login('admin@example.ee', 'admin-parool');
  }, 120_000);

  afterAll(async () => {
    await commandApi?.close();
    await queryApi?.close();
    await accountPool?.end();
    await app?.close();
  });

  describe('registration (POST /api/registerteam, /api/jointeam)', () => {
    test('an ordinary registration still answers 200 (the refusals below are about the characters)', async () => {
      const response = await send('POST', '/api/registerteam', registration({ full_name: '"Õie-Ülle Šõru 🌸"' }));
      expect(response.statusCode, response.body).toBe(200);
    });

    test.each([
      ['NUL', '"Evil\\u0000Name"'],
      ['a lone high surrogate', '"Evil\\ud800Name"'],
      ['a lone low surrogate', '"\\udc00Evil"'],
      ['a control character (BEL)', '"Evil\\u0007Name"'],
      ['a C1 control character (NEL)', '"Evil\\u0085Name"'],
      ['a tab (single-line text)', '"Evil\\tName"'],
      ['a line break (single-line text)', '"Evil\\nName"'],
    ])('full_name with %s → 400 INVALID_CHARACTERS on both routes, nothing appended', async (_what, fullName) => {
      const before = await head();
      expectRefusal(await send('POST', '/api/registerteam', registration({ full_name: fullName })), 400, 'INVALID_CHARACTERS');
      expectRefusal(await send('POST', '/api/jointeam', registration({ full_name: fullName }, 'JOIN_TEAM')), 400, 'INVALID_CHARACTERS');
      expect(await head()).toBe(before);
    });

    test('the unencrypted fields that answered 500 (team name, e-mail, join code) answer 400 INVALID_CHARACTERS', async () => {
      const before = await head();
      expectRefusal(await send('POST', '/api/registerteam', registration({ team_name: '"Tiim\\ud800"' })), 400, 'INVALID_CHARACTERS');
      expectRefusal(await send('POST', '/api/registerteam', registration({ team_name: '"Tiim\\u0000"' })), 400, 'INVALID_CHARACTERS');
      expectRefusal(await send('POST', '/api/registerteam', registration({ email: '"a\\u0000@example.ee"' })), 400, 'INVALID_CHARACTERS');
      expectRefusal(await send('POST', '/api/jointeam', registration({ team_join_code: '"SAFE\\u00002345"' }, 'JOIN_TEAM')), 400, 'INVALID_CHARACTERS');
      expectRefusal(await send('POST', '/api/login', '{"email":"kati@example.ee","password":"x\\ud800"}'), 400, 'INVALID_CHARACTERS');
      // An unknown field whose name holds NUL: refused for the characters too.
      expectRefusal(await send('POST', '/api/registerteam', registration({ 'x\\u0000': '1' })), 400, 'INVALID_CHARACTERS');
      expect(await head()).toBe(before);
    });
  });

  describe('the other commands', () => {
    test('a team description with line breaks and a tab is still accepted (multi-line text); NUL or a lone surrogate in it is not', async () => {
      const ok = await send('PUT', `/api/team/${teamId}/publicattributes`, '{"description":"Rida üks\\nRida kaks\\r\\n\\tlõpp"}', member());
      expect(ok.statusCode, ok.body).toBe(200);
      expect((ok.json() as { team: { description: string } }).team.description).toBe('Rida üks\nRida kaks\r\n\tlõpp');
      const before = await head();
      expectRefusal(await send('PUT', `/api/team/${teamId}/publicattributes`, '{"description":"a\\u0000b"}', member()), 400, 'INVALID_CHARACTERS');
      expectRefusal(await send('PUT', `/api/team/${teamId}/publicattributes`, '{"description":"a\\udfffb"}', member()), 400, 'INVALID_CHARACTERS');
      expectRefusal(await send('PUT', `/api/team/${teamId}/publicattributes`, '{"description":"a\\u001bb"}', member()), 400, 'INVALID_CHARACTERS');
      expect(await head()).toBe(before);
    });

    test('an entry type under "Other" and the admin’s renames refuse NUL and controls with INVALID_CHARACTERS', async () => {
      const before = await head();
      expectRefusal(await send('POST', '/api/entry', '{"distance":5,"entry_type":"Jooga\\u0000","performed_at":"2025-04-10"}', member()), 400, 'INVALID_CHARACTERS');
      expectRefusal(await send('POST', '/api/entry', '{"distance":5,"entry_type":"Jooga\\tkodus","performed_at":"2025-04-10"}', member()), 400, 'INVALID_CHARACTERS');
      // A union body ({is_paid} or {id, full_name}): the name's characters still decide the code.
      expectRefusal(await send('PUT', `/api/admin/participant/${participantId}`, `{"id":${participantId},"full_name":"Kati\\tKaru"}`, admin()), 400, 'INVALID_CHARACTERS');
      expectRefusal(await send('PUT', `/api/admin/team/${teamId}`, `{"id":${teamId},"team_name":"Tiim\\ud800"}`, admin()), 400, 'INVALID_CHARACTERS');
      expect(await head()).toBe(before);
    });

    test('NUL in a path answers 4xx, never 500; a percent-encoded lone surrogate is not a valid URL (400)', async () => {
      for (const url of ['/api/team/1%00/publicattributes', '/api/admin/parked/1%00/skip', '/api/entry/%00/edit']) {
        const response = await commandApi.inject({ method: 'PUT', url, payload: {}, headers: admin() });
        expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, url).toBeLessThan(500);
      }
      const surrogate = await commandApi.inject({ method: 'POST', url: '/api/admin/parked/%ED%A0%80/skip', payload: {}, headers: admin() });
      expect(surrogate.statusCode).toBe(400);
    });

    test('headers the handlers read (Idempotency-Key, x-correlation-id) with odd characters never answer 500', async () => {
      for (const value of ['key\u0085\u0085\u0085\u0085', '\u00ff'.repeat(20)]) {
        const response = await send('PUT', `/api/team/${teamId}/publicattributes`, '{"description":"Päis"}', {
          ...member(), 'idempotency-key': value, 'x-correlation-id': value,
        });
        expect(response.statusCode, value).toBe(200);
      }
    });
  });

  describe('the query API’s searches', () => {
    const get = (url: string) => queryApi.inject({ method: 'GET', url, headers: admin() });

    test('NUL or a control character in a history search (LIKE and equality over the log) answers 400 INVALID_CHARACTERS, not 500', async () => {
      for (const url of [
        '/api/admin/history?stream=team-1%00',
        '/api/admin/history?actor=%00',
        '/api/admin/history/timeline?stream=team%00-1',
        '/api/admin/history/export?stream=%1B',
        '/api/admin/history?entity=team&stream=a%C2%85b',
      ]) {
        expectRefusal(await get(url), 400, 'INVALID_CHARACTERS');
      }
    });

    test('a percent-encoded lone surrogate or invalid UTF-8 in a search never answers 500', async () => {
      for (const url of ['/api/admin/history?stream=%ED%A0%80', '/api/admin/history?actor=%C0', '/api/admin/history/timeline?stream=%ED%BF%BF']) {
        const response = await get(url);
        expect(response.statusCode, url).toBeLessThan(500);
      }
    });

    test('NUL in a path of the query API answers 4xx, never 500', async () => {
      for (const url of ['/api/team/%00', '/api/team/1%00/participants', '/api/admin/history/team/%00/as-of?at=2025-04-20T00:00:00Z', '/api/images/%00.webp']) {
        const response = await get(url);
        expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, url).toBeLessThan(500);
      }
    });
  });
});
