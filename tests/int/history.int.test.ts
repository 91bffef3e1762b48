/**
 * The administrators' event history on real PostgreSQL: the log itself, filtered and
 * keyset-paged, a stream's timeline of changes with actors, a team's figures as of an instant
 * (equal to the read model's now, without an entry recorded later), and the export as NDJSON and
 * CSV with an erased person's data gone. Only an administrator may read any of it.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (authPlugin registers the plugin)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { CommandRequest } from '@sinilill/commands';
import type { HistoryEvent, HistoryPage, SessionClaims, TeamAnswer, TeamAsOfAnswer, TimelineAnswer } from '@sinilill/contracts';
import { PERSONAL_DATA_FIELDS, type ActingUser } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { buildQueryApi } from '@sinilill/query-api';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const MARI: ActingUser = { userId: 'user-11', role: 'USER', participantId: 11, teamId: 1 };
const NOW = new Date('2025-04-20T10:00:00Z');
const A = 1;
const B = 2;

let commandCount = 0;
const as = (actor: ActingUser, at = '2025-04-12T09:00:00Z'): CommandRequest => {
  const id = `history-${++commandCount}`;
  return { actor, metadata: { commandId: id, correlationId: `corr-${id}`, causationId: null }, now: new Date(at) };
};
/** The accounts behind the tokens (real accounts with live sessions): Mari's and the administrator's. */
const ACCOUNT = { mari: '00000000-0000-4000-8000-000000000011', admin: '00000000-0000-4000-8000-00000000ad01' };
const claims = (participantId: number | null, teamId: number | null, role: 'USER' | 'ADMIN'): SessionClaims => ({
  userId: participantId === null ? ACCOUNT.admin : ACCOUNT.mari, fullName: 'Test Person', is_approved: true, participantId, teamId, role, isPaid: true,
});
const walk = (participantId: number, distance: number) => ({ participantId, distance, entryType: 'WALK', performedAt: '2025-04-10' });

