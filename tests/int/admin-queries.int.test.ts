/**
 * The admin console's reads on real PostgreSQL: GET /api/admin/userdata, /teamdata and
 * /entrydata, for administrators only; the projections following renames and deletions; and the
 * erasure that goes with a deletion leaving no trace of the person in the rebuilt read models.
 *
 * The deletions and renames are appended here as the admin commands append them (one multi-stream
 * append: UserDeleted + ParticipantDeleted + EntryDeleted…, or TeamDeleted + those of every
 * member), and the erasure is the vault's forget(participant-{id}), so this suite depends only on
 * the event contract, not on the command side's handlers.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (authPlugin registers the plugin)
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { CommandRequest } from '@sinilill/commands';
import type { AdminEntriesAnswer, AdminTeamsAnswer, AdminUsersAnswer, SessionClaims, StatsAnswer } from '@sinilill/contracts';
import { PERSONAL_DATA_FIELDS, SCHEMA_VERSIONS, streams, type ActingUser, type DomainEvent } from '@sinilill/domain';
import {
  PersonalDataVault,
  PostgresEventStore,
  withPersonalDataProtection,
  type AppendRequest,
  type EventStore,
} from '@sinilill/event-store';
import { buildQueryApi, type TeamChangeFeed } from '@sinilill/query-api';
import { catchUp, projections, rebuildReadModels } from '@sinilill/read-models';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const NOW = new Date('2025-04-20T10:00:00Z');
const A = 1;
const B = 2;
const C = 3;
const ADMIN_ID = randomUUID();
const USER_OF: Record<number, string> = { 11: randomUUID(), 12: randomUUID(), 21: randomUUID(), 31: randomUUID() };
const ERASED_NAME = 'Kati Karu';
const ERASED_EMAIL = 'kati@example.ee';

/** No live stream is opened here: a feed that never speaks. */
const silentFeed: TeamChangeFeed = { subscribe: () => () => undefined };

let commandCount = 0;
const system = (at: string): CommandRequest => {
  const id = `admin-queries-${++commandCount}`;
  return { actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null }, now: new Date(at) };
};

/** An event as the admin commands write it (actor: the admin). */
const event = (e: DomainEvent) => ({
  id: randomUUID(), type: e.type, schemaVersion: SCHEMA_VERSIONS[e.type], data: e.data,
  metadata: { actor: { userId: ADMIN_ID, role: 'ADMIN' as const }, correlationId: 'admin-queries', causationId: null },
});
const to = (stream: string, ...events: DomainEvent[]): AppendRequest => ({ stream, events: events.map(event), expectedRevision: 'any' });

