/**
 * The team card and join code commands end to end on real PostgreSQL: icon uploads
 * judged by content and stored outside the event log, served by the query API with immutable
 * caching; the description limit; join code replacement and what /jointeam then accepts; who may
 * do either; and the gateway's routing of the one GET that is a command.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (the command API registers the plugin)
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import sharp from 'sharp';
import { AccountDirectory, AccountService, CommandService, withAfterCommit } from '@sinilill/commands';
import { PUBLIC_ATTRIBUTES_BODY_LIMIT, type SessionClaims } from '@sinilill/contracts';
import { streams, type ActingUser, type TeamPublicAttributesChanged } from '@sinilill/domain';
import { smtpMailer, type Mailer } from '@sinilill/mail';
import { MediaStore } from '@sinilill/media';
import { buildCommandApi } from '@sinilill/command-api';
import { buildGateway } from '@sinilill/gateway';
import { buildQueryApi } from '@sinilill/query-api';
import { testApplication, type TestApplication } from '../support/app';
import { startMailDev, type RunningMailDev } from '../support/maildev';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const NOW = new Date('2025-04-15T09:00:00Z');
const ICON_URL = /^\/api\/images\/[0-9a-f]{64}\.webp$/;

const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;
const png = (width = 120, height = 80, colour = '#2a6') =>
  sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();

describe('team card and join code through the APIs', () => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let media: MediaStore;
  let commandApi: FastifyInstance;
  let queryApi: FastifyInstance;
  // Joining sends a confirmation mail: a real SMTP server takes it (its content is tested elsewhere).
  let mail: RunningMailDev;
  let mailer: Mailer;
  const woken: number[] = [];
  let serial = 0;
  const team = { a: 0, b: 0 };
  let sessions: TestSessions;

  const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });
  const member = (participantId: number, teamId: number): SessionClaims => ({
    userId: `00000000-0000-4000-8000-0000000000${participantId}`, fullName: 'Test Person', is_approved: true, participantId, teamId, role: 'USER', isPaid: true,
  });
  const admin: SessionClaims = {
    userId: 'b7d1f6c4-3f51-4a4c-9d51-2f0f5c6c0a01', fullName: 'Administrator', is_approved: true, participantId: null, teamId: null, role: 'ADMIN', isPaid: false,
  };
  // Real accounts with live sessions (a token needs its account's session version).
  const bearer = (claims: SessionClaims) => ({ authorization: sessions.bearer(commandApi, claims) });
  const memberOfA = () => bearer(member(11, team.a));
  const put = (teamId: number, payload: unknown, headers: Record<string, string> = memberOfA()) =>
    commandApi.inject({ method: 'PUT', url: `/api/team/${teamId}/publicattributes`, payload: payload as object, headers });
  const newCode = (teamId: number, headers: Record<string, string> = memberOfA()) =>
    commandApi.inject({ method: 'GET', url: `/api/team/${teamId}/newcode`, headers });
  const expectRefusal = (response: LightMyRequestResponse, status: number, code: string) => {
    expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({ status, body: { message: code } });
  };
  const join = (code: string) => commandApi.inject({
    method: 'POST', url: '/api/jointeam',
    payload: {
      team_join_code: code, full_name: 'Uus Liige', email: `joiner-${++serial}@example.ee`, gender: 'FEMALE', birth_year: 1990,
      password: 'kevadine-salasõna-1', newsletter: false, type: 'JOIN_TEAM', lang: 'est',
    },
  });
  const teamEvents = (teamId: number) => app.store.readStream(streams.team(teamId));
  const imageCount = async () => Number((await app.pool.query<{ n: string }>('SELECT count(*) AS n FROM media.images')).rows[0]!.n);

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    accountPool = new pg.Pool({ connectionString: app.url, max: 6 });
    const directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
    // Every append that wrote something is recorded in `woken` (the store's after-commit hook).
    const store = withAfterCommit(app.store, (position) => { woken.push(position); });
    const commands = new CommandService({ store, ids: app.ids, now: () => NOW, directory });
    mail = await startMailDev();
    mailer = smtpMailer({ url: mail.smtpUrl, from: 'Sinilill <info@sinilill.test>' });
    const accounts = new AccountService({ store, ids: app.ids, directory, mailer, now: () => NOW, publicUrl: 'http://sinilill.test' });
    media = new MediaStore(app.pool);
    // Team A (member 11) and team B (member 21), registered as the importer would.
    team.a = (await commands.registerTeam({ teamName: 'Tartu Tammed', description: 'We walk.', joinCode: 'AAAA2222', icon: null }, system('team-a'))).teamId;
    team.b = (await commands.registerTeam({ teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'BBBB3333', icon: null }, system('team-b'))).teamId;
    await commands.registerParticipant({ participantId: 11, teamId: team.a, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE', isCaptain: true, newsletter: false }, system('p11'));
    await commands.registerParticipant({ participantId: 21, teamId: team.b, fullName: 'Jüri Juurikas', email: 'jyri@example.ee', birthYear: 1975, gender: 'MALE', isCaptain: true, newsletter: false }, system('p21'));
    await app.ids.reserveThrough('participant', 100);
    sessions = testSessions(app, { now: () => NOW });
    await sessions.enrol(member(11, team.a), member(21, team.b), admin);
    commandApi = buildCommandApi({
      commands, accounts, media, jwtSecret: SECRET, rateLimit: { max: 1000, timeWindowMs: 60_000 },
    });
    await commandApi.ready();
    queryApi = buildQueryApi({
      db: app.db, now: () => NOW, readYourWritesTimeoutMs: 1000, jwtSecret: SECRET, media,
      changes: { subscribe: () => () => undefined }, // the live stream is not tested here
    });
    await queryApi.ready();
  }, 120_000);

  afterAll(async () => {
    await commandApi?.close();
    await queryApi?.close();
    mailer?.close();
    await mail?.close();
    await accountPool?.end();
    await app?.close();
  });

  describe('PUT /api/team/{id}/publicattributes: the icon', () => {
    test('a GIF, a PNG over 5 MB and a text file called PNG are refused, whatever they declare', async () => {
      const gif = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#f00' } }).gif().toBuffer();
      expectRefusal(await put(team.a, { icon: dataUrl('image/gif', gif) }), 400, 'NOT_ALLOWED_FILE_TYPE');
      expectRefusal(await put(team.a, { icon: dataUrl('image/png', gif) }), 400, 'NOT_ALLOWED_FILE_TYPE');

      // A real PNG of random noise, stored uncompressed: about 6.2 MB.
      const big = await sharp(randomBytes(1600 * 1300 * 3), { raw: { width: 1600, height: 1300, channels: 3 } })
        .png({ compressionLevel: 0, adaptiveFiltering: false }).toBuffer();
      expect(big.length).toBeGreaterThan(6_000_000);
      expect((await sharp(big).metadata()).format).toBe('png');
      expectRefusal(await put(team.a, { icon: dataUrl('image/png', big) }), 413, 'MAX_IMAGE_SIZE');

      const text = Buffer.from('Tere! This is a text file someone named icon.png.\n');
      expectRefusal(await put(team.a, { icon: dataUrl('image/png', text) }), 400, 'NOT_ALLOWED_FILE_TYPE');

      expect((await teamEvents(team.a)).map((e) => e.type)).toEqual(['TeamRegistered']);
      expect(await imageCount()).toBe(0);
    });

    test('a body over the route’s 16 MiB limit is answered MAX_IMAGE_SIZE too', async () => {
      const payload = JSON.stringify({ icon: `data:image/png;base64,${'A'.repeat(PUBLIC_ATTRIBUTES_BODY_LIMIT)}` });
      const response = await commandApi.inject({
        method: 'PUT', url: `/api/team/${team.a}/publicattributes`, payload, headers: { ...memberOfA(), 'content-type': 'application/json' },
      });
      expectRefusal(response, 413, 'MAX_IMAGE_SIZE');
    });

    test('malformed or foreign icon values are INVALID_REQUEST', async () => {
      expectRefusal(await put(team.a, { icon: 'https://example.com/icon.png' }), 400, 'INVALID_REQUEST');
      expectRefusal(await put(team.a, { icon: '/api/images/0000000000000000000000000000000000000000000000000000000000000000.webp' }), 400, 'INVALID_REQUEST');
      expectRefusal(await put(team.a, { icon: 'data:image/png;base64,not base64!' }), 400, 'INVALID_REQUEST');
      expectRefusal(await put(team.a, { icon: 5 }), 400, 'INVALID_REQUEST');
      expectRefusal(await put(team.a, { name: 'x' }), 400, 'INVALID_REQUEST');
    });

    test('a real PNG is stored as a 256×256 WebP; the event holds only its URL, which the query API serves with immutable caching', async () => {
      const response = await put(team.a, { icon: dataUrl('image/png', await png()) });
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json() as { success: boolean; team: { id: number; icon: string; description: string }; position: number };
      expect(answer).toEqual({ success: true, team: { id: team.a, icon: expect.stringMatching(ICON_URL), description: 'We walk.' }, position: expect.any(Number) });
      expect(woken).toContain(answer.position);

      const events = await teamEvents(team.a);
      const changed = events.at(-1)!;
      expect(changed).toMatchObject({ type: 'TeamPublicAttributesChanged', globalPosition: answer.position });
      expect(changed.data).toEqual({ teamId: team.a, icon: answer.team.icon, changedAt: NOW.toISOString() });
      expect(JSON.stringify(changed.data).length).toBeLessThan(200);

      const served = await queryApi.inject({ method: 'GET', url: answer.team.icon });
      expect(served.statusCode).toBe(200);
      expect(served.headers).toMatchObject({
        'content-type': 'image/webp',
        'cache-control': 'public, max-age=31536000, immutable',
        etag: `"${answer.team.icon.slice('/api/images/'.length, -'.webp'.length)}"`,
      });
      expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });

      const again = await queryApi.inject({ method: 'GET', url: answer.team.icon, headers: { 'if-none-match': served.headers.etag as string } });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const weak = await queryApi.inject({ method: 'GET', url: answer.team.icon, headers: { 'if-none-match': `"other", W/${served.headers.etag as string}` } });
      expect(weak.statusCode).toBe(304);

      // The same picture again: the same stored image, and nothing to record.
      const repeat = await put(team.a, { icon: dataUrl('image/png', await png()) });
      expect(repeat.json()).toMatchObject({ team: { icon: answer.team.icon }, position: 0 });
      expect(await imageCount()).toBe(1);
      expect(await teamEvents(team.a)).toHaveLength(events.length);
    });

    test('unknown and malformed image names are 404 NOT_FOUND', async () => {
      expectRefusal(await queryApi.inject({ url: `/api/images/${'0'.repeat(64)}.webp` }), 404, 'NOT_FOUND');
      expectRefusal(await queryApi.inject({ url: '/api/images/..%2F..%2Fetc%2Fpasswd' }), 404, 'NOT_FOUND');
      expectRefusal(await queryApi.inject({ url: `/api/images/${'A'.repeat(64)}.webp` }), 404, 'NOT_FOUND');
    });

    test('sending the current icon back keeps it; a JPEG replaces it; null removes it', async () => {
      const current = (await iconOf(team.a))!;
      const kept = await put(team.a, { icon: current, description: 'We walk and run.' });
      expect(kept.statusCode, kept.body).toBe(200);
      expect(kept.json()).toMatchObject({ team: { icon: current, description: 'We walk and run.' } });
      expect((await teamEvents(team.a)).at(-1)!.data).toEqual({ teamId: team.a, description: 'We walk and run.', changedAt: NOW.toISOString() });

      const jpeg = await sharp({ create: { width: 90, height: 200, channels: 3, background: '#36c' } }).jpeg().toBuffer();
      const replaced = await put(team.a, { icon: dataUrl('image/jpg', jpeg) });
      expect(replaced.statusCode, replaced.body).toBe(200);
      const icon = (replaced.json() as { team: { icon: string } }).team.icon;
      expect(icon).toMatch(ICON_URL);
      expect(icon).not.toBe(current);

      const removed = await put(team.a, { icon: null });
      expect(removed.json()).toMatchObject({ team: { icon: null } });
      expect((await teamEvents(team.a)).at(-1)!.data).toEqual({ teamId: team.a, icon: null, changedAt: NOW.toISOString() });
    });
  });

  /** The team's icon from its stream. */
  async function iconOf(teamId: number): Promise<string | null> {
    let icon: string | null = null;
    for (const event of await teamEvents(teamId)) {
      const data = event.data as TeamPublicAttributesChanged['data'];
      if (event.type === 'TeamPublicAttributesChanged' && data.icon !== undefined) icon = data.icon;
    }
    return icon;
  }

  test('a description of 256 characters is kept, 257 is VALUE_TOO_LONG', async () => {
    const ok = await put(team.a, { description: 'd'.repeat(256) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ team: { description: 'd'.repeat(256) }, position: expect.any(Number) });
    expectRefusal(await put(team.a, { description: 'd'.repeat(257) }), 400, 'VALUE_TOO_LONG');
    // Unchanged: nothing recorded, position 0.
    expect((await put(team.a, { description: 'd'.repeat(256) })).json()).toMatchObject({ position: 0 });
  });

  describe('GET /api/team/{id}/newcode', () => {
    const currentCode = async (teamId: number) => {
      let code = '';
      for (const event of await teamEvents(teamId)) {
        if (event.type === 'TeamRegistered' || event.type === 'JoinCodeReplaced') code = (event.data as { joinCode: string }).joinCode;
      }
      return code;
    };

    test('replaces the code: the old one stops admitting at /jointeam, the new one admits', async () => {
      const old = await currentCode(team.b);
      expect(old).toBe('BBBB3333');
      expect((await join(old)).statusCode).toBe(200); // works before

      const response = await newCode(team.b, bearer(member(21, team.b)));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const answer = response.json() as { code: string; created_at: string; position: number };
      expect(answer).toEqual({ code: expect.stringMatching(/^[ACDEFGHJKMNPQRTUVWXY2345679]{8}$/), created_at: NOW.toISOString(), position: expect.any(Number) });
      expect(answer.code).not.toBe(old);
      expect(woken).toContain(answer.position);
      expect((await teamEvents(team.b)).at(-1)).toMatchObject({ type: 'JoinCodeReplaced', globalPosition: answer.position, data: { joinCode: answer.code } });

      expectRefusal(await join(old), 400, 'INVALID_JOIN_CODE');
      const joined = await join(answer.code.toLowerCase());
      expect(joined.statusCode, joined.body).toBe(200);
    });

    test('two replacements in a row leave only the last code working, and one live row in app.join_codes', async () => {
      const first = (await newCode(team.a)).json() as { code: string };
      const second = (await newCode(team.a)).json() as { code: string };
      expect(second.code).not.toBe(first.code);
      expectRefusal(await join(first.code), 400, 'INVALID_JOIN_CODE');
      expectRefusal(await join('AAAA2222'), 400, 'INVALID_JOIN_CODE');
      expect((await join(second.code)).statusCode).toBe(200);
      const { rows } = await app.pool.query<{ code: string }>('SELECT code FROM app.join_codes WHERE team_id = $1 AND revoked_at IS NULL', [team.a]);
      expect(rows).toEqual([{ code: second.code }]);
    });

    test('concurrent replacements of one team still end with exactly one working code', async () => {
      const answers = await Promise.all([newCode(team.a), newCode(team.a), newCode(team.a)]);
      const codes = answers.map((response) => {
        expect(response.statusCode, response.body).toBe(200);
        return (response.json() as { code: string }).code;
      });
      const current = await currentCode(team.a);
      expect(codes).toContain(current);
      const { rows } = await app.pool.query<{ code: string }>('SELECT code FROM app.join_codes WHERE team_id = $1 AND revoked_at IS NULL', [team.a]);
      expect(rows).toEqual([{ code: current }]);
      for (const code of codes.filter((c) => c !== current)) expectRefusal(await join(code), 400, 'INVALID_JOIN_CODE');
    });

    test('HEAD draws no code', async () => {
      const before = await currentCode(team.a);
      const head = await commandApi.inject({ method: 'HEAD', url: `/api/team/${team.a}/newcode`, headers: memberOfA() });
      expect(head.statusCode).toBe(404);
      expect(await currentCode(team.a)).toBe(before);
    });
  });

  describe('who may', () => {
    test('a member of another team gets 403 FORBIDDEN from both, and their upload is not even processed', async () => {
      const images = await imageCount();
      const eventsOfB = (await teamEvents(team.b)).length;
      expectRefusal(await put(team.b, { icon: dataUrl('image/png', await png(64, 64, '#c33')), description: 'mine now' }), 403, 'FORBIDDEN');
      expectRefusal(await newCode(team.b), 403, 'FORBIDDEN');
      expect(await imageCount()).toBe(images);
      expect(await teamEvents(team.b)).toHaveLength(eventsOfB);
    });

    test('without a token, or with a forged one: 401 UNAUTHORIZED', async () => {
      expectRefusal(await put(team.a, { description: 'x' }, {}), 401, 'UNAUTHORIZED');
      expectRefusal(await newCode(team.a, {}), 401, 'UNAUTHORIZED');
      const forged = `${commandApi.jwt.sign(sessions.access(member(11, team.a))).slice(0, -4)}AAAA`;
      expectRefusal(await newCode(team.a, { authorization: `Bearer ${forged}` }), 401, 'UNAUTHORIZED');
    });

    test('a stale teamId claim grants nothing: the team is read from the log', async () => {
      expectRefusal(await put(team.b, { description: 'x' }, bearer(member(11, team.b))), 403, 'FORBIDDEN');
    });

    test('an administrator may do both for any team; an unknown team is 404 NOT_FOUND', async () => {
      const changed = await put(team.b, { icon: dataUrl('image/png', await png(40, 40, '#963')), description: 'Set by the organisers.' }, bearer(admin));
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ team: { id: team.b, icon: expect.stringMatching(ICON_URL), description: 'Set by the organisers.' } });
      const code = await newCode(team.b, bearer(admin));
      expect(code.statusCode, code.body).toBe(200);
      expectRefusal(await put(9999, { description: 'x' }, bearer(admin)), 404, 'NOT_FOUND');
      expectRefusal(await newCode(9999, bearer(admin)), 404, 'NOT_FOUND');
      expectRefusal(await newCode(9999), 403, 'FORBIDDEN'); // a stranger learns nothing about which teams exist
    });

    test('malformed ids are 400 INVALID_REQUEST', async () => {
      expectRefusal(await put(0, { description: 'x' }, bearer(admin)), 400, 'INVALID_REQUEST');
      expectRefusal(await newCode(99999999999, bearer(admin)), 400, 'INVALID_REQUEST');
    });
  });
});