describe('the event history for administrators', () => {
  let app: TestApplication;
  let vault: PersonalDataVault;
  let queryApi: FastifyInstance;
  let sessions: TestSessions;
  /** Mari's entry, edited twice (5 → 7.5 → 10). */
  let edited = 0;
  /** Kati's entry, added last. */
  let late = 0;

  const admin = () => sessions.bearer(queryApi, claims(null, null, 'ADMIN'));
  const user = () => sessions.bearer(queryApi, claims(11, A, 'USER'));
  const get = (url: string, authorization?: string) =>
    queryApi.inject({ url, headers: authorization ? { authorization } : {} });
  const page = async (query: string) => {
    const response = await get(`/api/admin/history?${query}`, admin());
    expect(response.statusCode).toBe(200);
    return response.json<HistoryPage>();
  };

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    // The history's own protected store, so that the vault's forget below drops the key from
    // the very cache the history decrypts with (another process would see it within its TTL).
    vault = new PersonalDataVault({ pool: app.pool });
    const history = withPersonalDataProtection(new PostgresEventStore({ pool: app.pool }), vault, PERSONAL_DATA_FIELDS);
    const person = { birthYear: 1980, gender: 'FEMALE' as const, newsletter: false };
    await app.commands.registerTeam({ teamId: A, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, as(SYSTEM, '2025-03-01T08:00:00Z'));
    await app.commands.registerTeam({ teamId: B, teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'BBBB2222', icon: null }, as(SYSTEM, '2025-03-01T08:00:00Z'));
    await app.commands.registerParticipant({ ...person, participantId: 11, teamId: A, fullName: 'Mari Maasikas', email: 'mari@example.ee', isCaptain: true }, as(SYSTEM));
    await app.commands.registerParticipant({ ...person, participantId: 12, teamId: A, fullName: 'Kati Karu', email: 'kati@example.ee', isCaptain: false }, as(SYSTEM));
    await app.commands.registerParticipant({ ...person, participantId: 21, teamId: B, fullName: 'Jüri Juurikas', email: 'jyri@example.ee', isCaptain: true }, as(SYSTEM));
    edited = (await app.commands.addEntry(walk(11, 5), as(SYSTEM))).entry.id;
    await app.commands.editEntry(edited, walk(11, 7.5), as(MARI));
    await app.commands.editEntry(edited, walk(11, 10), as(SYSTEM));
    await app.commands.addEntry(walk(21, 3), as(SYSTEM));
    late = (await app.commands.addEntry(walk(12, 2.34), as(SYSTEM))).entry.id;
    // Two accounts last (AdminRegistered, UserRegistered of Mari): the log has 12 events.
    sessions = testSessions(app, { now: () => NOW });
    await sessions.enrol(claims(null, null, 'ADMIN'), claims(11, A, 'USER'));
    await app.project();
    queryApi = buildQueryApi({
      db: app.db, now: () => NOW, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET,
      changes: { subscribe: () => () => undefined }, history,
    });
    await queryApi.ready();
  }, 120_000);

  afterAll(async () => {
    await queryApi?.close();
    await app?.close();
  });

  describe('only an administrator reads the history', () => {
    const routes = ['/api/admin/history', '/api/admin/history/timeline?stream=team-1', `/api/admin/history/team/${A}/as-of?at=2025-04-20T00:00:00Z`, '/api/admin/history/export'];

    test.each(routes)('without a token: 401 from %s', async (url) => {
      const response = await get(url);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'UNAUTHORIZED' });
    });

    test.each(routes)('a participant: 403 FORBIDDEN from %s', async (url) => {
      const response = await get(url, user());
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: 'FORBIDDEN' });
    });
  });

  describe('GET /api/admin/history', () => {
    test('the log in global order, with actors, correlation ids and decrypted personal data', async () => {
      const { events, next } = await page('limit=500');
      expect(next).toBeNull();
      expect(events).toHaveLength(12);
      const positions = events.map((e) => e.position);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      const mari = events.find((e) => e.type === 'ParticipantRegistered' && e.stream === 'participant-11');
      expect(mari?.data).toMatchObject({ fullName: 'Mari Maasikas', email: 'mari@example.ee' });
      const byMari = events.find((e) => e.actor?.userId === 'user-11');
      expect(byMari).toMatchObject({ type: 'EntryEdited', stream: `entry-${edited}`, actor: { userId: 'user-11', role: 'USER' } });
      expect(byMari?.correlationId).toMatch(/^corr-history-/);
    });

    test('keyset pages: next is the after of the following page, null at the end', async () => {
      const first = await page('limit=5');
      expect(first.events).toHaveLength(5);
      expect(first.next).toBe(first.events[4]!.position);
      const second = await page(`limit=5&after=${first.next}`);
      const third = await page(`limit=5&after=${second.next}`);
      expect(third.events).toHaveLength(2);
      expect(third.next).toBeNull();
      const all = await page('limit=500');
      expect([...first.events, ...second.events, ...third.events]).toEqual(all.events);
    });

    test('newest first: keyset pages walk down, numbered pages carry the total, a moment finds its page', async () => {
      const all = (await page('limit=500')).events;
      const newest = [...all].reverse();
      const first = await page('limit=5&order=desc');
      expect(first.events).toEqual(newest.slice(0, 5));
      const second = await page(`limit=5&order=desc&after=${first.next}`);
      expect(second.events).toEqual(newest.slice(5, 10));

      const numbered = await page('limit=5&order=desc&page=3');
      expect(numbered).toMatchObject({ total: 12, page: 3, next: null });
      expect(numbered.events).toEqual(newest.slice(10));
      expect((await page('limit=5&page=2')).events).toEqual(all.slice(5, 10));
      expect((await page('limit=5&page=9')).events).toEqual([]);

      // The page of a moment: newest first, the first event recorded at or before it.
      const moment = all[3]!.recordedAt;
      const found = await page(`limit=5&order=desc&at=${moment}`);
      const listed = newest.findIndex((e) => e.recordedAt <= moment);
      expect(found.page).toBe(Math.floor(listed / 5) + 1);
      expect(found.events).toContainEqual(newest[listed]);
    });

    test('filters: stream, entity, type, team, participant, actor and time range', async () => {
      const types = (p: HistoryPage) => p.events.map((e) => e.type);
      expect(types(await page(`stream=entry-${edited}`))).toEqual(['EntryAdded', 'EntryEdited', 'EntryEdited']);
      expect(types(await page('entity=team'))).toEqual(['TeamRegistered', 'TeamRegistered']);
      expect((await page('entity=participant')).events.map((e) => e.stream)).toEqual(['participant-11', 'participant-12', 'participant-21']);
      expect(types(await page('type=EntryEdited'))).toEqual(['EntryEdited', 'EntryEdited']);
      expect((await page(`team=${B}`)).events.map((e) => e.stream)).toEqual(['team-2', 'participant-21', expect.stringMatching(/^entry-/)]);
      expect(types(await page('participant=12'))).toEqual(['ParticipantRegistered', 'EntryAdded']);
      expect((await page('actor=user-11')).events.map((e) => e.stream)).toEqual([`entry-${edited}`]);
      const all = (await page('limit=500')).events;
      const cut = all[5]!.recordedAt;
      const before = await page(`to=${cut}`);
      const after = await page(`from=${cut}`);
      expect(before.events.length + after.events.length).toBe(all.length);
      expect(after.events[0]?.recordedAt).toBe(cut);
      expect(types(await page('entity=settings'))).toEqual([]);
    });

    test('a malformed or oversized query is refused', async () => {
      for (const query of ['limit=501', 'limit=0', 'entity=planet', 'from=yesterday', 'after=-1', 'unknown=1', 'order=up', 'page=0', 'page=2&after=3',
        'page=1&at=2025-03-01T08:00:00Z', 'at=soon']) {
        const response = await get(`/api/admin/history?${query}`, admin());
        expect(response.statusCode, query).toBe(400);
        expect(response.json()).toEqual({ message: 'INVALID_REQUEST' });
      }
    });
  });

  describe('GET /api/admin/history/timeline', () => {
    test('an entry edited twice: distance 5 → 7.5 → 10, each step with its actor', async () => {
      const response = await get(`/api/admin/history/timeline?stream=entry-${edited}`, admin());
      expect(response.statusCode).toBe(200);
      const steps = response.json<TimelineAnswer>();
      expect(steps.map((s) => [s.type, s.actor, s.changes.find((c) => c.field === 'distance')])).toEqual([
        ['EntryAdded', { userId: null, role: 'SYSTEM' }, { field: 'distance', before: null, after: 5 }],
        ['EntryEdited', { userId: 'user-11', role: 'USER' }, { field: 'distance', before: 5, after: 7.5 }],
        ['EntryEdited', { userId: null, role: 'SYSTEM' }, { field: 'distance', before: 7.5, after: 10 }],
      ]);
      expect(steps.every((s) => s.correlationId?.startsWith('corr-history-'))).toBe(true);
    });

    test('an unknown stream has an empty timeline', async () => {
      const response = await get('/api/admin/history/timeline?stream=entry-999999', admin());
      expect(response.json()).toEqual([]);
    });
  });

  describe('GET /api/admin/history/team/{id}/as-of', () => {
    test('as of now, the figures of GET /api/team/{id}', async () => {
      const asOf = await get(`/api/admin/history/team/${A}/as-of?at=${new Date(Date.now() + 60_000).toISOString()}`, admin());
      expect(asOf.statusCode).toBe(200);
      const figures = asOf.json<TeamAsOfAnswer>();
      const team = (await get(`/api/team/${A}`, admin())).json<TeamAnswer>();
      expect(figures).toMatchObject({
        teamId: A, teamName: team.team_name, participants: team.participant_count, distance: team.distance,
        prestige: team.prestige, inLapDistance: team.inLapDistance, blueFlowers: team.blueFlowers,
      });
      expect(figures.distanceExact).toBe(12.34);
    });

    test('as of just before an entry was recorded, without it; as of that instant, with it', async () => {
      const { events } = await page(`stream=entry-${late}`);
      const recorded = new Date(events[0]!.recordedAt);
      const before = (await get(`/api/admin/history/team/${A}/as-of?at=${new Date(recorded.getTime() - 1).toISOString()}`, admin())).json<TeamAsOfAnswer>();
      expect(before).toMatchObject({ distanceExact: 10, distance: 10, participants: 2 });
      const at = (await get(`/api/admin/history/team/${A}/as-of?at=${recorded.toISOString()}`, admin())).json<TeamAsOfAnswer>();
      expect(at.distanceExact).toBe(12.34);
    });

    test('before the team existed: 404', async () => {
      const response = await get(`/api/admin/history/team/${A}/as-of?at=2000-01-01T00:00:00Z`, admin());
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'NOT_FOUND' });
    });
  });

  describe('GET /api/admin/history/export', () => {
    test('NDJSON: one event per line, filtered, as an attachment', async () => {
      const response = await get(`/api/admin/history/export?format=ndjson&stream=entry-${edited}`, admin());
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/x-ndjson/);
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="history-.*\.ndjson"$/);
      const lines = response.body.trim().split('\n').map((line) => JSON.parse(line) as HistoryEvent);
      expect(lines.map((e) => [e.type, e.actor?.role])).toEqual([['EntryAdded', 'SYSTEM'], ['EntryEdited', 'USER'], ['EntryEdited', 'SYSTEM']]);
    });

    test('CSV: a header row, then one row per event with its data as JSON', async () => {
      const response = await get(`/api/admin/history/export?format=csv&type=EntryEdited`, admin());
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/csv/);
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="history-.*\.csv"$/);
      const lines = response.body.trim().split('\n');
      expect(lines[0]).toBe('position,recorded_at,stream,type,actor,correlation_id,data');
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain(`,entry-${edited},EntryEdited,USER:user-11,corr-history-`);
      expect(lines[1]).toContain('""distance"":7.5');
    });

    test('an erased participant leaves no trace of their name or e-mail, in either format', async () => {
      const before = await get('/api/admin/history/export?format=ndjson', admin());
      expect(before.body).toContain('Kati Karu');
      await vault.forget('participant-12');
      for (const format of ['ndjson', 'csv']) {
        const body = (await get(`/api/admin/history/export?format=${format}`, admin())).body;
        expect(body).not.toContain('Kati');
        expect(body).not.toContain('kati@example.ee');
        expect(body).toContain('Mari Maasikas');
      }
      const kati = (await page('participant=12&type=ParticipantRegistered')).events[0];
      expect(kati?.data).toMatchObject({ participantId: 12, fullName: null, email: null, birthYear: null });
    });
  });
});
