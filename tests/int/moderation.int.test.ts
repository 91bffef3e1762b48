/**
 * Moderation of entries on real PostgreSQL: a participant's implausible entry
 * is flagged in the same append as it is added, counts until an admin rejects it, then leaves the
 * totals (stats, team page, member km); only admins decide (the server refuses others); the team
 * page and the admin queue show the review; a replay gives the same tables.
 */
import type {} from '@fastify/jwt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ReviewQueueAnswer, SessionClaims, TeamMembersAnswer } from '@sinilill/contracts';
import { buildCommandApi } from '@sinilill/command-api';
import { buildQueryApi } from '@sinilill/query-api';
import { streams, type ActingUser } from '@sinilill/domain';
import { compareReadModels, projections, rebuildReadModels, type TableComparison } from '@sinilill/read-models';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const NOW = new Date('2025-04-20T10:00:00Z');
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const userOf = (participantId: number) => `00000000-0000-4000-8000-${String(participantId).padStart(12, '0')}`;
const ADMIN_ID = '00000000-0000-4000-8000-00000000ad01';

describe('moderation of entries', () => {
  let app: TestApplication;
  let commandApi: FastifyInstance;
  let queryApi: FastifyInstance;
  let sessions: TestSessions;
  let n = 0;
  const request = (actor: ActingUser) => {
    const id = `moderation-${++n}`;
    return { actor, metadata: { commandId: id, correlationId: id, causationId: null } };
  };
  const member = (participantId: number, teamId: number): ActingUser => ({ userId: userOf(participantId), role: 'USER', participantId, teamId });
  const claims = (participantId: number, teamId: number): SessionClaims => ({
    userId: userOf(participantId), fullName: 'Test Person', is_approved: true, participantId, teamId, role: 'USER', isPaid: true,
  });
  const adminClaims: SessionClaims = { userId: ADMIN_ID, fullName: 'Admin', is_approved: true, participantId: null, teamId: null, role: 'ADMIN', isPaid: true };
  const auth = (c: SessionClaims) => ({ authorization: sessions.bearer(commandApi, c) });
  const add = (participantId: number, teamId: number, distance: number, entryType = 'WALK', performedAt = '2025-04-19') =>
    app.commands.addEntry({ participantId, distance, entryType, performedAt }, request(member(participantId, teamId)));
  const get = async <T>(url: string, c: SessionClaims = adminClaims): Promise<T> => {
    const response = await queryApi.inject({ url, headers: auth(c) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as T;
  };
  const decide = (ids: number[], decision: 'approve' | 'reject', note: string, c: SessionClaims = adminClaims) =>
    commandApi.inject({ method: 'POST', url: '/api/admin/review', headers: auth(c), payload: { ids, decision, note } });
  const teamKm = async (teamId: number) => (await app.db.withSchema('rm').selectFrom('team_stats').select('distance_hundredths').where('team_id', '=', teamId).executeTakeFirstOrThrow()).distance_hundredths;
  /** A team's km of one day, hundredths (0 when it has no row). */
  const dayKm = async (teamId: number, day: string) => Number((await app.db.withSchema('rm').selectFrom('team_daily_distance').select('distance_hundredths')
    .where('team_id', '=', teamId).where('day', '=', day).executeTakeFirst())?.distance_hundredths ?? 0);

  let big: number;
  let first: number;
  let twin: number;
  let small: number;

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    const system = () => request(SYSTEM);
    await app.commands.registerTeam({ teamId: 1, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, system());
    await app.commands.registerTeam({ teamId: 2, teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'BBBB2222', icon: null }, system());
    await app.commands.registerParticipant({ participantId: 11, teamId: 1, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE', isCaptain: true, newsletter: false }, system());
    await app.commands.registerParticipant({ participantId: 21, teamId: 2, fullName: 'Jüri Juurikas', email: 'jyri@example.ee', birthYear: 1975, gender: 'MALE', isCaptain: true, newsletter: false }, system());
    sessions = testSessions(app);
    await sessions.enrol(claims(11, 1), claims(21, 2), adminClaims);
    commandApi = buildCommandApi({ commands: app.commands, sessions: sessions.accounts, jwtSecret: SECRET });
    await commandApi.ready();
    queryApi = buildQueryApi({ db: app.db, now: () => NOW, readYourWritesTimeoutMs: 5000, jwtSecret: SECRET, changes: { subscribe: () => () => undefined } });
    await queryApi.ready();
    small = (await add(11, 1, 60)).entry.id; // exactly at WALK's 60 km per entry: passes
    big = (await add(11, 1, 60.01, 'WALK', '2025-04-18')).entry.id; // 0.01 km over: flagged
    first = (await add(21, 2, 7.5)).entry.id;
    twin = (await add(21, 2, 7.5)).entry.id; // the same participant, date, type and distance: flagged
    await app.project();
  }, 120_000);

  afterAll(async () => {
    await commandApi?.close();
    await queryApi?.close();
    await app?.close();
  });

  test('a flag is appended with the entry, in the same append, with its reasons', async () => {
    const events = await app.store.readStream(streams.entry(big));
    expect(events.map((e) => e.type)).toEqual(['EntryAdded', 'EntryFlagged']);
    expect(events[1]!.globalPosition).toBe(events[0]!.globalPosition + 1);
    expect(events[1]!.data).toMatchObject({ reasons: [{ rule: 'MAX_KM_PER_ENTRY', limit: 60, value: 60.01 }] });
    expect((await app.store.readStream(streams.entry(small))).map((e) => e.type)).toEqual(['EntryAdded']);
    expect((await app.store.readStream(streams.entry(twin))).at(-1)!.data).toMatchObject({ reasons: [{ rule: 'DUPLICATE', limit: null, value: 7.5, duplicateOf: first }] });
  });

  test('a flagged entry still counts; the team page and the queue show it under review', async () => {
    expect(Number(await teamKm(1))).toBe(12001);
    const entries = await get<{ id: number; review?: { status: string; reasons: unknown[]; note: string | null } }[]>('/api/team/1/entries', claims(11, 1));
    expect(entries.find((e) => e.id === big)?.review).toEqual({ status: 'flagged', reasons: [{ rule: 'MAX_KM_PER_ENTRY', limit: 60, value: 60.01 }], note: null });
    expect(entries.find((e) => e.id === small)).not.toHaveProperty('review');
    const queue = await get<ReviewQueueAnswer>('/api/admin/review');
    expect(queue.rows.map((r) => r.entry_id).sort()).toEqual([big, twin].sort());
    expect((await get<ReviewQueueAnswer>('/api/admin/review?rule=DUPLICATE')).rows.map((r) => r.entry_id)).toEqual([twin]);
    expect((await get<ReviewQueueAnswer>('/api/admin/review?team_id=1')).rows.map((r) => r.entry_id)).toEqual([big]);
    expect((await get<ReviewQueueAnswer>('/api/admin/review?date=2025-04-18')).rows.map((r) => r.entry_id)).toEqual([big]);
    expect((await queryApi.inject({ url: '/api/admin/review', headers: auth(claims(11, 1)) })).statusCode).toBe(403);
  });

  test('only an admin decides: a member is refused before anything is appended', async () => {
    const refused = await decide([big], 'reject', 'no', claims(11, 1));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'FORBIDDEN' });
    expect((await app.store.readStream(streams.entry(big))).length).toBe(2);
  });

  test('a rejected entry leaves team km, daily km, member km and the stats; the page shows why', async () => {
    expect(await dayKm(1, '2025-04-18')).toBe(6001);
    const answer = await decide([big], 'reject', 'Kõndimist 60 km ühe korraga ei usu');
    expect(answer.statusCode, answer.body).toBe(200);
    await app.project();
    expect(Number(await teamKm(1))).toBe(6000);
    expect(await dayKm(1, '2025-04-18')).toBe(0);
    expect(await dayKm(1, '2025-04-19')).toBe(6000);
    const members = await get<TeamMembersAnswer>('/api/team/1/participants', claims(11, 1));
    expect(members.find((m) => m.id === 11)?.distance).toBe(60);
    const entries = await get<{ id: number; review?: { status: string; note: string | null } }[]>('/api/team/1/entries', claims(11, 1));
    expect(entries.find((e) => e.id === big)?.review).toMatchObject({ status: 'rejected', note: 'Kõndimist 60 km ühe korraga ei usu' });
    const stats = await get<{ totalDistance: number }>('/api/stats');
    expect(stats.totalDistance).toBe(60 + 15);
    const rejected = await get<ReviewQueueAnswer>('/api/admin/review?status=rejected');
    expect(rejected.rows).toEqual([expect.objectContaining({ entry_id: big, decided_by: ADMIN_ID, note: 'Kõndimist 60 km ühe korraga ei usu' })]);
    // Who decided is in the event's metadata (the audit timeline) and in its data (replays).
    const decision = (await app.store.readStream(streams.entry(big))).at(-1)!;
    expect(decision.type).toBe('EntryReviewRejected');
    expect(decision.metadata.actor).toMatchObject({ userId: ADMIN_ID, role: 'ADMIN' });
  });

  test('a decision is final: ENTRY_NOT_UNDER_REVIEW, and a bulk decision with one such id decides none', async () => {
    const again = await decide([big], 'approve', '');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'ENTRY_NOT_UNDER_REVIEW' });
    const bulk = await decide([twin, small], 'approve', '');
    expect(bulk.statusCode).toBe(409);
    expect((await app.store.readStream(streams.entry(twin))).at(-1)!.type).toBe('EntryFlagged');
    const edit = await commandApi.inject({ method: 'PUT', url: `/api/entry/${big}/edit`, headers: auth(claims(11, 1)), payload: { distance: 5, entry_type: 'WALK', performed_at: '2025-04-18' } });
    expect(edit.statusCode).toBe(403);
    expect((await decide([twin], 'approve', 'Kaks jalutuskäiku')).statusCode).toBe(200);
    await app.project();
    expect(Number(await teamKm(2))).toBe(1500);
  });

  test('a replay gives the same tables', async () => {
    const live = await compareReadModels(app.db, 'rm', null);
    const sums = (c: readonly TableComparison[]) => c.map((x) => [x.table, x.rebuilt.rows, x.rebuilt.checksum]);
    const result = await rebuildReadModels(app.db, app.store, projections, { batchSize: 2 });
    expect(sums(result.checksums)).toEqual(sums(live));
    expect(Number(await teamKm(1))).toBe(6000);
  }, 60_000);
});
