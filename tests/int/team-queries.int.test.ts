/**
 * The team page's reads on real PostgreSQL: GET /api/team/{id}, …/participants,
 * …/entries, …/joincode and the live stream …/live. Only a member of the team or an admin may
 * read them (the team from the read models, never from the token's claims); the live stream
 * speaks when a committed projection batch names the team, directly and through the gateway, and
 * lets go of its subscription when the client leaves.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (authPlugin registers the plugin)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { CommandRequest } from '@sinilill/commands';
import type { JoinCodeAnswer, SessionClaims, StatsAnswer, TeamAnswer, TeamChange, TeamEntriesAnswer, TeamMembersAnswer } from '@sinilill/contracts';
import type { ActingUser } from '@sinilill/domain';
import { buildGateway } from '@sinilill/gateway';
import { buildQueryApi, ReadModelChangeListener } from '@sinilill/query-api';
import { runMigrations } from '@sinilill/event-store';
import {
  catchUp,
  projections,
  readCheckpoint,
  readModelMigrationSet,
  readModelMigrations,
  rebuildReadModels,
  teamDirectoryProjection,
} from '@sinilill/read-models';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const NOW = new Date('2025-04-20T10:00:00Z');
const A = 1;
const B = 2;

let commandCount = 0;
const system = (at?: string): CommandRequest => {
  const id = `team-queries-${++commandCount}`;
  return { actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null }, ...(at ? { now: new Date(at) } : {}) };
};
/** The account of a participant (or of the administrator, or of a user without participant). */
const userOf = (participantId: number | null, role: 'USER' | 'ADMIN') =>
  `00000000-0000-4000-8000-${(participantId === null ? (role === 'ADMIN' ? 'ad01' : 'ee01') : String(participantId)).padStart(12, '0')}`;
const claims = (participantId: number | null, teamId: number | null, role: 'USER' | 'ADMIN' = 'USER'): SessionClaims => ({
  userId: userOf(participantId, role), fullName: 'Test Person', is_approved: true, participantId, teamId, role, isPaid: true,
});

/** An open text/event-stream read with fetch: the change events and the raw text so far. */
interface LiveStream {
  response: Response;
  changes: TeamChange[];
  text(): string;
  abort(): void;
}

async function openLive(url: string, authorization: string): Promise<LiveStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { authorization }, signal: controller.signal });
  const changes: TeamChange[] = [];
  let text = '';
  let buffer = '';
  if (response.ok && response.body) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          const chunk = decoder.decode(value, { stream: true });
          text += chunk;
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const lines = buffer.slice(0, end).split('\n');
            buffer = buffer.slice(end + 2);
            const data = lines.find((l) => l.startsWith('data: '));
            if (lines.includes('event: change') && data) changes.push(JSON.parse(data.slice(6)) as TeamChange);
          }
        }
      } catch {
        // aborted by the test
      }
    })();
  }
  return { response, changes, text: () => text, abort: () => controller.abort() };
}

