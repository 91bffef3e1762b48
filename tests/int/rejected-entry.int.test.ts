/**
 * A rejected entry leaves every figure and list of the app, on real PostgreSQL: the public stats,
 * the team page (team figures, members' km, the entry shown as rejected), "what this did", the
 * administrators' history as of an instant, the person's own data download, the certificates'
 * figures and the prize draw's eligible list. Every one of these folds entries through the
 * domain's entry ledger; this test walks them all with one rejected entry.
 *
 * Given: team 1 (Mari, paid) logs 5 km that count and 60.01 km that moderation flags (WALK's
 * limit is 60 km per entry); team 2 (Jüri, paid) logs 10 km. When an administrator rejects the
 * 60.01 km, team 1 is left with 5 km — not past the first mission (7 km), so no flower beyond
 * the base one and nobody of team 1 is eligible for the draw — while team 2 stays eligible.
 */
import type {} from '@fastify/jwt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { certificateCode } from '@sinilill/certificates';
import { eligibleParticipants } from '@sinilill/commands';
import type { SessionClaims } from '@sinilill/contracts';
import { PERSONAL_DATA_FIELDS, type ActingUser } from '@sinilill/domain';
import { edition2025 } from '@sinilill/domain/seed';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { buildCommandApi } from '@sinilill/command-api';
import { buildQueryApi } from '@sinilill/query-api';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const DURING = new Date('2025-04-20T10:00:00Z');
/** After the late-entry deadline (3 May 24:00 Tallinn): certificates are issued. */
const AFTER = new Date('2025-05-05T10:00:00Z');
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const userOf = (participantId: number) => `00000000-0000-4000-8000-${String(participantId).padStart(12, '0')}`;
const ADMIN_ID = '00000000-0000-4000-8000-00000000ad01';