describe('the gateway', () => {
  const upstreams: FastifyInstance[] = [];
  let gateway: FastifyInstance;
  const seen: { upstream: string; method: string; url: string; bytes: number }[] = [];

  /** A stand-in API that records what reaches it. */
  async function upstream(name: string): Promise<string> {
    const api = Fastify({ bodyLimit: 32 * 1024 * 1024 });
    api.removeContentTypeParser('application/json');
    api.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    api.all('/api/*', async (request) => {
      const bytes = Buffer.isBuffer(request.body) ? request.body.length : 0;
      seen.push({ upstream: name, method: request.method, url: request.url, bytes });
      return { upstream: name, bytes };
    });
    upstreams.push(api);
    await api.listen({ host: '127.0.0.1', port: 0 });
    return `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
  }

  beforeAll(async () => {
    gateway = buildGateway({ queryApiUrl: await upstream('query'), commandApiUrl: await upstream('command'), webRoot: '/nonexistent/web/dist' });
    await gateway.ready();
  });

  afterAll(async () => {
    await gateway?.close();
    for (const api of upstreams) await api.close();
  });

  test('GET /api/team/{id}/newcode goes to the command API; every other GET to the query API', async () => {
    const target = async (url: string, method: 'GET' | 'HEAD' = 'GET') => {
      const response = await gateway.inject({ method, url });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(200);
      return seen.at(-1)!;
    };
    expect(await target('/api/team/7/newcode')).toMatchObject({ upstream: 'command', method: 'GET', url: '/api/team/7/newcode' });
    expect(await target('/api/team/7/joincode')).toMatchObject({ upstream: 'query', url: '/api/team/7/joincode' });
    expect(await target('/api/team/7')).toMatchObject({ upstream: 'query', url: '/api/team/7' });
    expect(await target('/api/team/7/entries?x=1')).toMatchObject({ upstream: 'query', url: '/api/team/7/entries?x=1' });
    expect(await target(`/api/images/${'a'.repeat(64)}.webp`)).toMatchObject({ upstream: 'query' });
    expect(await target('/api/stats', 'HEAD')).toMatchObject({ upstream: 'query', method: 'HEAD' });
  });

  test('a 6 MB and a 12 MB JSON body pass through to the command API whole', async () => {
    for (const size of [6 * 1024 * 1024, 12 * 1024 * 1024]) {
      const payload = JSON.stringify({ icon: `data:image/png;base64,${'A'.repeat(size)}` });
      const response = await gateway.inject({ method: 'PUT', url: '/api/team/7/publicattributes', payload, headers: { 'content-type': 'application/json' } });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ upstream: 'command', bytes: Buffer.byteLength(payload) });
    }
  });
});
