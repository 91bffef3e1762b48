/**
 * Sessions end when they should, on real PostgreSQL and Redis, through both
 * APIs. The audit's findings, each reproduced and now refused:
 *
 * - a token kept working for 7 days after a password change, a reset (by link or by an
 *   administrator), a withdrawn approval or a role change: each of them now raises the account's
 *   session version, and the command API and the query API refuse every access token issued
 *   before at once (401), as POST /api/session/refresh refuses every refresh cookie issued before;
 *   a fresh login works where it should;
 * - a deleted administrator's token exported the decrypted history and reset other users'
 *   passwords: now 401, and the password stays;
 * - only three admin reads checked the account: an administrator is now one while the account
 *   is an approved ADMIN in the log, on every route of both APIs;
 * - the queue board's cookie was a full admin token: it is now a narrow credential that opens the
 *   board and nothing else, and an access token is no board cookie.
 *
 * Also: access tokens live 15 minutes; refresh tokens rotate, and a reused one revokes its
 * session; logout ends the session. Probes: POST /api/entry with an empty body (401 when the
 * token is refused, else 400 from validation) and GET /api/payment/info on the query API; for
 * administrators PUT /api/admin/settings with a bad body (401 / 403 / 400) and GET
 * /api/admin/userdata.
 */
import type {} from '@fastify/jwt'; // app.jwt's type
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { AccountDirectory, AccountService, CommandService, REFRESH_REUSE_GRACE_SECONDS } from '@sinilill/commands';
import { QUEUE_BOARD_COOKIE, REFRESH_COOKIE, type AccessClaims, type SessionClaims } from '@sinilill/contracts';
import { PERSONAL_DATA_FIELDS, SCHEMA_VERSIONS, streams } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection, type EventStore } from '@sinilill/event-store';
import type { Mailer, OutgoingMail } from '@sinilill/mail';
import { createProjectionQueues, createReplayQueue, type Queue, type ReplayJob } from '@sinilill/messaging';
import { buildCommandApi, readModelLookups } from '@sinilill/command-api';
import { buildQueryApi } from '@sinilill/query-api';
import { streamIndexOn, testApplication, type TestApplication } from '../support/app';
import { runningClock } from '../support/running-clock';

/** In the 2025 edition's days (registration is judged by them), at the real clock's pace. */
const clock = runningClock();
const SECRET = 'sessions-test-secret-long-enough-for-hs256-0123456789';
const PUBLIC_URL = 'http://sinilill.test';
const RESET_LINK = /\/passwordreset\/([A-Za-z0-9_-]{43})\/([0-9a-f-]{36})/;
const CONFIRM_LINK = /\/confirm\/account\/([A-Za-z0-9_-]{43})\/([0-9a-f-]{36})/;

interface Person { userId: string; email: string; password: string; teamId: number }
interface Session { token: string; cookie: string }

