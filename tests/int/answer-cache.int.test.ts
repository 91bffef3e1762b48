/**
 * Public answers cached by position on real PostgreSQL: GET /api/stats and GET
 * /api/settings are computed once per position of the projections they read (and per local day,
 * per state of the entry window), served from memory with a weak ETag (If-None-Match → 304) and
 * precompressed (br, gzip by Accept-Encoding); the ETag changes once an append is projected; a
 * personal answer (the team page) is neither cached nor marked for shared caches.
 *
 * The query API's database handle logs every statement, so "served from memory" is checked as
 * "no read-model query issued". Projections run by hand (catchUp); the change listener is real.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Kysely, PostgresDialect } from 'kysely';
import type { CommandRequest } from '@sinilill/commands';
import type { SessionClaims, StatsAnswer } from '@sinilill/contracts';
import type { ActingUser } from '@sinilill/domain';
import { buildQueryApi, ReadModelChangeListener } from '@sinilill/query-api';
import { type ReadModelDatabase } from '@sinilill/read-models';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const A = 1;
const B = 2;

let commandCount = 0;
const system = (): CommandRequest => {
  const id = `answer-cache-${++commandCount}`;
  return { actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } };
};
const claims = (participantId: number, teamId: number): SessionClaims => ({
  userId: `00000000-0000-4000-8000-${String(participantId).padStart(12, '0')}`, fullName: 'Test Person', is_approved: true,
  participantId, teamId, role: 'USER', isPaid: true,
});

describe('public answers cached by position', () => {
  let app: TestApplication;
  let changes: ReadModelChangeListener;
  let queryApi: FastifyInstance;
  let sessions: TestSessions;
  /** The clock of the query API: moved by the "today" test. */
  let now = new Date('2025-04-20T10:00:00Z');
  /** The SQL of every statement the query API ran. */
  const statements: string[] = [];
  const readModelQueries = () => statements.filter((s) => /"rm"\."(team_stats|stats_totals|settings|team_members|team_entries)"/.test(s)).length;

  const get = (url: string, headers: Record<string, string> = {}) => queryApi.inject({ url, headers });
  const addEntry = async (participantId: number, distance: number, performedAt = '2025-04-20') =>
    (await app.commands.addEntry({ participantId, distance, entryType: 'WALK', performedAt }, system())).position;
  /** Projects everything, then reads GET /api/stats as of `position` (read-your-writes). */
  const statsAfter = async (position: number, headers: Record<string, string> = {}) => {
    await app.project();
    const response = await get('/api/stats', { 'x-min-position': String(position), ...headers });
    expect(response.headers['x-read-your-writes']).toBeUndefined();
    return response;
  };

  beforeAll(async () => {
    app = await testApplication({ now: () => now });
    await app.commands.registerTeam({ teamId: A, teamName: 'Tartu Tammed', description: 'Tammed', joinCode: 'AAAA1111', icon: null }, system());
    await app.commands.registerTeam({ teamId: B, teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'BBBB2222', icon: null }, system());
    const person = { birthYear: 1980, gender: 'FEMALE' as const, newsletter: false };
    await app.commands.registerParticipant({ ...person, participantId: 11, teamId: A, fullName: 'Mari Maasikas', email: 'mari@example.ee', isCaptain: true }, system());
    await app.commands.registerParticipant({ ...person, participantId: 21, teamId: B, fullName: 'Jüri Juurikas', email: 'jyri@example.ee', isCaptain: true }, system());
    // Enough teams for an answer above the compression threshold (1 KB).
    for (let teamId = 3; teamId <= 20; teamId++) {
      await app.commands.registerTeam({ teamId, teamName: `Tiim number ${teamId}`, description: 'x'.repeat(40), joinCode: `CODE${String(teamId).padStart(4, '0')}`, icon: null }, system());
    }
    await addEntry(11, 5);
    sessions = testSessions(app, { now: () => now });
    await sessions.enrol(claims(11, A), claims(21, B));
    await app.project();
    changes = new ReadModelChangeListener({ connectionString: app.url, reconnect: { minMs: 50, maxMs: 200 } });
    await changes.start();
    const db = new Kysely<ReadModelDatabase>({ dialect: new PostgresDialect({ pool: app.pool }), log: (event) => { statements.push(event.query.sql); } });
    queryApi = buildQueryApi({ db, now: () => now, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes });
    await queryApi.ready();
  }, 120_000);

  afterAll(async () => {
    await queryApi?.close();
    await changes?.close();
    await app?.close();
  });

  test('GET /api/stats: a weak ETag, public no-cache, Vary; the same answer again is served from memory', async () => {
    const first = await get('/api/stats');
    expect(first.statusCode).toBe(200);
    expect(first.headers.etag).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.json<StatsAnswer>().teams).toHaveLength(20);

    const before = readModelQueries();
    const second = await get('/api/stats');
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(readModelQueries() - before).toBe(0);
  });

  test('If-None-Match with the current ETag answers 304 with no body; another tag gets the answer', async () => {
    const { etag } = (await get('/api/stats')).headers as { etag: string };
    const notModified = await get('/api/stats', { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    expect(notModified.headers.etag).toBe(etag);
    // In a list, as a strong tag, or `*`: weak comparison matches each.
    expect((await get('/api/stats', { 'if-none-match': `W/"other", ${etag.slice(2)}` })).statusCode).toBe(304);
    expect((await get('/api/stats', { 'if-none-match': '*' })).statusCode).toBe(304);
    const other = await get('/api/stats', { 'if-none-match': 'W/"not-this-one"' });
    expect(other.statusCode).toBe(200);
    expect(other.json<StatsAnswer>().teams).toHaveLength(20);
  });

  test('the ETag changes once an append is projected, and the old one no longer matches', async () => {
    const old = await get('/api/stats');
    const position = await addEntry(21, 7);
    const fresh = await statsAfter(position);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers.etag).not.toBe(old.headers.etag);
    expect(fresh.json<StatsAnswer>().totalDistance).toBe(old.json<StatsAnswer>().totalDistance + 7);
    const revalidated = await get('/api/stats', { 'if-none-match': old.headers.etag as string });
    expect(revalidated.statusCode).toBe(200);
    expect(revalidated.headers.etag).toBe(fresh.headers.etag);
  });

  test('gzip and br answers decode to the same JSON, under the same ETag, compressed once per position', async () => {
    const plain = await get('/api/stats');
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const before = readModelQueries();
    for (const [accept, encoding, decode] of [
      ['gzip, deflate', 'gzip', gunzipSync],
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['br;q=0.5, gzip', 'gzip', gunzipSync],
      ['*', 'br', brotliDecompressSync],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const answer = await get('/api/stats', { 'accept-encoding': accept });
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['content-encoding'], accept).toBe(encoding);
        expect(answer.headers.etag).toBe(plain.headers.etag);
        expect(answer.rawPayload.length).toBeLessThan(plain.rawPayload.length);
        expect(decode(answer.rawPayload).equals(plain.rawPayload)).toBe(true);
      }
    }
    // identity alone, or a coding we do not serve: the plain bytes.
    for (const accept of ['identity', 'zstd', 'gzip;q=0, br;q=0']) {
      const answer = await get('/api/stats', { 'accept-encoding': accept });
      expect(answer.headers['content-encoding'], accept).toBeUndefined();
      expect(answer.rawPayload.equals(plain.rawPayload)).toBe(true);
    }
    expect(readModelQueries() - before).toBe(0);
  });

  test('the stats\' day is part of the key: dailyDistance and the ETag change at local midnight (Europe/Tallinn)', async () => {
    const position = await addEntry(11, 3, '2025-04-21');
    // 23:59:59 in Tallinn (UTC+3) on the 20th: the entry of the 21st is not today's.
    now = new Date('2025-04-20T20:59:59Z');
    const evening = await statsAfter(position);
    const dailyOfA = (answer: LightMyRequestResponse) => answer.json<StatsAnswer>().teams.find((t) => t.team.id === A)!.dailyDistance;
    expect(evening.json<StatsAnswer>().today).toBe('2025-04-20');
    now = new Date('2025-04-20T21:00:00Z');
    const midnight = await get('/api/stats');
    expect(midnight.json<StatsAnswer>().today).toBe('2025-04-21');
    expect(dailyOfA(midnight)).toBe(3);
    expect(dailyOfA(evening)).not.toBe(3);
    expect(midnight.headers.etag).not.toBe(evening.headers.etag);
    now = new Date('2025-04-20T10:00:00Z');
  });

  test('GET /api/settings is cached too, keyed by the entry window', async () => {
    const open = await get('/api/settings');
    expect(open.json()).toMatchObject({ entriesOpen: true });
    const before = readModelQueries();
    expect((await get('/api/settings', { 'if-none-match': open.headers.etag as string })).statusCode).toBe(304);
    expect(readModelQueries() - before).toBe(0);
    now = new Date('2025-05-04T10:00:00Z'); // after the late-entry deadline (3 May, midnight)
    try {
      const closed = await get('/api/settings');
      expect(closed.json()).toMatchObject({ entriesOpen: false });
      expect(closed.headers.etag).not.toBe(open.headers.etag);
    } finally {
      now = new Date('2025-04-20T10:00:00Z');
    }
  });

  test('a personal answer (the team page) carries no shared cache: private, no-store, no ETag, read every time', async () => {
    const member = sessions.bearer(queryApi, claims(11, A));
    const first = await get(`/api/team/${A}/participants`, { authorization: member });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-store');
    expect(first.headers.etag).toBeUndefined();
    const before = readModelQueries();
    await get(`/api/team/${A}/participants`, { authorization: member });
    expect(readModelQueries() - before).toBeGreaterThan(0);
    // Another team's member is refused, whatever was answered before.
    const stranger = await get(`/api/team/${A}/participants`, { authorization: sessions.bearer(queryApi, claims(21, B)) });
    expect(stranger.statusCode).toBe(403);
  });

  test('while the change listener is down nothing is cached: each request reads the read models', async () => {
    const second = new ReadModelChangeListener({ connectionString: app.url });
    await second.start();
    const db = new Kysely<ReadModelDatabase>({ dialect: new PostgresDialect({ pool: app.pool }), log: (event) => { statements.push(event.query.sql); } });
    const api = buildQueryApi({ db, now: () => now, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes: second });
    try {
      await api.inject({ url: '/api/stats' });
      let before = readModelQueries();
      await api.inject({ url: '/api/stats' });
      expect(readModelQueries() - before).toBe(0);
      await second.close();
      before = readModelQueries();
      const one = await api.inject({ url: '/api/stats' });
      const two = await api.inject({ url: '/api/stats', headers: { 'if-none-match': one.headers.etag as string } });
      expect(readModelQueries() - before).toBeGreaterThanOrEqual(2);
      // The ETag is the bytes': a revalidation still answers 304.
      expect(two.statusCode).toBe(304);
    } finally {
      await api.close();
    }
  });

  test('the cache is bounded: with room for one entry, stats and settings take turns', async () => {
    const db = new Kysely<ReadModelDatabase>({ dialect: new PostgresDialect({ pool: app.pool }), log: (event) => { statements.push(event.query.sql); } });
    const api = buildQueryApi({ db, now: () => now, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes, answerCache: { maxEntries: 1 } });
    try {
      await api.inject({ url: '/api/stats' });
      let before = readModelQueries();
      await api.inject({ url: '/api/stats' });
      expect(readModelQueries() - before).toBe(0);
      await api.inject({ url: '/api/settings' });
      before = readModelQueries();
      await api.inject({ url: '/api/stats' });
      expect(readModelQueries() - before).toBeGreaterThan(0);
    } finally {
      await api.close();
    }
  });
});
