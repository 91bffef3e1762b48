/**
 * The projections: one poisoned event can no longer stall the pipeline.
 *
 * The audit's finding: a participant whose (encrypted) name holds NUL reached the team-directory
 * and admin-directory projections, whose every batch then failed with `invalid byte sequence for
 * encoding "UTF8": 0x00` and was retried for ever — team pages and the admin console froze, every
 * read-your-writes request waited its full timeout, and a replay failed the same way. Here such an
 * event is appended straight to the store (as an old event or a bug would), and with the real
 * projector (BullMQ wake-ups) and both APIs:
 *
 * - the projections park it (error recorded, checkpoint past it, a warning logged without the
 *   person's data) and keep applying what comes after: the team pages and stats keep updating and
 *   read-your-writes answers at once;
 * - GET /api/admin/parked shows it and counts it; skip records ProjectionEventSkipped and
 *   resolves the parks; retry, after the cause is gone, applies the event;
 * - a replay with the poisoned events in the log completes and parks them, the log's decisions
 *   resolving the decided ones again.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { AccountDirectory, AccountService, CommandService, withAfterCommit } from '@sinilill/commands';
import type { ParkedEventsAnswer, StatsAnswer, TeamEntriesAnswer, TeamMembersAnswer } from '@sinilill/contracts';
import { SCHEMA_VERSIONS, streams, type ActingUser, type ParticipantRegistered, type ProjectionEventSkipped } from '@sinilill/domain';
import type { Mailer } from '@sinilill/mail';
import { WakeUpPublisher } from '@sinilill/messaging';
import { startProjector, type RunningProjector } from '@sinilill/projector';
import { buildCommandApi, readModelLookups } from '@sinilill/command-api';
import { buildQueryApi } from '@sinilill/query-api';
import { projections, readCheckpoints, replayAndRecord, type ParkReport } from '@sinilill/read-models';
import { streamIndexOn, testApplication, type TestApplication } from '../support/app';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const NOW = new Date('2025-04-15T09:00:00Z');
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const noMail: Mailer = { send: async () => undefined, close: () => undefined };
const POISON_NAME = 'Evil\u0000Name';
const POISON_EMAIL = 'evil-person@example.ee';

describe('a poisoned event cannot stall the projections', () => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let commands: CommandService;
  let accounts: AccountService;
  let commandApi: FastifyInstance;
  let queryApi: FastifyInstance;
  let projector: RunningProjector;
  let publisher: WakeUpPublisher;
  const prefix = `t${randomUUID().slice(0, 8)}`;
  const logs: { message: string; details: Record<string, unknown> }[] = [];
  let teamA: number;
  let teamB: number;
  let tokens: { mari: string; jyri: string; admin: string };
  /** Global position of the poisoned ParticipantRegistered. */
  let poisoned: number;

  const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const command = (method: 'POST' | 'PUT', url: string, payload: object, token = tokens.admin) =>
    commandApi.inject({ method, url: `/api${url}`, payload, headers: auth(token) });
  const query = (url: string, token: string, position?: number) => queryApi.inject({
    method: 'GET', url: `/api${url}`, headers: { ...auth(token), ...(position !== undefined ? { 'x-min-position': String(position) } : {}) },
  });
  const ok = <T>(response: LightMyRequestResponse): T => {
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as T;
  };
  const expectRefusal = (response: LightMyRequestResponse, status: number, code: string) => {
    expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({ status, body: { message: code } });
  };
  const login = async (email: string, password: string) =>
    ok<{ token: string }>(await commandApi.inject({ method: 'POST', url: '/api/login', payload: { email, password } })).token;
  /** Reads a page as of `position` and says whether read-your-writes reached it (not the timeout). */
  const fresh = async <T>(url: string, token: string, position: number): Promise<T> => {
    const started = performance.now();
    const response = await query(url, token, position);
    expect(response.headers['x-read-your-writes'], `${url} waited for ${position}`).toBeUndefined();
    expect(Number(response.headers['x-projected-position'])).toBeGreaterThanOrEqual(position);
    expect(performance.now() - started).toBeLessThan(2500);
    return ok<T>(response);
  };
  const parked = async (position: number, status: 'open' | 'all' = 'open') =>
    ok<ParkedEventsAnswer>(await query(`/admin/parked${status === 'all' ? '?status=all' : ''}`, tokens.admin, position));
  const count = (answer: ParkedEventsAnswer, projection: string) => answer.counts.find((c) => c.projection === projection)?.parked;

  /** Appends a ParticipantRegistered whose personal data holds NUL straight to the (protected) store. */
  const appendPoisoned = async (teamId: number, email: string): Promise<number> => {
    const participantId = await app.ids.next('participant');
    const data: ParticipantRegistered['data'] = {
      participantId, teamId, edition: 2025, fullName: POISON_NAME, email, birthYear: 1990, gender: 'UNDEFINED', isCaptain: false, newsletter: false,
      registeredAt: NOW.toISOString(),
    };
    const id = randomUUID();
    const { position } = await app.store.appendToStream(streams.participant(participantId), [{
      id, type: 'ParticipantRegistered', schemaVersion: SCHEMA_VERSIONS.ParticipantRegistered, data,
      metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: id, causationId: null },
    }], { expectedRevision: 'no_stream' });
    await publisher.wake(position);
    return position;
  };

  const addEntry = async (token: string, distance: number) => {
    const answer = ok<{ position: number; entry: { id: number } }>(await command('POST', '/entry', { distance, entry_type: 'WALK', performed_at: '2025-04-14' }, token));
    return answer;
  };

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    accountPool = new pg.Pool({ connectionString: app.url, max: 6 });
    const directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
    // The projectors are woken by the store's after-commit hook, as in the command API's server.ts.
    const store = withAfterCommit(app.store, (position) => { void publisher.wake(position); });
    commands = new CommandService({ store, ids: app.ids, now: () => NOW, directory, streamIndex: streamIndexOn(app.pool), ...readModelLookups(app.pool) });
    accounts = new AccountService({ store, ids: app.ids, directory, mailer: noMail, now: () => NOW, publicUrl: 'http://sinilill.test' });
    publisher = new WakeUpPublisher({ redisUrl: inject('redisUrl'), prefix });
    commandApi = buildCommandApi({
      commands, accounts, jwtSecret: SECRET, rateLimit: { max: 1000, timeWindowMs: 60_000 },
    });
    queryApi = buildQueryApi({ db: app.db, now: () => NOW, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes: { subscribe: () => () => undefined } });
    await Promise.all([commandApi.ready(), queryApi.ready()]);

    ({ teamId: teamA } = await commands.registerTeam({ teamName: 'Tartu Tammed', description: '', joinCode: 'TARTU234', icon: null }, system('team-a')));
    ({ teamId: teamB } = await commands.registerTeam({ teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'PARNU234', icon: null }, system('team-b')));
    const person = { birthYear: 1985, gender: 'FEMALE' as const, isCaptain: true, newsletter: false };
    await commands.registerParticipant({ ...person, teamId: teamA, fullName: 'Mari Maasikas', email: 'mari@example.ee' }, system('mari'));
    await commands.registerParticipant({ ...person, teamId: teamB, fullName: 'Jüri Juurikas', email: 'jyri@example.ee' }, system('jyri'));
    for (const [email, password] of [['mari@example.ee', 'mari-parool'], ['jyri@example.ee', 'jyri-parool']] as const) {
      await accounts.adminResetPassword((await directory.userIdOfEmail(email))!, password, system(`password-${email}`));
    }
    await accounts.ensureAdmin('admin@example.ee', 'admin-parool', NOW);
    // The real projector: a BullMQ worker per projection, woken after each append (the sweep kept out of it).
    projector = await startProjector({
      db: app.db, store: app.store, projections, redisUrl: inject('redisUrl'), prefix, sweepIntervalMs: 600_000,
      log: (message, details = {}) => { logs.push({ message, details }); },
    });
    tokens = {
      mari: await login('mari@example.ee', 'mari-parool'),
      jyri: await login('jyri@example.ee', 'jyri-parool'),
      admin: await login('admin@example.ee', 'admin-parool'),
    };
  }, 120_000);

  afterAll(async () => {
    await projector?.close();
    await publisher?.close();
    await commandApi?.close();
    await queryApi?.close();
    await accountPool?.end();
    await app?.close();
  });

  test('the poisoned event is parked by team-directory and admin-directory; the team pages, stats and read-your-writes keep working', async () => {
    poisoned = await appendPoisoned(teamA, POISON_EMAIL);
    // Later events: a new entry for another team, and one for the poisoned person's own team.
    const b = await addEntry(tokens.jyri, 12.6);
    const a = await addEntry(tokens.mari, 4.25);
    expect(a.position).toBeGreaterThan(b.position);

    const entriesB = await fresh<TeamEntriesAnswer>(`/team/${teamB}/entries`, tokens.jyri, a.position);
    expect(entriesB.map((e) => [e.id, e.distance])).toEqual([[b.entry.id, 12.6]]);
    const entriesA = await fresh<TeamEntriesAnswer>(`/team/${teamA}/entries`, tokens.mari, a.position);
    expect(entriesA.map((e) => e.id)).toEqual([a.entry.id]);
    const members = await fresh<TeamMembersAnswer>(`/team/${teamA}/participants`, tokens.mari, a.position);
    expect(members.map((m) => [m.full_name, m.distance])).toEqual([['Mari Maasikas', 4.25]]);
    const stats = await fresh<StatsAnswer>('/stats', tokens.mari, a.position);
    expect(stats.teams.find((t) => t.team.id === teamB)?.distance).toBe(13);
    expect(ok<{ users: { email: string | null }[] }>(await query('/admin/userdata', tokens.admin, a.position)).users.map((u) => u.email))
      .not.toContain(POISON_EMAIL);

    // Every checkpoint moved past the poisoned event.
    const checkpoints = await readCheckpoints(app.db);
    for (const projection of projections) expect(checkpoints[projection.name], projection.name).toBeGreaterThanOrEqual(a.position);

    // The parks: both projections that write the name, with the PostgreSQL error.
    const answer = await parked(a.position);
    expect(answer.events.map((e) => [e.projection, e.position, e.eventType, e.errorCode, e.status, e.attempts])).toEqual([
      ['admin-directory', poisoned, 'ParticipantRegistered', '22021', 'parked', 1],
      ['team-directory', poisoned, 'ParticipantRegistered', '22021', 'parked', 1],
    ]);
    expect(answer.events[0]!.error).toContain('invalid byte sequence for encoding "UTF8": 0x00');
    expect(answer.counts).toEqual(expect.arrayContaining([
      { projection: 'team-directory', parked: 1 }, { projection: 'admin-directory', parked: 1 },
      { projection: 'team-stats', parked: 0 }, { projection: 'settings', parked: 0 }, { projection: 'payments', parked: 0 },
    ]));
    // Nobody's data in the answer: no name, no e-mail.
    expect(JSON.stringify(answer)).not.toMatch(/Evil|evil-person/);

    // The projector warned once per park, with projection, position, type and error only.
    const warnings = logs.filter((l) => l.message === 'event parked');
    expect(warnings.map((w) => [w.details.projection, w.details.position, w.details.eventType, w.details.errorCode, w.details.level]).sort())
      .toEqual([['admin-directory', poisoned, 'ParticipantRegistered', '22021', 'warn'], ['team-directory', poisoned, 'ParticipantRegistered', '22021', 'warn']]);
    expect(JSON.stringify(logs)).not.toMatch(/Evil|evil-person/);
  });

  test('GET /api/admin/parked is for administrators; the decisions too', async () => {
    expectRefusal(await queryApi.inject({ method: 'GET', url: '/api/admin/parked' }), 401, 'UNAUTHORIZED');
    expectRefusal(await query('/admin/parked', tokens.mari), 403, 'FORBIDDEN');
    expectRefusal(await query('/admin/parked?status=none', tokens.admin), 400, 'INVALID_REQUEST');
    expectRefusal(await commandApi.inject({ method: 'POST', url: `/api/admin/parked/${poisoned}/skip`, payload: {} }), 401, 'UNAUTHORIZED');
    expectRefusal(await command('POST', `/admin/parked/${poisoned}/skip`, {}, tokens.mari), 403, 'FORBIDDEN');
    expectRefusal(await command('POST', `/admin/parked/${poisoned}/retry`, {}, tokens.mari), 403, 'FORBIDDEN');
    const head = await app.store.headPosition();
    expectRefusal(await command('POST', `/admin/parked/${head + 1000}/skip`, {}), 404, 'NOT_FOUND');
    expectRefusal(await command('POST', `/admin/parked/${poisoned}/skip`, { reason: 'x'.repeat(501) }), 400, 'VALUE_TOO_LONG');
    expectRefusal(await command('POST', `/admin/parked/${poisoned}/skip`, { reason: 'nul\u0000' }), 400, 'INVALID_CHARACTERS');
    expectRefusal(await command('POST', `/admin/parked/${poisoned}/skip`, { projection: 'Team Directory' }), 400, 'INVALID_REQUEST');
    expect(await app.store.headPosition()).toBe(head);
  });

  test('a skip is recorded as ProjectionEventSkipped in stream `operations` and resolves both parks', async () => {
    const { position } = ok<{ position: number }>(await command('POST', `/admin/parked/${poisoned}/skip`, { reason: 'Nimi sisaldab NUL-märki' }));
    const [event] = (await app.store.readStream(streams.operations())).filter((e) => e.globalPosition === position);
    expect(event?.type).toBe('ProjectionEventSkipped');
    const data = event!.data as ProjectionEventSkipped['data'];
    expect(data).toMatchObject({ projection: null, position: poisoned, eventType: 'ParticipantRegistered', reason: 'Nimi sisaldab NUL-märki' });
    expect(event!.metadata.actor?.role).toBe('ADMIN');

    const open = await parked(position);
    expect(open.events).toEqual([]);
    expect(count(open, 'team-directory')).toBe(0);
    expect(count(open, 'admin-directory')).toBe(0);
    const all = await parked(position, 'all');
    expect(all.events.map((e) => [e.projection, e.status, e.reason, e.resolvedAt])).toEqual([
      ['admin-directory', 'skipped', 'Nimi sisaldab NUL-märki', event!.recordedAt.toISOString()],
      ['team-directory', 'skipped', 'Nimi sisaldab NUL-märki', event!.recordedAt.toISOString()],
    ]);
    expect(logs.filter((l) => l.message === 'parked event skipped')).toHaveLength(2);
  });

  test('a retry re-applies a parked event once its cause is gone (a constraint the test adds and drops)', async () => {
    // A cause the test controls: team-stats cannot store this team name while the constraint stands.
    await sql`ALTER TABLE rm.team_stats ADD CONSTRAINT test_blocked_name CHECK (team_name <> 'Blokeeritud Tiim')`.execute(app.db);
    const blocked = await commands.registerTeam({ teamName: 'Blokeeritud Tiim', description: '', joinCode: 'BLOKK234', icon: null }, system('team-blocked'));
    await publisher.wake(blocked.position);
    const later = await addEntry(tokens.jyri, 1);
    await fresh<TeamEntriesAnswer>(`/team/${teamB}/entries`, tokens.jyri, later.position);
    const first = await parked(later.position);
    expect(first.events.map((e) => [e.projection, e.position, e.eventType, e.errorCode])).toEqual([
      ['team-stats', blocked.position, 'TeamRegistered', '23514'],
    ]);
    expect(first.events[0]!.error).toContain('check constraint "test_blocked_name"');

    // Retried before the fix: still parked, the attempt counted, a warning logged.
    const again = ok<{ position: number }>(await command('POST', `/admin/parked/${blocked.position}/retry`, { projection: 'team-stats' }));
    const stillParked = await parked(again.position);
    expect(stillParked.events.map((e) => [e.projection, e.status, e.attempts])).toEqual([['team-stats', 'parked', 2]]);
    expect(logs.some((l) => l.message === 'parked event failed again on retry' && l.details.position === blocked.position)).toBe(true);

    // The fix, then the retry: applied, the park resolved, the team in the stats.
    await sql`ALTER TABLE rm.team_stats DROP CONSTRAINT test_blocked_name`.execute(app.db);
    const retried = ok<{ position: number }>(await command('POST', `/admin/parked/${blocked.position}/retry`, {}));
    const after = await parked(retried.position);
    expect(after.events).toEqual([]);
    expect(count(after, 'team-stats')).toBe(0);
    const resolved = (await parked(retried.position, 'all')).events.find((e) => e.projection === 'team-stats');
    expect(resolved).toMatchObject({ status: 'retried', attempts: 3, position: blocked.position });
    const stats = await fresh<StatsAnswer>('/stats', tokens.mari, retried.position);
    expect(stats.teams.map((t) => t.team.team_name)).toContain('Blokeeritud Tiim');
    expect(logs.some((l) => l.message === 'parked event applied on retry' && l.details.position === blocked.position)).toBe(true);
    const recorded = (await app.store.readStream(streams.operations())).map((e) => e.type);
    expect(recorded.filter((t) => t === 'ProjectionEventRetryRequested')).toHaveLength(2);
  });

  test('a replay with poisoned events in the log completes: it parks them again, and the log’s skip resolves the skipped one again', async () => {
    // A second poisoned event nobody has decided about yet.
    const undecided = await appendPoisoned(teamB, 'another-evil@example.ee');
    const tail = await addEntry(tokens.jyri, 2);
    await fresh<TeamEntriesAnswer>(`/team/${teamB}/entries`, tokens.jyri, tail.position);
    const before = await parked(tail.position, 'all');

    const reports: ParkReport[] = [];
    const record = await replayAndRecord(app.db, app.store, projections, { jobId: null, onPark: (report) => reports.push(report) });
    expect(record.position).toBeGreaterThanOrEqual(tail.position);
    expect(record.after).toEqual(record.before);
    expect(reports.filter((r) => r.outcome === 'parked').map((r) => [r.projection, r.position]).sort()).toEqual([
      ['admin-directory', poisoned], ['admin-directory', undecided], ['team-directory', poisoned], ['team-directory', undecided],
    ]);
    expect(reports.filter((r) => r.outcome === 'skipped').map((r) => [r.projection, r.position]).sort()).toEqual([
      ['admin-directory', poisoned], ['team-directory', poisoned],
    ]);

    // The rebuilt read models: the skipped event resolved as before, the undecided one open; the
    // team-stats park is gone (without the test's constraint nothing fails there any more).
    const after = await parked(record.position, 'all');
    const summary = (answer: ParkedEventsAnswer) => answer.events.map((e) => [e.projection, e.position, e.status]);
    expect(summary(after)).toEqual([
      ['admin-directory', poisoned, 'skipped'], ['team-directory', poisoned, 'skipped'],
      ['admin-directory', undecided, 'parked'], ['team-directory', undecided, 'parked'],
    ]);
    expect(summary(before)).toContainEqual(['team-stats', expect.any(Number), 'retried']);
    expect(count(after, 'team-directory')).toBe(1);

    // And the live projector carries on over the swapped-in read models.
    const next = await addEntry(tokens.mari, 3);
    const entriesA = await fresh<TeamEntriesAnswer>(`/team/${teamA}/entries`, tokens.mari, next.position);
    expect(entriesA.map((e) => e.id)).toContain(next.entry.id);
  }, 120_000);
});
