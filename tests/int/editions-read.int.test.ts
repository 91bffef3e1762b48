/**
 * The read side knows editions, on real PostgreSQL: one log holds 2025 (closed, with its teams
 * and entries), 2026 (opened, its own 12-mission route, its own teams) and a 2027 draft. The
 * spec's calls answer for the current edition only (GET /api/stats, the participants table, money
 * raised, settings); GET /api/history/editions/2025 shows 2025's results; a 2025 team's page and
 * certificate still answer, its member who joined 2026 still reads it; a 2026 team's figures
 * follow the 2026 route; drafts never appear
 * publicly; GET /api/admin/editions needs an administrator.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { CommandRequest } from '@sinilill/commands';
import { certificateCode } from '@sinilill/certificates';
import type {
  AdminEditionsAnswer,
  EditionHistoryAnswer,
  EditionsAnswer,
  PublicTeamPageAnswer,
  SessionClaims,
  StatsAnswer,
  TeamAnswer,
} from '@sinilill/contracts';
import { blueFlowers, fromHundredths, roundedKm, teamProgress, type ActingUser, type Edition } from '@sinilill/domain';
import { edition2025, edition2026Demo } from '@sinilill/domain/seed';
import { buildQueryApi } from '@sinilill/query-api';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const NOW = new Date('2026-04-20T10:00:00Z');

let commandCount = 0;
const system = (at: string): CommandRequest => {
  const id = `editions-read-${++commandCount}`;
  return { actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null }, now: new Date(at) };
};
/** The account of a participant (or, null, of the administrator). */
const userOf = (participantId: number | null) =>
  `00000000-0000-4000-8000-${(participantId === null ? 'ad01' : String(participantId)).padStart(12, '0')}`;
const claims = (participantId: number | null, teamId: number | null, role: 'USER' | 'ADMIN' = 'USER'): SessionClaims => ({
  userId: userOf(participantId), fullName: 'Test Person', is_approved: true, participantId, teamId, role, isPaid: true,
});

/** 2026's data moved a year on: a draft for 2027. */
const edition2027 = JSON.parse(JSON.stringify(edition2026Demo).replaceAll('2026', '2027')) as Edition;

/** 2025's teams (A, B) and 2026's (C, D). */
const A = 1;
const B = 2;
const C = 3;
const D = 4;

