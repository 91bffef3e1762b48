/**
 * The entry commands end to end on real PostgreSQL and Redis: command API → event store →
 * BullMQ wake-up → projector → read models → query API with read-your-writes.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (the command API registers the plugin)
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AccessClaims, SessionClaims } from '@sinilill/contracts';
import { projections } from '@sinilill/read-models';
import { startProjector, type RunningProjector } from '@sinilill/projector';
import { buildQueryApi } from '@sinilill/query-api';
import { WakeUpPublisher } from '@sinilill/messaging';
import type { ActingUser } from '@sinilill/domain';
import { buildCommandApi } from '@sinilill/command-api';
import { CommandService, withAfterCommit } from '@sinilill/commands';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
/** The account (user id) of participant `participantId` in this suite. */
const userOf = (participantId: number) => `00000000-0000-4000-8000-${String(participantId).padStart(12, '0')}`;

describe('entry commands through the APIs', () => {
  let app: TestApplication;
  let commandApi: FastifyInstance;
  let queryApi: FastifyInstance;
  let projector: RunningProjector;
  let publisher: WakeUpPublisher;
  let sessions: TestSessions;
  const prefix = `t${randomUUID().slice(0, 8)}`;

  const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });
  const claims = (participantId: number, teamId: number, role: 'USER' | 'ADMIN' = 'USER'): SessionClaims => ({
    userId: userOf(participantId), fullName: 'Test Person', is_approved: true, participantId, teamId, role, isPaid: true,
  });
  const adminClaims = (): SessionClaims => ({ ...claims(1, 1, 'ADMIN'), participantId: null, teamId: null });
  // Real accounts with live sessions (a token needs its account's session version).
  const bearer = (c: SessionClaims) => sessions.bearer(commandApi, c);
  const stats = async (position?: number) => {
    const response = await queryApi.inject({ url: '/api/stats', headers: position ? { 'x-min-position': String(position) } : {} });
    expect(response.statusCode).toBe(200);
    return response.json() as { teams: { team: { id: number; team_name: string; icon: string | null; description: string }; distance: number; blueFlowers: number; prestige: number }[]; totalDistance: number; totalBlueFlowers: number };
  };

  beforeAll(async () => {
    app = await testApplication({ now: () => new Date('2025-04-20T10:00:00Z') });
    // Team 1 (one member, 1891 km so far) and team 2 (one member).
    await app.commands.registerTeam({ teamId: 1, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, system('t1'));
    await app.commands.registerTeam({ teamId: 2, teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'BBBB2222', icon: null }, system('t2'));
    await app.commands.registerParticipant({ participantId: 11, teamId: 1, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE', isCaptain: true, newsletter: false }, system('p11'));
    await app.commands.registerParticipant({ participantId: 21, teamId: 2, fullName: 'Jüri Juurikas', email: 'jyri@example.ee', birthYear: 1975, gender: 'MALE', isCaptain: true, newsletter: false }, system('p21'));
    for (let i = 0; i < 3; i++) {
      await app.commands.addEntry({ entryId: 100 + i, participantId: 11, distance: i < 2 ? 800 : 291, entryType: 'OUTDOOR_CYCLE', performedAt: '2025-04-10' }, system(`e${i}`));
    }
    await app.ids.reserveThrough('entry', 200);
    sessions = testSessions(app);
    await sessions.enrol(claims(11, 1), claims(21, 2), adminClaims());
    publisher = new WakeUpPublisher({ redisUrl: inject('redisUrl'), prefix });
    // The projectors are woken by the store's after-commit hook, as in the command API's server.ts.
    const commands = new CommandService({ store: withAfterCommit(app.store, (p) => void publisher.wake(p)), ids: app.ids, now: () => new Date('2025-04-20T10:00:00Z') });
    commandApi = buildCommandApi({ commands, sessions: sessions.accounts, jwtSecret: SECRET });
    await commandApi.ready();
    // No live stream is opened here: a change feed that never speaks stands in for the listener.
    queryApi = buildQueryApi({
      db: app.db, now: () => new Date('2025-04-20T10:00:00Z'), readYourWritesTimeoutMs: 5000,
      jwtSecret: SECRET, changes: { subscribe: () => () => undefined },
    });
    // A long sweep interval: updates below arrive through the BullMQ wake-ups, not the sweep.
    projector = await startProjector({ db: app.db, store: app.store, projections, redisUrl: inject('redisUrl'), prefix, sweepIntervalMs: 600_000 });
  }, 120_000);

  afterAll(async () => {
    await projector?.close();
    await publisher?.close();
    await commandApi?.close();
    await queryApi?.close();
    await app?.close();
  });

  test('an added entry moves the team distance, flowers and totals, seen with the returned position', async () => {
    const before = await stats();
    const team1 = before.teams.find((t) => t.team.id === 1)!;
    expect(team1).toMatchObject({ distance: 1891, prestige: 0, blueFlowers: 24 });
    expect(team1.team).toEqual({ id: 1, team_name: 'Tartu Tammed', icon: null, description: '' });

    const response = await commandApi.inject({
      method: 'POST', url: '/api/entry', headers: { authorization: bearer(claims(11, 1)) },
      payload: { distance: 2.5, entry_type: 'WALK', performed_at: '2025-04-20' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { success: boolean; position: number; entry: { id: number; team_id: number; distance: number } };
    expect(body.success).toBe(true);
    expect(body.entry).toMatchObject({ team_id: 1, distance: 2.5 });
    expect(body.position).toBeGreaterThan(0);

    const after = await stats(body.position);
    const moved = after.teams.find((t) => t.team.id === 1)!;
    // 1893.5 km rounds to 1894: a full lap (spec §4: prestige 1, flowers 1 + 100 + 0).
    expect(moved).toMatchObject({ distance: 1894, prestige: 1, blueFlowers: 101 });
    expect(after.totalDistance).toBe(before.totalDistance + 3);
    expect(after.totalBlueFlowers).toBe(before.totalBlueFlowers + 77);
  });

  test('edit and delete move the figures back, and a repeated command (Idempotency-Key) is applied once', async () => {
    const auth = { authorization: bearer(claims(11, 1)) };
    const add = (key: string) => commandApi.inject({
      method: 'POST', url: '/api/entry', headers: { ...auth, 'idempotency-key': key },
      payload: { distance: 10, entry_type: 'Matkamine', performed_at: '2025-04-19' },
    });
    const first = (await add('retry-key-0001')).json() as { entry: { id: number }; position: number };
    const again = (await add('retry-key-0001')).json() as { entry: { id: number }; position: number };
    expect(again.entry.id).toBe(first.entry.id);
    expect(again.position).toBe(first.position);

    const edited = await commandApi.inject({
      method: 'PUT', url: `/api/entry/${first.entry.id}/edit`, headers: auth,
      payload: { distance: 0, entry_type: 'Matkamine', performed_at: '2025-04-19' },
    });
    expect(edited.statusCode).toBe(200);
    const afterEdit = await stats((edited.json() as { position: number }).position);
    expect(afterEdit.teams.find((t) => t.team.id === 1)!.distance).toBe(1894);

    const deleted = await commandApi.inject({ method: 'PUT', url: '/api/entry/delete', headers: auth, payload: { entity: 'entry', ids: [first.entry.id] } });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({ success: true, count: 1 });
    const gone = await commandApi.inject({ method: 'PUT', url: `/api/entry/${first.entry.id}/edit`, headers: auth, payload: { distance: 1, entry_type: 'WALK', performed_at: '2025-04-19' } });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ message: 'NOT_FOUND' });
  });

  test('a member of another team is refused (403) and changes nothing', async () => {
    const other = { authorization: bearer(claims(21, 2)) };
    const head = await app.store.headPosition();
    const addForeign = await commandApi.inject({ method: 'POST', url: '/api/entry', headers: other, payload: { distance: 5, entry_type: 'WALK', performed_at: '2025-04-20', participant_id: 11 } });
    expect(addForeign.statusCode).toBe(403);
    expect(addForeign.json()).toEqual({ message: 'FORBIDDEN' });
    const editForeign = await commandApi.inject({ method: 'PUT', url: '/api/entry/100/edit', headers: other, payload: { distance: 1, entry_type: 'WALK', performed_at: '2025-04-20' } });
    expect(editForeign.statusCode).toBe(403);
    const deleteForeign = await commandApi.inject({ method: 'PUT', url: '/api/entry/delete', headers: other, payload: { ids: [100] } });
    expect(deleteForeign.statusCode).toBe(403);
    // A token claiming team 1 for a team-2 member grants nothing: the team is read from the log.
    const lying = await commandApi.inject({ method: 'PUT', url: '/api/entry/delete', headers: { authorization: bearer(claims(21, 1)) }, payload: { ids: [100] } });
    expect(lying.statusCode).toBe(403);
    expect(await app.store.headPosition()).toBe(head);
  });

  test.each([
    ['no token', undefined],
    ['a token signed with another secret', 'forged'],
    ['an alg:none token', 'none'],
    ['an expired token', 'expired'],
    ['garbage', 'Bearer not.a.token'],
  ])('%s gets 401 UNAUTHORIZED', async (_name, kind) => {
    let authorization: string | undefined;
    if (kind === 'forged') {
      const other = buildCommandApi({ commands: app.commands, sessions: sessions.accounts, jwtSecret: `${SECRET}-other` });
      await other.ready();
      authorization = `Bearer ${other.jwt.sign(sessions.access(claims(11, 1)))}`;
      await other.close();
    } else if (kind === 'none') {
      const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      authorization = `Bearer ${encode({ alg: 'none', typ: 'JWT' })}.${encode({ ...sessions.access(claims(11, 1)), iat: Math.floor(Date.now() / 1000) })}.`;
    } else if (kind === 'expired') {
      authorization = `Bearer ${commandApi.jwt.sign({ ...sessions.access(claims(11, 1)), iat: Math.floor(Date.now() / 1000) - 3600 } as AccessClaims, { expiresIn: 1 })}`;
    } else if (kind) {
      authorization = kind;
    }
    const response = await commandApi.inject({
      method: 'POST', url: '/api/entry', headers: authorization ? { authorization } : {},
      payload: { distance: 5, entry_type: 'WALK', performed_at: '2025-04-20' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'UNAUTHORIZED' });
  });

  test.each([
    ['malformed JSON', '{"distance": 5,', 400, 'INVALID_REQUEST'],
    ['an unknown field', { distance: 5, entry_type: 'WALK', performed_at: '2025-04-20', colour: 'blue' }, 400, 'INVALID_REQUEST'],
    // A §3 Entry's team_id is accepted and compared: another team's is refused.
    ["another team's team_id", { distance: 5, entry_type: 'WALK', performed_at: '2025-04-20', team_id: 2 }, 409, 'FIELD_MISMATCH'],
    ['a distance as text', { distance: '5', entry_type: 'WALK', performed_at: '2025-04-20' }, 400, 'INVALID_REQUEST'],
    ['a missing type', { distance: 5, performed_at: '2025-04-20' }, 400, 'INVALID_REQUEST'],
    ['three decimals', { distance: 1.005, entry_type: 'WALK', performed_at: '2025-04-20' }, 400, 'INVALID_DISTANCE'],
    ['zero km on add', { distance: 0, entry_type: 'WALK', performed_at: '2025-04-20' }, 400, 'INVALID_DISTANCE'],
    ['a date in May', { distance: 5, entry_type: 'WALK', performed_at: '2025-05-01' }, 400, 'INVALID_PERFORMED_AT'],
    ['an impossible date', { distance: 5, entry_type: 'WALK', performed_at: '2025-04-31' }, 400, 'INVALID_PERFORMED_AT'],
    ['an over-long type', { distance: 5, entry_type: 'x'.repeat(65), performed_at: '2025-04-20' }, 400, 'INVALID_REQUEST'],
    ['a blank free-text type', { distance: 5, entry_type: '   ', performed_at: '2025-04-20' }, 400, 'INVALID_ENTRY_TYPE'],
  ])('%s gets a clear code, never a 500', async (_name, payload, status, code) => {
    const head = await app.store.headPosition();
    const response = await commandApi.inject({
      method: 'POST', url: '/api/entry',
      headers: { authorization: bearer(claims(11, 1)), 'content-type': 'application/json' },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual(code === 'FIELD_MISMATCH' ? { message: code, field: 'team_id' } : { message: code });
    expect(await app.store.headPosition()).toBe(head);
  });

  test('the query API answers an admin asking for an unknown team with 404 NOT_FOUND and a bad position header with 400', async () => {
    const admin = { authorization: bearer(adminClaims()) };
    expect((await queryApi.inject({ url: '/api/team/999', headers: admin })).json()).toEqual({ message: 'NOT_FOUND' });
    expect((await queryApi.inject({ url: '/api/team/abc', headers: admin })).statusCode).toBe(400);
    const bad = await queryApi.inject({ url: '/api/stats', headers: { 'x-min-position': '-1' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'INVALID_REQUEST' });
  });
});