/** Polls `condition` every 20 ms; fails after `ms`. */
async function eventually(condition: () => boolean | Promise<boolean>, ms = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Closes a listening app at once. After an aborted streaming fetch, undici opens a spare
 * connection that never sends a request, and Node 20's server.close() does not count such a
 * socket as idle: it would wait for the keep-alive timeout (72 s). Tests only.
 */
async function closeNow(app: FastifyInstance): Promise<void> {
  app.server.closeAllConnections();
  await app.close();
}

describe('the team page reads', () => {
  let app: TestApplication;
  let changes: ReadModelChangeListener;
  let queryApi: FastifyInstance;
  let base: string;
  let registeredAtA: string;
  /** Team A's code after the replacement below. */
  let newCodeOfA = '';
  let sessions: TestSessions;

  // Real accounts with live sessions (a token needs its account's session version).
  const bearer = (c: SessionClaims) => sessions.bearer(queryApi, c);
  const memberOfA = () => bearer(claims(11, A));
  const memberOfB = () => bearer(claims(21, B));
  const admin = () => bearer(claims(null, null, 'ADMIN'));
  const get = (url: string, authorization?: string, headers: Record<string, string> = {}) =>
    queryApi.inject({ url, headers: { ...headers, ...(authorization ? { authorization } : {}) } });
  const addEntry = (participantId: number, distance: number, at: string) =>
    app.commands.addEntry({ participantId, distance, entryType: 'WALK', performedAt: '2025-04-10' }, system(at));

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    registeredAtA = '2025-03-01T08:00:00.000Z';
    await app.commands.registerTeam({ teamId: A, teamName: 'Tartu Tammed', description: 'Tammed', joinCode: 'AAAA1111', icon: null }, system(registeredAtA));
    await app.commands.registerTeam({ teamId: B, teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'BBBB2222', icon: null }, system('2025-03-02T08:00:00Z'));
    const person = { email: 'x@example.ee', birthYear: 1980, gender: 'FEMALE' as const, newsletter: false };
    await app.commands.registerParticipant({ ...person, participantId: 11, teamId: A, fullName: 'Mari Maasikas', email: 'mari@example.ee', isCaptain: true }, system('2025-03-01T08:00:00Z'));
    await app.commands.registerParticipant({ ...person, participantId: 12, teamId: A, fullName: 'Kati Karu', email: 'kati@example.ee', isCaptain: false }, system('2025-03-03T08:00:00Z'));
    await app.commands.registerParticipant({ ...person, participantId: 21, teamId: B, fullName: 'Jüri Juurikas', email: 'jyri@example.ee', isCaptain: true }, system('2025-03-02T08:00:00Z'));
    // Team A: 12.34 + 5.55 km (Mari) and 0.10 + 0.20 km (Kati) = 18.19 km exactly.
    await addEntry(11, 12.34, '2025-04-10T09:00:00Z');
    await addEntry(12, 0.1, '2025-04-11T09:00:00Z');
    await addEntry(12, 0.2, '2025-04-12T09:00:00Z');
    await addEntry(11, 5.55, '2025-04-13T09:00:00Z');
    await addEntry(21, 3, '2025-04-11T10:00:00Z');
    sessions = testSessions(app, { now: () => NOW });
    await sessions.enrol(claims(11, A), claims(21, B), claims(null, null, 'ADMIN'), claims(99, A), claims(null, A));
    await app.project();
    changes = new ReadModelChangeListener({ connectionString: app.url, reconnect: { minMs: 50, maxMs: 400 } });
    await changes.start();
    queryApi = buildQueryApi({ db: app.db, now: () => NOW, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes, liveKeepAliveMs: 300 });
    base = await queryApi.listen({ host: '127.0.0.1', port: 0 });
  }, 120_000);

  afterAll(async () => {
    if (queryApi) await closeNow(queryApi);
    await changes?.close();
    await app?.close();
  });

  describe('a member reads their own team', () => {
    test('the card', async () => {
      const response = await get(`/api/team/${A}`, memberOfA());
      expect(response.statusCode).toBe(200);
      expect(response.json<TeamAnswer>()).toMatchObject({
        id: A, team_name: 'Tartu Tammed', description: 'Tammed', icon: null, participant_count: 2, distance: 18,
        created_at: registeredAtA, join_code: expect.any(String),
      });
    });

    test('the public stats carry every team\'s name, icon and description (the participants table)', async () => {
      const response = await get('/api/stats');
      expect(response.statusCode).toBe(200);
      expect(response.json<StatsAnswer>().teams.map((t) => t.team)).toEqual([
        { id: A, team_name: 'Tartu Tammed', icon: null, description: 'Tammed' },
        { id: B, team_name: 'Pärnu Pääsukesed', icon: null, description: '' },
      ]);
    });

    test('the members, most km first, whose km sum to the team\'s exact km', async () => {
      const response = await get(`/api/team/${A}/participants`, memberOfA());
      expect(response.statusCode).toBe(200);
      const members = response.json<TeamMembersAnswer>();
      expect(members).toEqual([
        { id: 11, team: { id: A, team_name: 'Tartu Tammed' }, full_name: 'Mari Maasikas', is_paid: false, is_captain: true, distance: 17.89, created_at: '2025-03-01T08:00:00.000Z' },
        { id: 12, team: { id: A, team_name: 'Tartu Tammed' }, full_name: 'Kati Karu', is_paid: false, is_captain: false, distance: 0.3, created_at: '2025-03-03T08:00:00.000Z' },
      ]);
      const team = await app.db.withSchema('rm').selectFrom('team_stats').select('distance_hundredths').where('team_id', '=', A).executeTakeFirstOrThrow();
      expect(members.reduce((sum, m) => sum + Math.round(m.distance * 100), 0)).toBe(team.distance_hundredths);
      expect(team.distance_hundredths).toBe(1819);
    });

    test('the entries, newest created first, km with two decimals', async () => {
      const response = await get(`/api/team/${A}/entries`, memberOfA());
      expect(response.statusCode).toBe(200);
      const entries = response.json<TeamEntriesAnswer>();
      expect(entries.map((e) => [e.participant_id, e.distance, e.created_at])).toEqual([
        [11, 5.55, '2025-04-13T09:00:00.000Z'],
        [12, 0.2, '2025-04-12T09:00:00.000Z'],
        [12, 0.1, '2025-04-11T09:00:00.000Z'],
        [11, 12.34, '2025-04-10T09:00:00.000Z'],
      ]);
      expect(entries[0]).toMatchObject({ team_id: A, entry_type: 'WALK', performed_at: '2025-04-10' });
    });

    test('the join code, since the team was registered', async () => {
      const response = await get(`/api/team/${A}/joincode`, memberOfA());
      expect(response.statusCode).toBe(200);
      expect(response.json<JoinCodeAnswer>()).toEqual({ code: 'AAAA1111', created_at: registeredAtA });
    });
  });

  describe('a member of team A may not read team B (403 FORBIDDEN)', () => {
    test.each(['', '/participants', '/entries', '/joincode', '/live'])('GET /api/team/B%s', async (route) => {
      const response = await get(`/api/team/${B}${route}`, memberOfA());
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: 'FORBIDDEN' });
    });

    test('nor an unknown team (403, not 404: nothing is revealed about other teams)', async () => {
      expect((await get('/api/team/999', memberOfA())).statusCode).toBe(403);
    });

    test('a token whose teamId claim says B, for a participant of A, is refused on B (claims are not trusted)', async () => {
      const lying = bearer(claims(11, B));
      expect((await get(`/api/team/${B}`, lying)).statusCode).toBe(403);
      expect((await get(`/api/team/${B}/entries`, lying)).statusCode).toBe(403);
      expect((await get(`/api/team/${A}`, lying)).statusCode).toBe(200);
    });

    test('a user without a team (no membership row, whatever the claim) reads no team', async () => {
      expect((await get(`/api/team/${A}`, bearer(claims(99, A)))).statusCode).toBe(403);
      expect((await get(`/api/team/${A}`, bearer(claims(null, A)))).statusCode).toBe(403);
    });
  });

  describe('without a valid token: 401 UNAUTHORIZED', () => {
    test.each(['', '/participants', '/entries', '/joincode', '/live'])('no token: GET /api/team/A%s', async (route) => {
      const response = await get(`/api/team/${A}${route}`);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'UNAUTHORIZED' });
    });

    test('a token signed with another secret', async () => {
      const other = buildQueryApi({ db: app.db, now: () => NOW, readYourWritesTimeoutMs: 0, jwtSecret: `${SECRET}-other`, changes });
      await other.ready();
      const forged = `Bearer ${other.jwt.sign(sessions.access(claims(11, A)))}`;
      await other.close();
      const response = await get(`/api/team/${A}`, forged);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'UNAUTHORIZED' });
    });

    test('an alg:none token', async () => {
      const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const none = `Bearer ${encode({ alg: 'none', typ: 'JWT' })}.${encode({ ...sessions.access(claims(11, A)), iat: Math.floor(Date.now() / 1000) })}.`;
      expect((await get(`/api/team/${A}/joincode`, none)).statusCode).toBe(401);
    });
  });

  describe('an admin reads every team', () => {
    test.each([A, B])('team %i: card, members, entries, join code', async (teamId) => {
      for (const route of ['', '/participants', '/entries', '/joincode']) {
        const response = await get(`/api/team/${teamId}${route}`, admin());
        expect(response.statusCode, route).toBe(200);
      }
      expect((await get(`/api/team/${B}/joincode`, admin())).json<JoinCodeAnswer>().code).toBe('BBBB2222');
    });

    test('an unknown team is 404 NOT_FOUND for an admin, on every route', async () => {
      for (const route of ['', '/participants', '/entries', '/joincode', '/live']) {
        const response = await get(`/api/team/999${route}`, admin());
        expect(response.statusCode, route).toBe(404);
        expect(response.json()).toEqual({ message: 'NOT_FOUND' });
      }
    });

    test('ids beyond PostgreSQL integer answer 4xx, never 500 (2 147 483 648 included)', async () => {
      for (const id of ['2147483647', '2147483648', '9999999999', '99999999999999999999']) {
        for (const route of ['', '/participants', '/entries', '/joincode']) {
          const response = await get(`/api/team/${id}${route}`, admin());
          expect([400, 404], `${id}${route}: ${response.body}`).toContain(response.statusCode);
        }
      }
    });
  });

  describe('team events reach the read models', () => {
    test('after a JoinCodeReplaced the join code route answers the new code', async () => {
      const replaced = await app.commands.replaceJoinCode(A, system('2025-04-20T09:30:00.000Z'));
      newCodeOfA = replaced.code;
      expect(newCodeOfA).not.toBe('AAAA1111');
      await app.project();
      const response = await get(`/api/team/${A}/joincode`, memberOfA(), { 'x-min-position': String(replaced.position) });
      expect(response.json<JoinCodeAnswer>()).toEqual({ code: newCodeOfA, created_at: '2025-04-20T09:30:00.000Z' });
      expect((await get(`/api/team/${B}/joincode`, memberOfB())).json<JoinCodeAnswer>().code).toBe('BBBB2222');
    });

    test('after a TeamPublicAttributesChanged the team route answers the new description and icon', async () => {
      await app.commands.changeTeamPublicAttributes(A, { description: 'Uus kirjeldus', icon: '/api/images/abc.webp' }, system('2025-04-20T09:31:00.000Z'));
      await app.project();
      expect((await get(`/api/team/${A}`, memberOfA())).json<TeamAnswer>()).toMatchObject({ description: 'Uus kirjeldus', icon: '/api/images/abc.webp', distance: 18 });
      expect((await get('/api/stats')).json<StatsAnswer>().teams.find((t) => t.team.id === A)?.team)
        .toEqual({ id: A, team_name: 'Tartu Tammed', icon: '/api/images/abc.webp', description: 'Uus kirjeldus' });
      await app.commands.changeTeamPublicAttributes(A, { icon: null }, system('2025-04-20T09:32:00.000Z'));
      await app.project();
      expect((await get(`/api/team/${A}`, memberOfA())).json<TeamAnswer>()).toMatchObject({ description: 'Uus kirjeldus', icon: null });
    });
  });

  describe('the live stream', () => {
    test('a change of team A reaches A\'s subscriber, not B\'s; leaving frees the subscription', async () => {
      const a = await openLive(`${base}/api/team/${A}/live`, memberOfA());
      const b = await openLive(`${base}/api/team/${B}/live`, memberOfB());
      expect(a.response.status).toBe(200);
      expect(a.response.headers.get('content-type')).toBe('text/event-stream');
      expect(a.response.headers.get('cache-control')).toBe('no-cache');
      expect(a.response.headers.get('x-accel-buffering')).toBe('no');
      await eventually(() => changes.listenerCount === 2, 2000, 'two subscriptions');

      const added = await addEntry(12, 1.5, '2025-04-20T09:40:00Z');
      await app.project();
      await eventually(() => a.changes.length > 0, 5000, 'a change event for team A');
      expect(a.changes).toEqual([{ teamId: A, position: added.position }]); // two projections, one event per position
      // The position read back as x-min-position shows the new entry.
      const entries = await get(`/api/team/${A}/entries`, memberOfA(), { 'x-min-position': String(added.position) });
      expect(entries.json<TeamEntriesAnswer>()[0]).toMatchObject({ id: added.entry.id, distance: 1.5 });
      await pause(300);
      expect(b.changes).toEqual([]);
      expect(a.text()).toContain(': keep-alive');

      a.abort();
      b.abort();
      await eventually(() => changes.listenerCount === 0, 3000, 'no subscription left');
    });

    test('a change naming no team (a payment mark) reaches every team\'s subscriber', async () => {
      const a = await openLive(`${base}/api/team/${A}/live`, memberOfA());
      const b = await openLive(`${base}/api/team/${B}/live`, admin());
      await eventually(() => changes.listenerCount === 2, 2000, 'two subscriptions');
      const marked = await app.commands.markPayment(21, true, system());
      await app.project();
      await eventually(() => a.changes.length > 0 && b.changes.length > 0, 5000, 'both streams told');
      expect(a.changes).toEqual([{ teamId: A, position: marked.position }]);
      expect(b.changes).toEqual([{ teamId: B, position: marked.position }]);
      a.abort();
      b.abort();
      await eventually(() => changes.listenerCount === 0, 3000, 'no subscription left');
    });

    test('through the gateway: streamed, not buffered; leaving frees the subscription', async () => {
      const gateway = buildGateway({ queryApiUrl: base, commandApiUrl: 'http://127.0.0.1:9', webRoot: '/nonexistent-web-root' });
      const gatewayBase = await gateway.listen({ host: '127.0.0.1', port: 0 });
      try {
        const a = await openLive(`${gatewayBase}/api/team/${A}/live`, memberOfA());
        expect(a.response.status).toBe(200);
        expect(a.response.headers.get('content-type')).toBe('text/event-stream');
        await eventually(() => changes.listenerCount === 1, 2000, 'the subscription');
        const added = await addEntry(11, 2, '2025-04-20T09:45:00Z');
        await app.project();
        await eventually(() => a.changes.length > 0, 5000, 'a change event through the gateway');
        expect(a.changes).toEqual([{ teamId: A, position: added.position }]);
        const refused = await fetch(`${gatewayBase}/api/team/${B}/live`, { headers: { authorization: memberOfA() } });
        expect(refused.status).toBe(403);
        a.abort();
        await eventually(() => changes.listenerCount === 0, 3000, 'no subscription left after the client left the gateway');
      } finally {
        await closeNow(gateway);
      }
    });

    test('after the listening connection drops, it reconnects, tells every subscriber to refetch, and hears again', async () => {
      const a = await openLive(`${base}/api/team/${A}/live`, memberOfA());
      await eventually(() => changes.listenerCount === 1 && changes.listening, 2000, 'the subscription');
      const admin = new pg.Client({ connectionString: app.url });
      await admin.connect();
      try {
        const killed = await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN rm_changes'");
        expect(killed.rowCount).toBe(1);
      } finally {
        await admin.end();
      }
      await eventually(() => a.changes.length > 0, 5000, 'the catch-up change after reconnecting');
      expect(changes.listening).toBe(true);
      const added = await addEntry(12, 0.5, '2025-04-20T09:50:00Z');
      await app.project();
      await eventually(() => a.changes.some((c) => c.position === added.position), 5000, 'a change heard on the new connection');
      a.abort();
      await eventually(() => changes.listenerCount === 0, 3000, 'no subscription left');
    });

    test('a replay (rebuild and swap) tells every subscriber once, and rebuilds the same team page', async () => {
      const tables = async () => ({
        codes: await app.db.withSchema('rm').selectFrom('team_join_codes').selectAll().orderBy('team_id').execute(),
        entries: await app.db.withSchema('rm').selectFrom('team_entries').selectAll().orderBy('entry_id').execute(),
        members: await app.db.withSchema('rm').selectFrom('team_members').selectAll().orderBy('participant_id').execute(),
        stats: await app.db.withSchema('rm').selectFrom('team_stats').selectAll().orderBy('team_id').execute(),
      });
      const before = await tables();
      const a = await openLive(`${base}/api/team/${A}/live`, memberOfA());
      await eventually(() => changes.listenerCount === 1, 2000, 'the subscription');
      const result = await rebuildReadModels(app.db, app.store, projections);
      await eventually(() => a.changes.length > 0, 5000, 'the change after the swap');
      expect(a.changes).toEqual([{ teamId: A, position: result.position }]);
      expect(await tables()).toEqual(before);
      a.abort();
      await eventually(() => changes.listenerCount === 0, 3000, 'no subscription left');
    });

    test('closing the query API ends its open streams (it does not hang on them)', async () => {
      const second = buildQueryApi({ db: app.db, now: () => NOW, readYourWritesTimeoutMs: 0, jwtSecret: SECRET, changes });
      const secondBase = await second.listen({ host: '127.0.0.1', port: 0 });
      const a = await openLive(`${secondBase}/api/team/${A}/live`, memberOfA());
      await eventually(() => changes.listenerCount === 1, 2000, 'the subscription');
      await second.close();
      await eventually(() => changes.listenerCount === 0, 3000, 'no subscription left after close');
      a.abort();
    });
  });

  test('a schema projected before the team page is upgraded: team-directory starts over and fills the join codes', async () => {
    const schema = 'rm_upgrade';
    const raw = app.db as unknown as Kysely<unknown>;
    await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(raw);
    await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(raw);
    const migrations = readModelMigrations(schema);
    const migrator = new Migrator({ db: raw, provider: { getMigrations: async () => migrations }, migrationTableSchema: schema });
    expect((await migrator.migrateTo('0002-settings')).error).toBeUndefined();
    // A team-directory that handles no team events.
    const before = { ...teamDirectoryProjection, handles: ['ParticipantRegistered', 'ParticipantPaymentMarked', 'EntryAdded', 'EntryEdited', 'EntryDeleted'] };
    // Today's projection writes each member's edition (migration 0013): the old schema is lent
    // the column for this catch-up and gives it back before the upgrade adds it.
    await sql`ALTER TABLE ${sql.id(schema, 'team_members')} ADD COLUMN edition int`.execute(raw);
    await catchUp(app.db, app.store, before, { schema, lock: false });
    const rm = app.db.withSchema(schema);
    const members = await rm.selectFrom('team_members').selectAll().orderBy('participant_id').execute();
    expect(members.length).toBeGreaterThan(0);
    await sql`ALTER TABLE ${sql.id(schema, 'team_members')} DROP COLUMN edition`.execute(raw);

    await runMigrations(app.db, [readModelMigrationSet(schema)]);
    expect(await readCheckpoint(app.db, 'team-directory', schema)).toBe(0);
    expect(await rm.selectFrom('team_members').selectAll().execute()).toEqual([]);
    await catchUp(app.db, app.store, teamDirectoryProjection, { schema, lock: false });
    // Read again from the log: the same km (not counted twice), and every team's current code.
    expect(await rm.selectFrom('team_members').selectAll().orderBy('participant_id').execute()).toEqual(members);
    expect(await rm.selectFrom('team_join_codes').select(['team_id', 'join_code']).orderBy('team_id').execute())
      .toEqual([{ team_id: A, join_code: newCodeOfA }, { team_id: B, join_code: 'BBBB2222' }]);
    await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(raw);
  });
});