describe('two editions in one log', () => {
  let app: TestApplication;
  let queryApi: FastifyInstance;
  let sessions: TestSessions;
  const get = (url: string, authorization?: string) => queryApi.inject({ url, headers: authorization ? { authorization } : {} });
  const person = { email: 'x@example.ee', birthYear: 1980, gender: 'FEMALE' as const, newsletter: false };

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    const c = app.commands;
    // 2025: planned, opened, run, closed.
    await c.planEdition(edition2025, system('2025-01-10T08:00:00Z'));
    await c.openEdition(2025, system('2025-01-10T08:01:00Z'));
    await c.registerTeam({ teamId: A, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, system('2025-03-01T08:00:00Z'));
    await c.registerTeam({ teamId: B, teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'BBBB2222', icon: null }, system('2025-03-02T08:00:00Z'));
    await c.registerParticipant({ ...person, participantId: 11, teamId: A, fullName: 'Mari Maasikas', email: 'mari@example.ee', isCaptain: true }, system('2025-03-01T08:00:00Z'));
    await c.registerParticipant({ ...person, participantId: 12, teamId: A, fullName: 'Kati Karu', email: 'kati@example.ee', isCaptain: false }, system('2025-03-03T08:00:00Z'));
    await c.registerParticipant({ ...person, participantId: 21, teamId: B, fullName: 'Jüri Juurikas', email: 'jyri@example.ee', isCaptain: true }, system('2025-03-02T08:00:00Z'));
    await c.addEntry({ participantId: 11, distance: 12.34, entryType: 'WALK', performedAt: '2025-04-10' }, system('2025-04-10T18:00:00Z'));
    await c.addEntry({ participantId: 12, distance: 5.55, entryType: 'WALK', performedAt: '2025-04-11' }, system('2025-04-11T18:00:00Z'));
    await c.addEntry({ participantId: 21, distance: 3, entryType: 'WALK', performedAt: '2025-04-12' }, system('2025-04-12T18:00:00Z'));
    await c.closeEdition(2025, system('2025-06-01T08:00:00Z'));
    // 2026: planned and opened after 2025 closed; its teams register once its registration opens.
    await c.planEdition(edition2026Demo, system('2025-06-02T08:00:00Z'));
    await c.openEdition(2026, system('2025-06-02T08:01:00Z'));
    await c.registerTeam({ teamId: C, teamName: 'Viljandi Vildid', description: '', joinCode: 'CCCC3333', icon: null }, system('2026-03-05T08:00:00Z'));
    await c.registerTeam({ teamId: D, teamName: 'Narva Nooled', description: '', joinCode: 'DDDD4444', icon: null }, system('2026-03-06T08:00:00Z'));
    await c.registerParticipant({ ...person, participantId: 31, teamId: C, fullName: 'Liis Lepik', email: 'liis@example.ee', isCaptain: true }, system('2026-03-05T08:00:00Z'));
    await c.registerParticipant({ ...person, participantId: 32, teamId: C, fullName: 'Peeter Paju', email: 'peeter@example.ee', isCaptain: false }, system('2026-03-05T09:00:00Z'));
    await c.registerParticipant({ ...person, participantId: 41, teamId: D, fullName: 'Ants Allik', email: 'ants@example.ee', isCaptain: true }, system('2026-03-06T08:00:00Z'));
    // Team C: 40 km, past the 2025 route's first three mission ends (7, 27, 39) but only the
    // 2026 route's first (10): its flowers tell which route counted.
    await c.addEntry({ participantId: 31, distance: 20, entryType: 'WALK', performedAt: '2026-04-02' }, system('2026-04-02T18:00:00Z'));
    await c.addEntry({ participantId: 32, distance: 20, entryType: 'WALK', performedAt: '2026-04-03' }, system('2026-04-03T18:00:00Z'));
    await c.addEntry({ participantId: 41, distance: 4.5, entryType: 'WALK', performedAt: '2026-04-04' }, system('2026-04-04T18:00:00Z'));
    // Mari of 2025's team A takes part again, as participant 42 of team D.
    await c.registerParticipant({ ...person, participantId: 42, teamId: D, fullName: 'Mari Maasikas', email: 'mari@example.ee', isCaptain: false }, system('2026-03-07T08:00:00Z'));
    // 2027: a draft only.
    await c.planEdition(edition2027, system('2026-04-10T08:00:00Z'));
    sessions = testSessions(app, { now: () => NOW });
    await sessions.enrol(claims(11, A), claims(31, C), claims(null, null, 'ADMIN'));
    // Her account names its new participant, as joining a later edition records it.
    await app.store.appendToStreams([{
      stream: `user-${userOf(11)}`, expectedRevision: 'any',
      events: [{
        id: randomUUID(), type: 'UserJoinedEdition', schemaVersion: 1,
        data: { userId: userOf(11), participantId: 42, edition: 2026, joinedAt: '2026-03-07T08:00:00.000Z' },
        metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: 'editions-read', causationId: null },
      }],
    }]);
    await app.project();
    queryApi = buildQueryApi({ db: app.db, now: () => NOW, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes: { subscribe: () => () => undefined }, history: app.store });
    await queryApi.ready();
  }, 120_000);

  afterAll(async () => {
    await queryApi?.close();
    await app?.close();
  });

  test('the read models carry each team\'s and member\'s edition', async () => {
    const rm = app.db.withSchema('rm');
    expect(await rm.selectFrom('team_stats').select(['team_id', 'edition']).orderBy('team_id').execute())
      .toEqual([{ team_id: A, edition: 2025 }, { team_id: B, edition: 2025 }, { team_id: C, edition: 2026 }, { team_id: D, edition: 2026 }]);
    expect(await rm.selectFrom('team_members').select(['participant_id', 'edition']).orderBy('participant_id').execute())
      .toEqual([11, 12, 21].map((id) => ({ participant_id: id, edition: 2025 })).concat([31, 32, 41, 42].map((id) => ({ participant_id: id, edition: 2026 }))));
    expect(await rm.selectFrom('editions').select(['year', 'status']).orderBy('year').execute())
      .toEqual([{ year: 2025, status: 'closed' }, { year: 2026, status: 'opened' }, { year: 2027, status: 'planned' }]);
  });

  test('GET /api/stats shows only 2026: its teams and its totals', async () => {
    const response = await get('/api/stats');
    expect(response.statusCode).toBe(200);
    const stats = response.json<StatsAnswer>();
    expect(stats.teams.map((t) => t.team.id)).toEqual([C, D]);
    expect(stats).toMatchObject({ totalParticipants: 4, totalDistance: 40 + 5, today: '2026-04-20' });
    expect(stats.totalBlueFlowers).toBe(blueFlowers(40, edition2026Demo) + blueFlowers(roundedKm(450), edition2026Demo));
  });

  test('the participants table pages only 2026\'s teams', async () => {
    const response = await get('/api/stats/teams?size=50');
    expect(response.statusCode).toBe(200);
    const page = response.json<PublicTeamPageAnswer>();
    expect(page.total).toBe(2);
    expect(page.rows.map((r) => r.team.team_name)).toEqual(['Viljandi Vildid', 'Narva Nooled']);
    const searched = (await get(`/api/stats/teams?q=${encodeURIComponent('Tammed')}`)).json<PublicTeamPageAnswer>();
    expect(searched.total).toBe(0);
  });

  test("a 2026 team's figures follow the 2026 route, not 2025's", async () => {
    const expected = teamProgress(40, edition2026Demo);
    // The test means something only if the routes disagree at 40 km.
    expect(expected.blueFlowers).not.toBe(teamProgress(40, edition2025).blueFlowers);
    const team = (await get(`/api/team/${C}`, await sessions.bearer(queryApi, claims(31, C)))).json<TeamAnswer>();
    expect(team).toMatchObject({ id: C, distance: 40, blueFlowers: expected.blueFlowers, prestige: expected.prestige, inLapDistance: expected.inLapDistance });
    const stat = (await get('/api/stats')).json<StatsAnswer>().teams.find((t) => t.team.id === C)!;
    expect(stat.blueFlowers).toBe(expected.blueFlowers);
  });

  test("a 2025 team's page still answers its member, with 2025's figures", async () => {
    const response = await get(`/api/team/${A}`, await sessions.bearer(queryApi, claims(11, A)));
    expect(response.statusCode).toBe(200);
    const progress = teamProgress(18, edition2025);
    expect(response.json<TeamAnswer>()).toMatchObject({ id: A, team_name: 'Tartu Tammed', distance: 18, participant_count: 2, blueFlowers: progress.blueFlowers });
  });

  test("a member of a 2025 team who joined 2026 still reads the 2025 team; nobody else does", async () => {
    const returning = await sessions.bearer(queryApi, { ...claims(11, A), participantId: 42, teamId: D });
    expect((await get(`/api/team/${D}`, returning)).statusCode).toBe(200);
    const past = await get(`/api/team/${A}`, returning);
    expect(past.statusCode).toBe(200);
    expect(past.json<TeamAnswer>()).toMatchObject({ id: A, team_name: 'Tartu Tammed' });
    expect((await get(`/api/team/${A}/participants`, returning)).statusCode).toBe(200);
    const stranger = await get(`/api/team/${A}`, await sessions.bearer(queryApi, claims(31, C)));
    expect([stranger.statusCode, stranger.json<{ message: string }>().message]).toEqual([403, 'FORBIDDEN']);
    expect((await get(`/api/team/${B}`, returning)).statusCode).toBe(403);
  });

  test('GET /api/history/editions/2025 shows 2025\'s results', async () => {
    const response = await get('/api/history/editions/2025');
    expect(response.statusCode).toBe(200);
    const history = response.json<EditionHistoryAnswer>();
    const progressA = teamProgress(18, edition2025);
    expect(history).toEqual({
      year: 2025,
      name: edition2025.name,
      figures: { participants: 3, teams: 2, km: 20.89, flowers: progressA.blueFlowers + blueFlowers(3, edition2025), raisedCents: 0 },
      teams: [
        { teamId: A, teamName: 'Tartu Tammed', km: 17.89, flowers: progressA.blueFlowers, prestige: 0, missionId: progressA.mission!.id, lapPercentage: progressA.lapPercentage },
        { teamId: B, teamName: 'Pärnu Pääsukesed', km: 3, flowers: blueFlowers(3, edition2025), prestige: 0, missionId: 1, lapPercentage: teamProgress(3, edition2025).lapPercentage },
      ],
      route: JSON.parse(JSON.stringify(edition2025.route)) as unknown,
      draw: null,
    });
    expect(fromHundredths(1789 + 300)).toBe(history.figures.km);
  });

  test('an edition that is not closed, a draft or an unknown year has no history (404)', async () => {
    for (const year of [2026, 2027, 2031]) {
      const response = await get(`/api/history/editions/${year}`);
      expect({ year, status: response.statusCode, message: response.json<{ message: string }>().message }).toEqual({ year, status: 404, message: 'NOT_FOUND' });
    }
    expect((await get('/api/history/editions/abc')).statusCode).toBe(400);
  });

  test('GET /api/editions: 2026 current, 2025 archived, the 2027 draft nowhere', async () => {
    const response = await get('/api/editions');
    expect(response.statusCode).toBe(200);
    const answer = response.json<EditionsAnswer>();
    expect(answer.now).toBe(NOW.toISOString());
    expect(answer.current).toMatchObject({ year: 2026, status: 'opened', phase: 'running', registrationOpen: true, today: '2026-04-20' });
    expect((answer.current!.edition as Edition).route.missions).toHaveLength(edition2026Demo.route.missions.length);
    expect(answer.next).toBeNull();
    expect(answer.archive.map((e) => [e.year, e.status, e.phase])).toEqual([[2025, 'closed', 'closed']]);
    expect(response.body).not.toContain('2027');
  });

  test('GET /api/admin/editions lists every edition to an administrator, drafts included; nobody else', async () => {
    expect((await get('/api/admin/editions')).statusCode).toBe(401);
    const user = await get('/api/admin/editions', await sessions.bearer(queryApi, claims(31, C)));
    expect([user.statusCode, user.json<{ message: string }>().message]).toEqual([403, 'FORBIDDEN']);
    const admin = await get('/api/admin/editions', await sessions.bearer(queryApi, claims(null, null, 'ADMIN')));
    expect(admin.statusCode).toBe(200);
    expect(admin.json<AdminEditionsAnswer>().editions.map((e) => [e.year, e.status, e.phase])).toEqual([
      [2025, 'closed', 'closed'], [2026, 'opened', 'running'], [2027, 'planned', 'planned'],
    ]);
  });

  test("the console's teams and entries tables take an edition; without one they span the log", async () => {
    const admin = await sessions.bearer(queryApi, claims(null, null, 'ADMIN'));
    const teamIds = async (query: string) => (await get(`/api/admin/teams?size=25&sort=created_at&order=asc${query}`, admin)).json<{ rows: { id: number }[]; total: number }>();
    expect(await teamIds('&edition=2025')).toMatchObject({ total: 2, rows: [{ id: A }, { id: B }] });
    expect(await teamIds('&edition=2026')).toMatchObject({ total: 2, rows: [{ id: C }, { id: D }] });
    expect((await teamIds('&edition=2026&q=Tammed')).total).toBe(0);
    expect((await teamIds('')).total).toBe(4);
    const entries = (await get('/api/admin/entries?size=25&edition=2026', admin)).json<{ rows: { team_id: number }[]; total: number }>();
    expect(entries.total).toBe(3);
    expect(new Set(entries.rows.map((e) => e.team_id))).toEqual(new Set([C, D]));
    expect((await get('/api/admin/entries?size=25&edition=2025&q=Mari', admin)).json<{ total: number }>().total).toBe(1);
    const csv = await get('/api/admin/teams.csv?edition=2025', admin);
    expect(csv.body.trim().split('\n').slice(1).map((line) => Number(line.split(',')[0])).sort()).toEqual([A, B]);
    expect((await get('/api/admin/teams?edition=20x6', admin)).statusCode).toBe(400);
  });

  test("a 2025 team's certificate code keeps verifying; the same team under another edition does not", async () => {
    const valid = await get(`/api/certificates/${certificateCode({ kind: 'team', id: A, edition: 2025 }, SECRET)}`);
    expect(valid.statusCode).toBe(200);
    expect(valid.json()).toMatchObject({ kind: 'team', team_name: 'Tartu Tammed', distance: 17.89, edition: { year: 2025, startDate: '2025-04-01' } });
    const member = await get(`/api/certificates/${certificateCode({ kind: 'participant', id: 31, edition: 2026 }, SECRET)}`);
    expect(member.json()).toMatchObject({ name: 'Liis Lepik', edition: { year: 2026 } });
    const wrong = await get(`/api/certificates/${certificateCode({ kind: 'team', id: A, edition: 2026 }, SECRET)}`);
    expect([wrong.statusCode, wrong.json<{ message: string }>().message]).toEqual([404, 'CERTIFICATE_NOT_VALID']);
  });

  test('money raised and settings answer for 2026', async () => {
    const fundraising = await get('/api/fundraising');
    expect(fundraising.statusCode).toBe(200);
    expect(fundraising.json()).toMatchObject({ total: 0, teams: [] });
    const settings = (await get('/api/settings')).json<{ entriesOpen: boolean }>();
    expect(settings.entriesOpen).toBe(true);
  });
});