describe('the admin console reads', () => {
  let app: TestApplication;
  /** The store with a vault of this suite's own, so that its forget() is seen at once (no cached key). */
  let store: EventStore;
  let vault: PersonalDataVault;
  let queryApi: FastifyInstance;
  let sessions: TestSessions;

  const claims = (userId: string, participantId: number | null, role: 'USER' | 'ADMIN'): SessionClaims => ({
    userId, fullName: 'Test Person', is_approved: true, participantId, teamId: null, role, isPaid: true,
  });
  // Live sessions of the accounts appended below (a token needs its account's session version).
  const bearer = (c: SessionClaims) => sessions.bearer(queryApi, c);
  const admin = () => bearer(claims(ADMIN_ID, null, 'ADMIN'));
  const get = (url: string, authorization?: string) => queryApi.inject({ url, headers: authorization ? { authorization } : {} });
  const project = async () => {
    for (const projection of projections) await catchUp(app.db, store, projection);
  };
  const users = async () => (await get('/api/admin/userdata', admin())).json<AdminUsersAnswer>().users;
  const teams = async () => (await get('/api/admin/teamdata', admin())).json<AdminTeamsAnswer>().teams;
  const entries = async () => (await get('/api/admin/entrydata', admin())).json<AdminEntriesAnswer>().entries;
  const stats = async () => (await get('/api/stats')).json<StatsAnswer>();
  /** Every row of every table of schema rm (but the migrations' and the checkpoints' own), sorted. */
  const snapshot = async () => {
    const tables = await sql<{ table_name: string }>`SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'rm' AND table_name NOT LIKE 'kysely%' AND table_name <> 'checkpoints' ORDER BY table_name`.execute(app.db);
    const result: Record<string, string[]> = {};
    for (const { table_name } of tables.rows) {
      const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(`rm.${table_name}`)}`.execute(app.db);
      // settings.updated_at is the migration's now() until a SettingsChanged: not from the log.
      result[table_name] = rows.rows.map(({ ...r }) => {
        if (table_name === 'settings') delete r.updated_at;
        return JSON.stringify(r);
      }).sort();
    }
    return result;
  };
  const rebuiltEqualsLive = async () => {
    const before = await snapshot();
    await rebuildReadModels(app.db, store, projections);
    expect(await snapshot()).toEqual(before);
  };

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    vault = new PersonalDataVault({ pool: app.pool });
    store = withPersonalDataProtection(new PostgresEventStore({ pool: app.pool }), vault, PERSONAL_DATA_FIELDS);
    await app.commands.registerTeam({ teamId: A, teamName: 'Tartu Tammed', description: 'Tammed', joinCode: 'AAAA1111', icon: null }, system('2025-03-01T08:00:00Z'));
    await app.commands.registerTeam({ teamId: B, teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'BBBB2222', icon: null }, system('2025-03-02T08:00:00Z'));
    await app.commands.registerTeam({ teamId: C, teamName: 'Võru Vasikad', description: '', joinCode: 'CCCC3333', icon: null }, system('2025-03-03T08:00:00Z'));
    const person = { birthYear: 1980, gender: 'FEMALE' as const, newsletter: false };
    const people = [
      { participantId: 11, teamId: A, fullName: 'Mari Maasikas', email: 'mari@example.ee', isCaptain: true, at: '2025-03-01T08:00:00.000Z' },
      { participantId: 12, teamId: A, fullName: ERASED_NAME, email: ERASED_EMAIL, isCaptain: false, at: '2025-03-04T08:00:00.000Z' },
      { participantId: 21, teamId: B, fullName: 'Jüri Juurikas', email: 'jyri@example.ee', isCaptain: true, at: '2025-03-02T08:00:00.000Z' },
      { participantId: 31, teamId: C, fullName: 'Tiit Tamm', email: 'tiit@example.ee', isCaptain: true, at: '2025-03-03T08:00:00.000Z' },
    ];
    for (const p of people) {
      await app.commands.registerParticipant({ ...person, ...p }, system(p.at));
      // The account as registration writes it (the test application's command side has no account directory).
      await store.appendToStream(streams.user(USER_OF[p.participantId]!), [event({ type: 'UserRegistered', data: {
        userId: USER_OF[p.participantId]!, participantId: p.participantId, role: 'USER', email: p.email, fullName: p.fullName,
        approved: true, hasPassword: true, lang: 'est', registeredAt: p.at,
      } })], { expectedRevision: 'no_stream' });
    }
    await store.appendToStream(streams.user(ADMIN_ID), [event({ type: 'AdminRegistered', data: {
      userId: ADMIN_ID, email: 'admin@example.ee', fullName: 'Admin', registeredAt: '2025-01-01T00:00:00.000Z',
    } })], { expectedRevision: 'no_stream' });
    const addEntry = (participantId: number, distance: number, at: string) =>
      app.commands.addEntry({ participantId, distance, entryType: 'WALK', performedAt: '2025-04-10' }, system(at));
    await addEntry(11, 12.34, '2025-04-10T09:00:00Z'); // entry 1
    await addEntry(12, 7.5, '2025-04-11T09:00:00Z'); // entry 2
    await addEntry(21, 3, '2025-04-12T09:00:00Z'); // entry 3
    await addEntry(31, 40, '2025-04-13T09:00:00Z'); // entry 4
    sessions = testSessions(app, { now: () => NOW });
    await sessions.enrol(claims(ADMIN_ID, null, 'ADMIN'), claims(USER_OF[11]!, 11, 'USER'));
    await project();
    queryApi = buildQueryApi({ db: app.db, now: () => NOW, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes: silentFeed });
    await queryApi.ready();
  }, 120_000);

  afterAll(async () => {
    await queryApi?.close();
    await app?.close();
  });

  describe('administrators only', () => {
    test.each(['userdata', 'teamdata', 'entrydata'])('a USER gets 403 FORBIDDEN from /api/admin/%s', async (route) => {
      const response = await get(`/api/admin/${route}`, bearer(claims(USER_OF[11]!, 11, 'USER')));
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: 'FORBIDDEN' });
    });

    test.each(['userdata', 'teamdata', 'entrydata'])('no token: 401 UNAUTHORIZED from /api/admin/%s', async (route) => {
      const response = await get(`/api/admin/${route}`);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'UNAUTHORIZED' });
    });

    test('an ADMIN role claim for an account that is no administrator gets 403; for no account at all, 401', async () => {
      expect((await get('/api/admin/userdata', bearer(claims(USER_OF[11]!, 11, 'ADMIN')))).statusCode).toBe(403);
      // an account that never had a session has no valid token, whatever it claims.
      const nobody = { ...sessions.access(claims(ADMIN_ID, null, 'ADMIN')), userId: randomUUID() };
      expect((await get('/api/admin/userdata', `Bearer ${queryApi.jwt.sign(nobody)}`)).statusCode).toBe(401);
    });
  });

  describe('the administrator sees', () => {
    test('users with e-mails, participant and team, newest participant first, the admin\'s own account last', async () => {
      const list = await users();
      expect(list.map((u) => u.participant?.id ?? null)).toEqual([12, 31, 21, 11, null]);
      expect(list[0]).toEqual({
        id: USER_OF[12], email: ERASED_EMAIL, is_approved: true, role: 'USER', participant_id: 12, created_at: '2025-03-04T08:00:00.000Z',
        participant: { id: 12, full_name: ERASED_NAME, is_paid: false, created_at: '2025-03-04T08:00:00.000Z', team: { id: A, team_name: 'Tartu Tammed' } },
      });
      expect(list[4]).toMatchObject({ id: ADMIN_ID, email: 'admin@example.ee', role: 'ADMIN', participant_id: null, participant: null });
    });

    test('teams by name, with join codes, member counts and km', async () => {
      expect(await teams()).toEqual([
        { id: B, team_name: 'Pärnu Pääsukesed', icon: null, description: '', join_code: 'BBBB2222', participant_count: 1, distance: 3, created_at: '2025-03-02T08:00:00.000Z' },
        { id: A, team_name: 'Tartu Tammed', icon: null, description: 'Tammed', join_code: 'AAAA1111', participant_count: 2, distance: 20, created_at: '2025-03-01T08:00:00.000Z' },
        { id: C, team_name: 'Võru Vasikad', icon: null, description: '', join_code: 'CCCC3333', participant_count: 1, distance: 40, created_at: '2025-03-03T08:00:00.000Z' },
      ]);
    });

    test('entries newest first, with the member\'s and the team\'s names', async () => {
      const list = await entries();
      expect(list.map((e) => [e.participant_id, e.distance, e.participant.full_name, e.team.team_name])).toEqual([
        [31, 40, 'Tiit Tamm', 'Võru Vasikad'],
        [21, 3, 'Jüri Juurikas', 'Pärnu Pääsukesed'],
        [12, 7.5, ERASED_NAME, 'Tartu Tammed'],
        [11, 12.34, 'Mari Maasikas', 'Tartu Tammed'],
      ]);
      expect(list[0]).toMatchObject({ team_id: C, entry_type: 'WALK', performed_at: '2025-04-10', created_at: '2025-04-13T09:00:00.000Z' });
    });

    test('a rebuild gives the same rows in every table', rebuiltEqualsLive, 60_000);
  });

  describe('renames', () => {
    beforeAll(async () => {
      await store.appendToStreams([
        to(streams.team(B), { type: 'TeamRenamed', data: { teamId: B, teamName: 'Pärnu Pardid', renamedAt: '2025-04-14T08:00:00.000Z' } }),
        to(streams.participant(21), { type: 'ParticipantRenamed', data: { participantId: 21, fullName: 'Jüri Juur', renamedAt: '2025-04-14T08:00:00.000Z' } }),
      ]);
      await project();
    });

    test('the new names show in every answer and in the public stats', async () => {
      expect((await users()).find((u) => u.participant_id === 21)?.participant).toMatchObject({ full_name: 'Jüri Juur', team: { id: B, team_name: 'Pärnu Pardid' } });
      expect((await teams()).map((t) => t.team_name)).toEqual(['Pärnu Pardid', 'Tartu Tammed', 'Võru Vasikad']);
      expect((await entries()).find((e) => e.participant_id === 21)).toMatchObject({ participant: { full_name: 'Jüri Juur' }, team: { team_name: 'Pärnu Pardid' } });
      expect((await stats()).teams.find((t) => t.team.id === B)?.team.team_name).toBe('Pärnu Pardid');
      const member = await app.db.withSchema('rm').selectFrom('team_members').select('full_name').where('participant_id', '=', 21).executeTakeFirstOrThrow();
      expect(member.full_name).toBe('Jüri Juur');
    });

    test('a rebuild gives the same rows', rebuiltEqualsLive, 60_000);
  });

  describe('a user deleted, and erased', () => {
    let totalsBefore: StatsAnswer;
    beforeAll(async () => {
      totalsBefore = await stats();
      await store.appendToStreams([
        to(streams.user(USER_OF[12]!), { type: 'UserDeleted', data: { userId: USER_OF[12]!, deletedAt: '2025-04-15T08:00:00.000Z' } }),
        to(streams.participant(12), { type: 'ParticipantDeleted', data: { participantId: 12, teamId: A, deletedAt: '2025-04-15T08:00:00.000Z' } }),
        to(streams.entry(2), { type: 'EntryDeleted', data: { entryId: 2, teamId: A, participantId: 12, deletedAt: '2025-04-15T08:00:00.000Z' } }),
      ]);
      await vault.forget('participant-12');
      await project();
    });

    test('the user is in no answer', async () => {
      expect((await users()).map((u) => u.id)).not.toContain(USER_OF[12]);
      expect((await entries()).map((e) => e.participant_id)).not.toContain(12);
      expect(JSON.stringify([await users(), await teams(), await entries()])).not.toContain(ERASED_NAME);
    });

    test('the team loses a member and their km, and the public totals agree', async () => {
      expect((await teams()).find((t) => t.id === A)).toMatchObject({ participant_count: 1, distance: 12 });
      const after = await stats();
      expect(after.teams.find((t) => t.team.id === A)).toMatchObject({ participants: 1, distance: 12 });
      expect(after.totalParticipants).toBe(totalsBefore.totalParticipants - 1);
      expect(after.totalDistance).toBe(totalsBefore.totalDistance - 8); // 20 → 12 km (rounded)
      expect(await app.totals()).toMatchObject({ teams: 3, participants: 3, distance: 12 + 3 + 40 });
    });

    test('a rebuild gives the same rows, and no trace of the erased person anywhere in rm', async () => {
      await rebuiltEqualsLive();
      const columns = await sql<{ table_name: string; column_name: string }>`SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'rm' AND data_type IN ('text', 'character varying', 'jsonb', 'json')`.execute(app.db);
      expect(columns.rows.length).toBeGreaterThan(5);
      for (const { table_name, column_name } of columns.rows) {
        for (const needle of [ERASED_NAME, ERASED_EMAIL, USER_OF[12]!]) {
          const found = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(`rm.${table_name}`)}
            WHERE ${sql.ref(column_name)}::text ILIKE ${`%${needle}%`}`.execute(app.db);
          expect(found.rows[0]?.n, `${table_name}.${column_name} holds ${needle}`).toBe(0);
        }
      }
      // and the log itself reads the person's fields as null now
      const registered = (await store.readStream(streams.participant(12)))[0]!;
      expect(registered.data).toMatchObject({ fullName: null, email: null });
    }, 60_000);
  });

  describe('a team deleted', () => {
    beforeAll(async () => {
      const at = '2025-04-16T08:00:00.000Z';
      await store.appendToStreams([
        to(streams.team(C), { type: 'TeamDeleted', data: { teamId: C, deletedAt: at } }),
        to(streams.user(USER_OF[31]!), { type: 'UserDeleted', data: { userId: USER_OF[31]!, deletedAt: at } }),
        to(streams.participant(31), { type: 'ParticipantDeleted', data: { participantId: 31, teamId: C, deletedAt: at } }),
        to(streams.entry(4), { type: 'EntryDeleted', data: { entryId: 4, teamId: C, participantId: 31, deletedAt: at } }),
      ]);
      await vault.forget('participant-31');
      await project();
    });

    test('the team is gone from the public stats, the totals and every admin answer', async () => {
      const after = await stats();
      expect(after.teams.map((t) => t.team.id)).toEqual(expect.not.arrayContaining([C]));
      expect(after.teams).toHaveLength(2);
      expect(await app.totals()).toMatchObject({ teams: 2, participants: 2, distance: 15 });
      expect((await teams()).map((t) => t.id)).toEqual([B, A]);
      expect((await users()).map((u) => u.participant_id)).toEqual([21, 11, null]);
      expect((await entries()).map((e) => e.team_id)).not.toContain(C);
      const codes = await app.db.withSchema('rm').selectFrom('team_join_codes').select('team_id').orderBy('team_id').execute();
      expect(codes.map((c) => c.team_id)).toEqual([A, B]);
      const daily = await app.db.withSchema('rm').selectFrom('team_daily_distance').select('team_id').where('team_id', '=', C).execute();
      expect(daily).toEqual([]);
    });

    test('a rebuild gives the same rows', rebuiltEqualsLive, 60_000);
  });
});