describe('a rejected entry leaves every figure and list', () => {
  let app: TestApplication;
  let commandApi: FastifyInstance;
  let queryApi: FastifyInstance;
  let sessions: TestSessions;
  let clock = DURING;
  let n = 0;
  let rejected: number;
  let counted: number;
  /** Instants of the database's clock (the log's recorded_at) before and after the rejection (the history's as-of). */
  let beforeRejection: Date;
  let afterRejection: Date;
  const databaseNow = async () => (await app.pool.query<{ t: Date }>('SELECT clock_timestamp() AS t')).rows[0]!.t;

  const request = (actor: ActingUser) => {
    const id = `rejected-entry-${++n}`;
    return { actor, metadata: { commandId: id, correlationId: id, causationId: null } };
  };
  const member = (participantId: number, teamId: number): ActingUser => ({ userId: userOf(participantId), role: 'USER', participantId, teamId });
  const claims = (participantId: number, teamId: number): SessionClaims => ({
    userId: userOf(participantId), fullName: 'Test Person', is_approved: true, participantId, teamId, role: 'USER', isPaid: true,
  });
  const admin: SessionClaims = { userId: ADMIN_ID, fullName: 'Admin', is_approved: true, participantId: null, teamId: null, role: 'ADMIN', isPaid: true };
  const mari = claims(11, 1);
  const get = async <T>(url: string, who?: SessionClaims): Promise<T> => {
    const response = await queryApi.inject({ url, headers: who ? { authorization: sessions.bearer(queryApi, who) } : {} });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json() as T;
  };

  beforeAll(async () => {
    app = await testApplication({ now: () => clock });
    const history = withPersonalDataProtection(new PostgresEventStore({ pool: app.pool }), new PersonalDataVault({ pool: app.pool }), PERSONAL_DATA_FIELDS);
    const system = () => request(SYSTEM);
    const person = { birthYear: 1980, gender: 'FEMALE' as const, newsletter: false, isCaptain: true };
    await app.commands.registerTeam({ teamId: 1, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, system());
    await app.commands.registerTeam({ teamId: 2, teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'BBBB2222', icon: null }, system());
    await app.commands.registerParticipant({ ...person, participantId: 11, teamId: 1, fullName: 'Mari Maasikas', email: 'mari@example.ee' }, system());
    await app.commands.registerParticipant({ ...person, participantId: 21, teamId: 2, fullName: 'Jüri Juurikas', email: 'jyri@example.ee' }, system());
    for (const id of [11, 21]) await app.commands.markPayment(id, true, system());
    sessions = testSessions(app, { now: () => clock });
    await sessions.enrol(mari, claims(21, 2), admin);
    commandApi = buildCommandApi({ commands: app.commands, sessions: sessions.accounts, jwtSecret: SECRET });
    queryApi = buildQueryApi({ db: app.db, now: () => clock, readYourWritesTimeoutMs: 5000, jwtSecret: SECRET, changes: { subscribe: () => () => undefined }, history });
    await Promise.all([commandApi.ready(), queryApi.ready()]);

    const walk = (participantId: number, teamId: number, distance: number) =>
      app.commands.addEntry({ participantId, distance, entryType: 'WALK', performedAt: '2025-04-19' }, request(member(participantId, teamId)));
    counted = (await walk(11, 1, 5)).entry.id;
    rejected = (await walk(11, 1, 60.01)).entry.id;
    await walk(21, 2, 10);
    beforeRejection = await databaseNow();
    const answer = await commandApi.inject({
      method: 'POST', url: '/api/admin/review', headers: { authorization: sessions.bearer(commandApi, admin) },
      payload: { ids: [rejected], decision: 'reject', note: 'Kõndimist 60 km ühe korraga ei usu' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    // recorded_at keeps microseconds, a Date milliseconds: one more makes sure the rejection is before it.
    afterRejection = new Date((await databaseNow()).getTime() + 1);
    await app.project();
  }, 120_000);

  afterAll(async () => {
    await commandApi?.close();
    await queryApi?.close();
    await app?.close();
  });

  test('the public stats: the team has 5 km, the base flower only, and the totals agree', async () => {
    const stats = await get<{ teams: { team: { id: number }; distance: number; blueFlowers: number }[]; totalDistance: number }>('/api/stats');
    expect(stats.teams.find((t) => t.team.id === 1)).toMatchObject({ distance: 5, blueFlowers: edition2025.flowers.base });
    expect(stats.totalDistance).toBe(15);
  });

  test('the team page: team figures and member km without it; the entry listed as rejected', async () => {
    expect(await get('/api/team/1', mari)).toMatchObject({ distance: 5 });
    const members = await get<{ id: number; distance: number }[]>('/api/team/1/participants', mari);
    expect(members.find((m) => m.id === 11)?.distance).toBe(5);
    const entries = await get<{ id: number; distance: number; review?: { status: string } }[]>('/api/team/1/entries', mari);
    expect(entries.find((e) => e.id === rejected)).toMatchObject({ distance: 60.01, review: { status: 'rejected' } });
  });

  test('"what this did": the rejected entry did nothing; the other one is told against 5 km', async () => {
    expect(await get(`/api/team/1/entries/${rejected}/contribution`, mari)).toMatchObject({
      change: 'added', entryDistance: { before: null, after: null }, distanceExact: { gained: 0 }, missionsReached: [],
    });
    expect(await get(`/api/team/1/entries/${counted}/contribution`, mari)).toMatchObject({ distanceExact: { before: 0, after: 5, gained: 5 } });
  });

  test('the history as of an instant: with the entry before its rejection, without it after', async () => {
    expect(await get(`/api/admin/history/team/1/as-of?at=${beforeRejection.toISOString()}`, admin)).toMatchObject({ distanceExact: 65.01 });
    expect(await get(`/api/admin/history/team/1/as-of?at=${afterRejection.toISOString()}`, admin)).toMatchObject({ distanceExact: 5, distance: 5 });
  });

  test('my data: the entry stays in the person\'s download, marked rejected with the rejection among its versions', async () => {
    const data = await get<{ entries: { id: number; status: string; versions: { type: string }[] }[] }>('/api/me/data', mari);
    expect(data.entries.find((e) => e.id === counted)?.status).toBe('active');
    const entry = data.entries.find((e) => e.id === rejected);
    expect(entry?.status).toBe('rejected');
    expect(entry?.versions.map((v) => v.type)).toEqual(['EntryAdded', 'EntryFlagged', 'EntryReviewRejected']);
  });

  test('the certificates certify 5 km for the participant and the team', async () => {
    clock = AFTER;
    const figures = (kind: 'participant' | 'team', id: number) => get<{ distance: number }>(`/api/certificates/${certificateCode({ kind, id, edition: edition2025.year }, SECRET)}`);
    expect(await figures('participant', 11)).toMatchObject({ distance: 5 });
    expect(await figures('team', 1)).toMatchObject({ distance: 5 });
  });

  test('the draw: a team whose only km past the first mission were rejected is not eligible', async () => {
    expect(await eligibleParticipants(app.store, edition2025)).toEqual([{ participantId: 21, teamId: 2 }]);
  });
});
