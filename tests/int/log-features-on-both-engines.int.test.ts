/**
 * The features that read the event log beyond single streams — team deletion (the stream index
 * and its conditional append), announcements (the audience), the administrators' history, "my
 * data" and the prize draw — run the same on both engines of EVENT_STORE: PostgreSQL, and
 * KurrentDB on the in-memory stand-in of its client (@sinilill/event-store/testing), injected
 * in-process into the command and query APIs as their servers' createEventStore would build it.
 * Read models, ids, keys and accounts live in PostgreSQL in both runs, as in production.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CommandService, type CommandRequest } from '@sinilill/commands';
import type { DrawAnswer, SessionClaims } from '@sinilill/contracts';
import { streams, type ActingUser } from '@sinilill/domain';
import { PersonalDataVault, type RecordedEvent } from '@sinilill/event-store';
import { Announcements, buildCommandApi } from '@sinilill/command-api';
import { unsubscribeToken } from '@sinilill/mail';
import { buildQueryApi } from '@sinilill/query-api';
import { testApplication, type EventStoreEngine, type TestApplication } from '../support/app';
import { NO_MAIL, testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const ADMIN: SessionClaims = {
  userId: '00000000-0000-4000-8000-00000000ad01', fullName: 'Admin', is_approved: true, participantId: null, teamId: null, role: 'ADMIN', isPaid: false,
};
const SEED = 'a3f9c2d14b5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const APRIL = '2025-04-12T09:00:00Z';

describe.each(['postgres', 'kurrentdb'] as const satisfies readonly EventStoreEngine[])('log features on the %s engine', (engine) => {
  let app: TestApplication;
  let clock = new Date(APRIL);
  let sessions: TestSessions;
  let commands: CommandService;
  let commandApi: FastifyInstance;
  let queryApi: FastifyInstance;
  let announcements: Announcements;
  let serial = 0;
  /** userId of each participant, by participant id. */
  const users = new Map<number, string>();

  const as = (actor: ActingUser, at = APRIL): CommandRequest => {
    const id = `${engine}-${++serial}`;
    return { actor, metadata: { commandId: id, correlationId: id, causationId: null }, now: new Date(at) };
  };
  const admin = () => as({ userId: ADMIN.userId, role: 'ADMIN', participantId: null, teamId: null });
  const claimsOf = (participantId: number, teamId: number): SessionClaims => ({
    userId: users.get(participantId)!, fullName: 'Test Person', is_approved: true, participantId, teamId, role: 'USER', isPaid: true,
  });
  const get = (url: string, claims: SessionClaims) => queryApi.inject({ url, headers: { authorization: sessions.bearer(queryApi, claims) } });
  const lastType = async (stream: string) => (await app.store.readStream(stream)).at(-1)?.type;

  beforeAll(async () => {
    app = await testApplication({ now: () => clock, engine });
    sessions = testSessions(app, { now: () => clock });
    const vault = new PersonalDataVault({ pool: app.pool, cacheTtlMs: 0 });
    // As the command API's server.ts wires it: deletions find members and entries through the store.
    commands = new CommandService({ store: app.store, ids: app.ids, now: () => clock, directory: sessions.directory, personalData: vault, streamIndex: app.store });
    announcements = new Announcements({
      store: app.store, redisUrl: inject('redisUrl'), prefix: `log-features-${engine}-${randomUUID()}`, mailer: NO_MAIL,
      publicUrl: 'http://sinilill.test', secret: SECRET, now: () => clock,
    });
    commandApi = buildCommandApi({ commands, sessions: sessions.accounts, announcements, jwtSecret: SECRET });
    queryApi = buildQueryApi({
      db: app.db, now: () => clock, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes: { subscribe: () => () => undefined }, history: app.store,
    });
    await Promise.all([commandApi.ready(), queryApi.ready()]);

    // Team 1 walks 12 km (a collected flower: eligible for the draw); team 2 walks 5 km; team 3 is deleted below.
    for (const [teamId, teamName, joinCode] of [[1, 'Tartu Tammed', 'AAAA1111'], [2, 'Pärnu Pääsukesed', 'BBBB2222'], [3, 'Viljandi Vahtrad', 'CCCC3333']] as const) {
      await commands.registerTeam({ teamId, teamName, description: '', joinCode, icon: null }, as(SYSTEM));
    }
    const people: [number, number, string, boolean][] = [
      [11, 1, 'Mari Maasikas', true], [12, 1, 'Kati Karu', false], [13, 1, 'Peeter Paju', true], [21, 2, 'Jüri Juurikas', true],
      [31, 3, 'Tiina Tamm', true], [32, 3, 'Toomas Tamm', false],
    ];
    for (const [participantId, teamId, fullName, newsletter] of people) {
      const email = `p${participantId}-${engine}@example.ee`;
      await commands.registerParticipant({ participantId, teamId, fullName, email, birthYear: 1980, gender: 'FEMALE', isCaptain: false, newsletter }, as(SYSTEM));
      users.set(participantId, (await sessions.directory.userIdOfEmail(email))!);
    }
    for (const id of [11, 12, 13, 21]) await commands.markPayment(id, true, as(SYSTEM));
    await commands.addEntry({ participantId: 11, distance: 12, entryType: 'WALK', performedAt: '2025-04-10' }, as(SYSTEM));
    await commands.addEntry({ participantId: 21, distance: 5, entryType: 'WALK', performedAt: '2025-04-10' }, as(SYSTEM));
    await sessions.enrol(ADMIN, claimsOf(11, 1));
    await app.project();
  }, 120_000);

  afterAll(async () => {
    await commandApi?.close();
    await queryApi?.close();
    await announcements?.close();
    await app?.close();
  });

  test('team deletion finds the members and entries in the log and deletes them in one append', async () => {
    const { entry } = await commands.addEntry({ participantId: 31, distance: 4, entryType: 'RUN', performedAt: '2025-04-11' }, as(SYSTEM));
    const { count } = await commands.deleteTeams([3], admin());
    expect(count).toBe(1);
    expect(await lastType(streams.team(3))).toBe('TeamDeleted');
    for (const id of [31, 32]) {
      expect(await lastType(streams.participant(id))).toBe('ParticipantDeleted');
      expect(await lastType(streams.user(users.get(id)!))).toBe('UserDeleted');
    }
    expect(await lastType(streams.entry(entry.id))).toBe('EntryDeleted');
    // Another team's member is untouched.
    expect((await app.store.readStream(streams.participant(21))).map((e) => e.type)).not.toContain('ParticipantDeleted');
    await app.project();
  });

  test('announcements: the audience, read from the log, leaves out the deleted and, for the newsletter, those who did not opt in', async () => {
    // Team 3 was deleted by the test before (tests of a file run in order): its people are not counted.
    expect(await announcements.recipients('all')).toEqual({ audience: 'all', total: 4, est: 4, eng: 0 });
    expect(await announcements.recipients('newsletter')).toEqual({ audience: 'newsletter', total: 3, est: 3, eng: 0 });
    // Unsubscribing (NewsletterUnsubscribed in newsletter-13) takes Peeter out of the newsletter only.
    const unsubscribed = await commandApi.inject({ method: 'POST', url: '/api/unsubscribe', payload: { token: unsubscribeToken(SECRET, 13) } });
    expect(unsubscribed.statusCode, unsubscribed.body).toBe(200);
    expect(await announcements.recipients('newsletter')).toMatchObject({ total: 2 });
    expect(await announcements.recipients('all')).toMatchObject({ total: 4 });
  });

  test('the history lists, filters by team and counts from the log; the team as of a moment is folded from it', async () => {
    const response = await get('/api/admin/history?team=1&limit=100', ADMIN);
    expect(response.statusCode, response.body).toBe(200);
    const { events } = response.json<{ events: { type: string; stream: string }[] }>();
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['TeamRegistered', 'ParticipantRegistered', 'EntryAdded']));
    expect(events.every((e) => ['team-1', 'participant-11', 'participant-12', 'participant-13'].includes(e.stream) || e.stream.startsWith('entry-'))).toBe(true);
    // The log records the machine's time: "as of" a minute from now holds everything.
    const asOf = await get(`/api/admin/history/team/1/as-of?at=${new Date(Date.now() + 60_000).toISOString()}`, ADMIN);
    expect(asOf.statusCode, asOf.body).toBe(200);
    expect(asOf.body).toContain('Tartu Tammed');
    const denied = await get('/api/admin/history', claimsOf(11, 1));
    expect(denied.statusCode).toBe(403);
  });

  test('my data: the caller’s account, participant and entries from the log, nobody else’s', async () => {
    const response = await get('/api/me/data', claimsOf(11, 1));
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json<{ participant: { id: number }; entries: { distance: number }[]; events: RecordedEvent[] }>();
    expect(data.participant).toMatchObject({ id: 11 });
    expect(data.entries.map((e) => e.distance)).toEqual([12]);
    expect(JSON.stringify(data)).not.toMatch(/Kati|Jüri|p12-|p21-/);
  });

  test('the draw: commit, reveal, and the eligible list and winners read from the log', async () => {
    const post = (url: string, payload: object) => commandApi.inject({ method: 'POST', url: `/api${url}`, payload, headers: { authorization: sessions.bearer(commandApi, ADMIN) } });
    clock = new Date('2025-05-01T10:00:00Z');
    const commit = await post('/admin/draw/commit', { commitment: sha256(SEED), drawAt: '2025-05-05T17:00:00+03:00', winners: 2 });
    expect(commit.statusCode, commit.body).toBe(200);
    clock = new Date('2025-05-05T14:00:00Z');
    const reveal = await post('/admin/draw/reveal', { seed: SEED });
    expect(reveal.statusCode, reveal.body).toBe(200);
    await app.project();
    const draw = (await queryApi.inject({ url: '/api/draw' })).json<DrawAnswer>();
    // Paid members of the team with a collected flower: 11, 12, 13 (team 2 has the base flower only).
    expect(draw).toMatchObject({ status: 'drawn', seed: SEED, eligible: [11, 12, 13], eligibleCount: 3 });
    expect(draw.winners).toHaveLength(2);
  });
});