describe('sessions end when they should', () => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let store: EventStore;
  let accounts: AccountService;
  let commandApi: FastifyInstance;
  let queryApi: FastifyInstance;
  let replay: Queue<ReplayJob>;
  let watched: Queue[];
  const mails: OutgoingMail[] = [];
  const mailer: Mailer = { send: async (mail) => { mails.push(mail); }, close: () => undefined };
  let serial = 0;

  const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    commandApi.inject({ method: 'POST', url: `/api${url}`, ...(payload !== undefined ? { payload: payload as object } : {}), headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as AccessClaims & { iat: number; exp: number };
  const status = (response: LightMyRequestResponse) => response.statusCode;
  const mailTo = (email: string, link: RegExp) => {
    const mail = mails.filter((m) => m.to.includes(email)).reverse().find((m) => link.test(m.text));
    expect(mail, `a mail to ${email}`).toBeDefined();
    const [, token, userId] = link.exec(mail!.text)!;
    return { token: token!, userId: userId! };
  };
  /** The refresh cookie a response set (its value; '' when it cleared it), or undefined. */
  const refreshCookieOf = (response: LightMyRequestResponse) => {
    const cookies = [response.headers['set-cookie'] ?? []].flat();
    const line = cookies.find((c) => c.startsWith(`${REFRESH_COOKIE}=`));
    return line === undefined ? undefined : { value: /^[^=]+=([^;]*)/.exec(line)![1]!, line };
  };

  /** A registered, confirmed participant (captain of a new team). */
  const person = async (): Promise<Person> => {
    const n = ++serial;
    const email = `liige-${n}@example.ee`;
    const password = `kevadine-salasõna-${n}`;
    const registered = await post('/registerteam', {
      full_name: `Liige ${n}`, email, gender: 'FEMALE', birth_year: 1980, password, newsletter: false,
      type: 'REGISTER_TEAM', team_name: `Sessioonid ${n}`, lang: 'est',
    });
    expect(status(registered), registered.body).toBe(200);
    const link = mailTo(email, CONFIRM_LINK);
    expect(status(await post('/confirmaccount', { token: link.token, id: link.userId }))).toBe(200);
    const { teamId } = claimsOf((await login(email, password)).token);
    return { userId: link.userId, email, password, teamId: teamId! };
  };
  /** An approved administrator (ADMIN_EMAIL's way). */
  const administrator = async (): Promise<Person> => {
    const n = ++serial;
    const email = `admin-${n}@example.ee`;
    const password = `admin-parool-${n}`;
    const { userId } = await accounts.ensureAdmin(email, password);
    return { userId, email, password, teamId: 0 };
  };
  const login = async (email: string, password: string): Promise<Session> => {
    const response = await post('/login', { email, password });
    expect(status(response), response.body).toBe(200);
    return { token: response.json<{ token: string }>().token, cookie: refreshCookieOf(response)!.value };
  };
  const refresh = (cookie: string) => post('/session/refresh', undefined, { cookie: `${REFRESH_COOKIE}=${cookie}` });

  /** What each API answers an access token: command API POST /entry {} (401 or 400), query API GET /payment/info (401 or 200). */
  const probe = async (token: string) => ({
    command: status(await commandApi.inject({ method: 'POST', url: '/api/entry', payload: {}, headers: bearer(token) })),
    query: status(await queryApi.inject({ url: '/api/payment/info', headers: bearer(token) })),
  });
  const ACCEPTED = { command: 400, query: 200 };
  const REFUSED = { command: 401, query: 401 };
  /** What each API's admin routes answer: PUT /admin/settings with a bad body (400 past the guards), GET /admin/userdata. */
  const adminProbe = async (token: string) => ({
    command: status(await commandApi.inject({ method: 'PUT', url: '/api/admin/settings', payload: { bogus: true }, headers: bearer(token) })),
    query: status(await queryApi.inject({ url: '/api/admin/userdata', headers: bearer(token) })),
  });
  const ADMIN_ACCEPTED = { command: 400, query: 200 };
  /** A session is over: its access token is refused by both APIs, its refresh cookie by /session/refresh. */
  const expectEnded = async (session: Session) => {
    expect(await probe(session.token)).toEqual(REFUSED);
    const refused = await refresh(session.cookie);
    expect([status(refused), refused.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
    expect(refreshCookieOf(refused)?.value).toBe(''); // the browser is told to forget it
  };

  beforeAll(async () => {
    app = await testApplication();
    accountPool = new pg.Pool({ connectionString: app.url, max: 6 });
    const directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
    const vault = new PersonalDataVault({ pool: app.pool, cacheTtlMs: 0 });
    store = withPersonalDataProtection(new PostgresEventStore({ pool: app.pool }), vault, PERSONAL_DATA_FIELDS);
    const commands = new CommandService({ store, ids: app.ids, now: clock, directory, personalData: vault, streamIndex: streamIndexOn(app.pool), ...readModelLookups(app.pool) });
    accounts = new AccountService({ store, ids: app.ids, directory, mailer, now: clock, publicUrl: PUBLIC_URL });
    const redisUrl = inject('redisUrl');
    const prefix = `test-sessions-${randomUUID()}`;
    replay = createReplayQueue({ redisUrl, prefix });
    watched = createProjectionQueues({ redisUrl, prefix });
    commandApi = buildCommandApi({
      commands, accounts, jwtSecret: SECRET, rateLimit: { max: 1000, timeWindowMs: 60_000 },
      replayQueue: replay, boardQueues: [...watched, replay],
    });
    await commandApi.ready();
    queryApi = buildQueryApi({
      db: app.db, now: clock, readYourWritesTimeoutMs: 1000, jwtSecret: SECRET, changes: { subscribe: () => () => undefined }, history: store,
    });
    await queryApi.ready();
  }, 120_000);

  afterAll(async () => {
    await commandApi?.close();
    await queryApi?.close();
    await Promise.all([replay?.close(), ...(watched ?? []).map((q) => q.close())]);
    await accountPool?.end();
    await app?.close();
  });

  test('login answers a 15-minute access token with sv and sid, and sets the HttpOnly, Secure, SameSite=Strict refresh cookie on /api/session', async () => {
    const mari = await person();
    const response = await post('/login', { email: mari.email, password: mari.password });
    expect(status(response)).toBe(200);
    const { token } = response.json<{ token: string }>();
    const claims = claimsOf(token);
    expect(claims).toMatchObject({ userId: mari.userId, is_approved: true, role: 'USER', sv: expect.any(Number), sid: expect.any(String) });
    expect(claims.exp - claims.iat).toBe(15 * 60);
    const cookie = refreshCookieOf(response)!;
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/api/session', `Max-Age=${30 * 24 * 3600}`]) {
      expect(cookie.line).toContain(`; ${attribute}`);
    }
    // Only its hash is stored.
    const stored = await app.pool.query('SELECT 1 FROM app.refresh_tokens WHERE token_hash = sha256(convert_to($1, \'UTF8\'))', [cookie.value]);
    expect(stored.rowCount).toBe(1);
    expect(await probe(token)).toEqual(ACCEPTED);
  });

  test('a password change ends every session of the account, in both APIs at once; the caller gets a new refresh cookie', async () => {
    const mari = await person();
    const laptop = await login(mari.email, mari.password);
    const phone = await login(mari.email, mari.password);
    expect(await probe(phone.token)).toEqual(ACCEPTED);

    const changed = await commandApi.inject({
      method: 'PUT', url: '/api/account/changepassword', headers: bearer(laptop.token),
      payload: { currentPassword: mari.password, newPassword: 'uus-salasona-1' },
    });
    expect(status(changed), changed.body).toBe(200);
    await expectEnded(laptop);
    await expectEnded(phone);
    // The caller's new cookie renews their session (the client's next 401 refreshes with it).
    const renewed = await refresh(refreshCookieOf(changed)!.value);
    expect(status(renewed)).toBe(200);
    expect(await probe(renewed.json<{ token: string }>().token)).toEqual(ACCEPTED);
    expect(status(await post('/login', { email: mari.email, password: mari.password }))).toBe(401);
    expect(await probe((await login(mari.email, 'uus-salasona-1')).token)).toEqual(ACCEPTED);
  });

  test('a reset through the mailed link ends every session of the account', async () => {
    const mari = await person();
    const before = await login(mari.email, mari.password);
    expect(status(await post('/requestpasswordreset', { email: mari.email, lang: 'est' }))).toBe(200);
    // Asking for a link ends nothing (anybody may ask for anybody's).
    expect(await probe(before.token)).toEqual(ACCEPTED);
    const link = mailTo(mari.email, RESET_LINK);
    expect(status(await post('/resetpassword', { userId: link.userId, token: link.token, newPassword: 'uus-salasona-2' }))).toBe(200);
    await expectEnded(before);
    expect(await probe((await login(mari.email, 'uus-salasona-2')).token)).toEqual(ACCEPTED);
  });

  test("an administrator's reset ends every session of the user", async () => {
    const boss = await administrator();
    const admin = await login(boss.email, boss.password);
    const mari = await person();
    const before = await login(mari.email, mari.password);
    const reset = await post('/admin/resetpassword', { userId: mari.userId, newPassword: 'antud-parool-1' }, bearer(admin.token));
    expect(status(reset), reset.body).toBe(200);
    await expectEnded(before);
    expect(await probe((await login(mari.email, 'antud-parool-1')).token)).toEqual(ACCEPTED);
  });

  test('a withdrawn approval ends every session at once; the login is refused until approved again', async () => {
    const boss = await administrator();
    const admin = await login(boss.email, boss.password);
    const mari = await person();
    const before = await login(mari.email, mari.password);
    const revoke = await commandApi.inject({ method: 'PUT', url: `/api/admin/user/${mari.userId}`, payload: { is_approved: false }, headers: bearer(admin.token) });
    expect(status(revoke), revoke.body).toBe(200);
    await expectEnded(before);
    const refusedLogin = await post('/login', { email: mari.email, password: mari.password });
    expect([status(refusedLogin), refusedLogin.json()]).toEqual([403, { message: 'USER_NOT_APPROVED' }]);
    await commandApi.inject({ method: 'PUT', url: `/api/admin/user/${mari.userId}`, payload: { is_approved: true }, headers: bearer(admin.token) });
    expect(await probe((await login(mari.email, mari.password)).token)).toEqual(ACCEPTED);
  });

  test('a role change ends the sessions issued under the old role (ADMIN_EMAIL promoting a participant)', async () => {
    const mari = await person();
    const asUser = await login(mari.email, mari.password);
    expect(await adminProbe(asUser.token)).toEqual({ command: 403, query: 403 });
    const promoted = await accounts.ensureAdmin(mari.email, mari.password);
    expect(promoted).toMatchObject({ userId: mari.userId, changed: true });
    await expectEnded(asUser);
    const asAdmin = await login(mari.email, mari.password);
    expect(claimsOf(asAdmin.token).role).toBe('ADMIN');
    expect(await adminProbe(asAdmin.token)).toEqual(ADMIN_ACCEPTED);
  });

  test("admin rights are the account's, not the token's: an account that is no longer an ADMIN in the log is refused at once by every admin route", async () => {
    const boss = await administrator();
    const session = await login(boss.email, boss.password);
    expect(await adminProbe(session.token)).toEqual(ADMIN_ACCEPTED);
    // No command demotes an administrator today; this appends the event such a command (or an
    // operator's correction) would, without touching the session tables: the version stays, the
    // token's role claim stays ADMIN, and still no admin route serves it.
    await store.appendToStream(streams.user(boss.userId), [{
      id: randomUUID(), type: 'UserRoleChanged', schemaVersion: SCHEMA_VERSIONS.UserRoleChanged,
      data: { userId: boss.userId, role: 'USER', changedAt: new Date().toISOString() },
      metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: 'sessions-test', causationId: null },
    }], { expectedRevision: 'any' });
    expect(claimsOf(session.token).role).toBe('ADMIN');
    expect(await adminProbe(session.token)).toEqual({ command: 403, query: 403 });
    expect(status(await queryApi.inject({ url: '/api/admin/history/export?format=ndjson', headers: bearer(session.token) }))).toBe(403);
    expect(status(await queryApi.inject({ url: '/api/admin/history', headers: bearer(session.token) }))).toBe(403);
    const replayStart = await commandApi.inject({ method: 'POST', url: '/api/admin/replay', headers: bearer(session.token) });
    expect(status(replayStart)).toBe(403);
    // It is still a session (of a USER now).
    expect(await probe(session.token)).toEqual(ACCEPTED);
  });

  test("an administrator deleted by another: the deleted one's token exports no history and resets no password (401), the cookie is dead, the login too", async () => {
    const keeper = await administrator();
    const leaver = await administrator();
    const keeperSession = await login(keeper.email, keeper.password);
    const leaverSession = await login(leaver.email, leaver.password);
    const victim = await person();
    // Before: the finding, reproduced — the leaver's token reads the decrypted history and could reset passwords.
    const exportBefore = await queryApi.inject({ url: '/api/admin/history/export?format=ndjson', headers: bearer(leaverSession.token) });
    expect(status(exportBefore)).toBe(200);
    expect(exportBefore.body).toContain(victim.email);

    const deleted = await commandApi.inject({
      method: 'PUT', url: '/api/admin/deleteentities/user', payload: { ids: [leaver.userId] }, headers: bearer(keeperSession.token),
    });
    expect(status(deleted), deleted.body).toBe(200);

    const exportAfter = await queryApi.inject({ url: '/api/admin/history/export?format=ndjson', headers: bearer(leaverSession.token) });
    expect([status(exportAfter), exportAfter.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
    expect(exportAfter.body).not.toContain(victim.email);
    const reset = await post('/admin/resetpassword', { userId: victim.userId, newPassword: 'kaaperdatud-1' }, bearer(leaverSession.token));
    expect([status(reset), reset.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
    // So no log-in as the victim with a password of the leaver's choosing.
    expect(status(await post('/login', { email: victim.email, password: 'kaaperdatud-1' }))).toBe(401);
    expect(await probe((await login(victim.email, victim.password)).token)).toEqual(ACCEPTED);
    await expectEnded(leaverSession);
    expect(await adminProbe(leaverSession.token)).toEqual({ command: 401, query: 401 });
    expect(status(await post('/login', { email: leaver.email, password: leaver.password }))).toBe(401);
    // The keeper goes on.
    expect(await adminProbe(keeperSession.token)).toEqual(ADMIN_ACCEPTED);
  });

  test('an access token older than 15 minutes is refused by both APIs; so is a token of the older format (no sv)', async () => {
    const mari = await person();
    const { token } = await login(mari.email, mari.password);
    const claims = claimsOf(token);
    const { iat: _iat, exp: _exp, ...current } = claims;
    // Signed with the APIs' default lifetime, but issued 15 min 1 s ago.
    const old = commandApi.jwt.sign({ ...current, iat: Math.floor(Date.now() / 1000) - 15 * 60 - 1 } as AccessClaims);
    expect(await probe(old)).toEqual(REFUSED);
    const almost = commandApi.jwt.sign({ ...current, iat: Math.floor(Date.now() / 1000) - 14 * 60 } as AccessClaims);
    expect(await probe(almost)).toEqual(ACCEPTED);
    const { sv: _sv, sid: _sid, ...spec3 } = current;
    const legacy = commandApi.jwt.sign(spec3 as SessionClaims as AccessClaims);
    expect(await probe(legacy)).toEqual(REFUSED);
  });

  test('refresh rotates the cookie; a refresh cookie used again within the grace window is answered, past it the session ends, access tokens included', async () => {
    const mari = await person();
    const first = await login(mari.email, mari.password);
    const rotated = await refresh(first.cookie);
    expect(status(rotated)).toBe(200);
    const second = { token: rotated.json<{ token: string }>().token, cookie: refreshCookieOf(rotated)!.value };
    expect(second.cookie).not.toBe(first.cookie);
    expect(claimsOf(second.token)).toMatchObject({ userId: mari.userId, sid: claimsOf(first.token).sid, sv: claimsOf(first.token).sv });
    expect(await probe(second.token)).toEqual(ACCEPTED);

    // The first cookie again at once (its answer was lost to a navigation): a new successor, the session goes on.
    const again = await refresh(first.cookie);
    expect(status(again)).toBe(200);
    expect(refreshCookieOf(again)!.value).not.toBe(second.cookie);
    expect(claimsOf(again.json<{ token: string }>().token).sid).toBe(claimsOf(first.token).sid);
    expect(await probe(second.token)).toEqual(ACCEPTED);

    // The first cookie past the grace window (copied, or replayed): the whole session ends.
    const later = new Date(clock().getTime() + (REFRESH_REUSE_GRACE_SECONDS + 1) * 1000);
    await expect(accounts.refreshSession(first.cookie, later)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expectEnded(second);
    await expectEnded(first);
    // Another session of the same account is not touched, and a new login works.
    expect(await probe((await login(mari.email, mari.password)).token)).toEqual(ACCEPTED);
  });

  test('logout revokes the session and clears the cookie: the next refresh answers 401, the access token is refused', async () => {
    const mari = await person();
    const session = await login(mari.email, mari.password);
    const other = await login(mari.email, mari.password);
    const out = await post('/session/logout', undefined, { cookie: `${REFRESH_COOKIE}=${session.cookie}` });
    expect([status(out), out.json()]).toEqual([200, { success: true }]);
    const cleared = refreshCookieOf(out)!;
    expect(cleared.value).toBe('');
    expect(cleared.line).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    await expectEnded(session);
    expect(await probe(other.token)).toEqual(ACCEPTED); // the account's other session goes on
    // Without a cookie: nothing to end, still 200.
    expect(status(await post('/session/logout'))).toBe(200);
  });

  test('without the cookie, /session/refresh still takes a valid access token (as before), fresh claims but the same expiry', async () => {
    const mari = await person();
    const { token } = await login(mari.email, mari.password);
    const response = await post('/session/refresh', undefined, bearer(token));
    expect(status(response)).toBe(200);
    expect(refreshCookieOf(response)).toBeUndefined();
    const fresh = claimsOf(response.json<{ token: string }>().token);
    expect(fresh.exp).toBeLessThanOrEqual(claimsOf(token).exp);
    expect(fresh).toMatchObject({ userId: mari.userId, sv: claimsOf(token).sv, sid: claimsOf(token).sid });
    expect(status(await post('/session/refresh'))).toBe(401);
  });

  test("the queue board's cookie opens the board and nothing else; an access token is no board cookie", async () => {
    const boss = await administrator();
    const session = await login(boss.email, boss.password);
    const opened = await post('/admin/queues/session', undefined, bearer(session.token));
    expect(status(opened)).toBe(200);
    const boardCookie = /^sinilill_queues=([^;]+)/.exec(String(opened.headers['set-cookie']))![1]!;
    const board = (value: string) => commandApi.inject({ url: '/api/admin/queues/api/queues', headers: { cookie: `${QUEUE_BOARD_COOKIE}=${value}` } });
    expect(status(await board(boardCookie))).toBe(200);

    // As a bearer token, on every other admin route of both APIs, and as a cookie there: refused.
    const asBearer = bearer(boardCookie);
    const asCookie = { cookie: `${QUEUE_BOARD_COOKIE}=${boardCookie}` };
    for (const headers of [asBearer, asCookie]) {
      expect(status(await commandApi.inject({ method: 'PUT', url: '/api/admin/settings', payload: { registrationEnabled: true }, headers }))).toBe(401);
      expect(status(await commandApi.inject({ method: 'POST', url: '/api/admin/resetpassword', payload: { userId: boss.userId, newPassword: 'board-parool' }, headers }))).toBe(401);
      expect(status(await commandApi.inject({ method: 'POST', url: '/api/admin/replay', headers }))).toBe(401);
      expect(status(await commandApi.inject({ method: 'GET', url: '/api/admin/replay/1', headers }))).toBe(401);
      expect(status(await commandApi.inject({ method: 'POST', url: '/api/admin/queues/session', headers }))).toBe(401);
      expect(status(await commandApi.inject({ method: 'POST', url: '/api/entry', payload: {}, headers }))).toBe(401);
      expect(status(await post('/session/refresh', undefined, headers))).toBe(401);
      for (const url of ['/api/admin/userdata', '/api/admin/teamdata', '/api/admin/entrydata', '/api/admin/history', '/api/admin/history/export', '/api/payment/info']) {
        expect(status(await queryApi.inject({ url, headers })), url).toBe(401);
      }
    }
    // An access token (the administrator's own, valid) is no board cookie.
    expect(status(await board(session.token))).toBe(401);
    // The board cookie dies with the session: a new password for the administrator ends it.
    await accounts.ensureAdmin(boss.email, 'vahetatud-parool-1');
    expect(status(await board(boardCookie))).toBe(401);
  });

  test('cost of the per-request check: one statement on the session tables (measured, logged)', async () => {
    const mari = await person();
    const claims = claimsOf((await login(mari.email, mari.password)).token);
    const boss = await administrator();
    const rounds = 500;
    /** Mean ms of `work` over `rounds` sequential runs, after a warm-up. */
    const mean = async (work: () => Promise<unknown>) => {
      for (let i = 0; i < 50; i++) await work();
      const started = performance.now();
      for (let i = 0; i < rounds; i++) await work();
      return (performance.now() - started) / rounds;
    };
    const perCheckMs = await mean(() => queryApi.sessionGuard.check(claims));
    const commandCheckMs = await mean(() => commandApi.sessionGuard.check(claims));
    // An ADMIN claim also reads the account's stream (admins only).
    const adminQueryMs = await mean(() => queryApi.sessionGuard.isAdmin(boss.userId));
    const adminCommandMs = await mean(() => commandApi.sessionGuard.isAdmin(boss.userId));
    console.log(`ADMIN claim, account read: query API ${adminQueryMs.toFixed(3)} ms, command API ${adminCommandMs.toFixed(3)} ms; `
      + `session check through the command API's AccountService: ${commandCheckMs.toFixed(3)} ms`);
    const plan = await app.pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN ANALYZE SELECT s.version, s.ended_at IS NOT NULL AS ended, (f.family_id IS NOT NULL AND f.revoked_at IS NULL) AS family_live
         FROM app.account_sessions s LEFT JOIN app.session_families f ON f.family_id = $2::uuid AND f.user_id = s.user_id
        WHERE s.user_id = $1`, [claims.userId, claims.sid]);
    const lines = plan.rows.map((row) => row['QUERY PLAN']);
    console.log(`session check: ${perCheckMs.toFixed(3)} ms per request (${rounds} sequential checks through the query API's pool)\n${lines.join('\n')}`);
    expect(lines.join('\n')).toMatch(/Index Scan using account_sessions_pkey/);
    expect(perCheckMs).toBeLessThan(25);
  });
});
