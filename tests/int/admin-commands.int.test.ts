/**
 * The admin console's commands end to end on real PostgreSQL (spec §2 "Admin", §6, §7
 * `/admin/*`): who may call them; approval, payment, renames; deletions of entries, users and
 * teams with their cascades in one append and the erasure of the person's data (docs/decisions/0002); the
 * administrator's password reset; the global switches.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (the command API registers the plugin)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { AccountDirectory, AccountService, CommandService, withAfterCommit } from '@sinilill/commands';
import type { SessionClaims } from '@sinilill/contracts';
import { PERSONAL_DATA_FIELDS, streams, type ActingUser, type ParticipantRegistered, type UserRegistered } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection, type EventStore } from '@sinilill/event-store';
import { smtpMailer, type Mailer } from '@sinilill/mail';
import { buildCommandApi, readModelLookups } from '@sinilill/command-api';
import { streamIndexOn, testApplication, type TestApplication } from '../support/app';
import { startMailDev, type RunningMailDev } from '../support/maildev';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const NOW = new Date('2025-04-15T09:00:00Z');

describe('admin commands through the command API', () => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let store: EventStore;
  let directory: AccountDirectory;
  let commands: CommandService;
  let commandApi: FastifyInstance;
  let mail: RunningMailDev;
  let mailer: Mailer;
  let adminClaims: SessionClaims;
  let sessions: TestSessions;
  const woken: number[] = [];
  let serial = 0;

  const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });
  const userClaims = (participantId: number, teamId: number): SessionClaims => ({
    userId: `00000000-0000-4000-8000-0000000000${participantId}`, fullName: 'Test Person', is_approved: true, participantId, teamId, role: 'USER', isPaid: true,
  });
  // Real accounts with live sessions (a token needs its account's session version).
  const bearer = (claims: SessionClaims) => ({ authorization: sessions.bearer(commandApi, claims) });
  const asAdmin = () => bearer(adminClaims);
  const call = (method: 'PUT' | 'POST', url: string, payload: unknown, headers: Record<string, string> = asAdmin()) =>
    commandApi.inject({ method, url: `/api${url}`, payload: payload as object, headers });
  const expectRefusal = (response: LightMyRequestResponse, status: number, code: string, field?: string) => {
    expect({ status: response.statusCode, body: response.json() as unknown })
      .toEqual({ status, body: field === undefined ? { message: code } : { message: code, field } });
  };
  const expectOk = (response: LightMyRequestResponse) => {
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { success: boolean; position: number; count?: number };
  };
  const login = (email: string, password: string) => commandApi.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  const types = async (stream: string) => (await store.readStream(stream)).map((event) => event.type);

  /** A team with `members` participants (approved accounts, imported-style), each with `entries` entries. */
  const seedTeam = async (name: string, members: number, entries: number) => {
    const tag = `${name}-${++serial}`;
    const { teamId } = await commands.registerTeam({ teamName: name, description: '', joinCode: `JC${serial}X${serial}AB`, icon: null }, system(`${tag}:team`));
    const people: { participantId: number; userId: string; email: string; entryIds: number[] }[] = [];
    for (let m = 0; m < members; m++) {
      const email = `member-${serial}-${m}@example.ee`;
      const { participantId } = await commands.registerParticipant({
        teamId, fullName: `Liige ${m} ${name}`.slice(0, 32), email, birthYear: 1980, gender: 'FEMALE', isCaptain: m === 0, newsletter: false,
      }, system(`${tag}:p${m}`));
      const entryIds: number[] = [];
      for (let e = 0; e < entries; e++) {
        const { entry } = await commands.addEntry({ participantId, distance: 5 + e, entryType: 'WALK', performedAt: '2025-04-10' }, system(`${tag}:p${m}:e${e}`));
        entryIds.push(entry.id);
      }
      people.push({ participantId, userId: (await directory.userIdOfEmail(email))!, email, entryIds });
    }
    await app.project();
    return { teamId, people };
  };

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    accountPool = new pg.Pool({ connectionString: app.url, max: 6 });
    directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
    // A store of its own, so that this vault's forget is seen at once by the reads below.
    const vault = new PersonalDataVault({ pool: app.pool });
    // Every append that wrote something is recorded in `woken` (the store's after-commit hook).
    store = withAfterCommit(withPersonalDataProtection(new PostgresEventStore({ pool: app.pool }), vault, PERSONAL_DATA_FIELDS), (position) => { woken.push(position); });
    commands = new CommandService({ store, ids: app.ids, now: () => NOW, directory, personalData: vault, streamIndex: streamIndexOn(app.pool), ...readModelLookups(app.pool) });
    mail = await startMailDev();
    mailer = smtpMailer({ url: mail.smtpUrl, from: 'Sinilill <info@sinilill.test>' });
    const accounts = new AccountService({ store, ids: app.ids, directory, mailer, now: () => NOW, publicUrl: 'http://sinilill.test' });
    const admin = await accounts.ensureAdmin('admin@example.ee', 'admin-parool', NOW);
    adminClaims = { userId: admin.userId, fullName: 'Administrator', is_approved: true, participantId: null, teamId: null, role: 'ADMIN', isPaid: false };
    sessions = testSessions(app, { now: () => NOW });
    await sessions.enrol(adminClaims, userClaims(11, 1));
    commandApi = buildCommandApi({
      commands, accounts, jwtSecret: SECRET, rateLimit: { max: 1000, timeWindowMs: 60_000 },
    });
    await commandApi.ready();
  }, 120_000);

  afterAll(async () => {
    await commandApi?.close();
    mailer?.close();
    await mail?.close();
    await accountPool?.end();
    await app?.close();
  });

  describe('who may call them', () => {
    const userId = '0b6f4c1e-6a0e-4c36-9a53-3f1f0b6a9c11';
    const user = () => bearer(userClaims(11, 1));

    test('a USER gets 403 FORBIDDEN from every admin command route', async () => {
      expectRefusal(await call('PUT', `/admin/user/${userId}`, { is_approved: true }, user()), 403, 'FORBIDDEN');
      expectRefusal(await call('PUT', '/admin/participant/11', { is_paid: true }, user()), 403, 'FORBIDDEN');
      expectRefusal(await call('PUT', '/admin/team/1', { id: 1, team_name: 'Minu' }, user()), 403, 'FORBIDDEN');
      expectRefusal(await call('PUT', '/admin/deleteentities/entry', { ids: [1] }, user()), 403, 'FORBIDDEN');
      expectRefusal(await call('POST', '/admin/resetpassword', { userId, newPassword: 'uus-parool' }, user()), 403, 'FORBIDDEN');
      expectRefusal(await call('PUT', '/admin/settings', { registrationEnabled: false }, user()), 403, 'FORBIDDEN');
    });

    test('no token → 401 UNAUTHORIZED', async () => {
      expectRefusal(await call('PUT', '/admin/settings', { registrationEnabled: false }, {}), 401, 'UNAUTHORIZED');
      expectRefusal(await call('PUT', '/admin/deleteentities/user', { ids: [userId] }, {}), 401, 'UNAUTHORIZED');
    });

    test('bodies are strict: unknown fields and a kind mismatch of ids are INVALID_REQUEST; a foreign body id is FIELD_MISMATCH', async () => {
      expectRefusal(await call('PUT', `/admin/user/${userId}`, { is_approved: true, nickname: 'Boss' }), 400, 'INVALID_REQUEST');
      expectRefusal(await call('PUT', `/admin/user/${userId}`, { is_approved: true, id: '0b6f4c1e-6a0e-4c36-9a53-3f1f0b6a9c12' }), 409, 'FIELD_MISMATCH', 'id');
      expectRefusal(await call('PUT', '/admin/deleteentities/user', { ids: [5] }), 400, 'INVALID_REQUEST');
      expectRefusal(await call('PUT', '/admin/deleteentities/team', { ids: [userId] }), 400, 'INVALID_REQUEST');
      expectRefusal(await call('PUT', '/admin/deleteentities/account', { ids: [1] }), 400, 'INVALID_REQUEST');
      expectRefusal(await call('PUT', '/admin/participant/11', { id: 12, full_name: 'X' }), 409, 'FIELD_MISMATCH', 'id');
      expectRefusal(await call('PUT', '/admin/participant/11', { id: 11 }), 400, 'INVALID_REQUEST');
    });

    test('an administrator cannot delete their own account', async () => {
      expectRefusal(await call('PUT', '/admin/deleteentities/user', { ids: [adminClaims.userId] }), 403, 'FORBIDDEN');
    });
  });

  test('approval and payment toggles', async () => {
    const { people: [person] } = await seedTeam('Toggle Tiim', 1, 0);
    const { userId, participantId } = person!;
    const revoked = expectOk(await call('PUT', `/admin/user/${userId}`, { is_approved: false }));
    expect(revoked.position).toBeGreaterThan(0);
    expect(woken).toContain(revoked.position);
    expectOk(await call('PUT', `/admin/user/${userId}`, { is_approved: true }));
    expect((await types(streams.user(userId))).slice(-2)).toEqual(['UserApprovalRevoked', 'UserApproved']);

    const paid = expectOk(await call('PUT', `/admin/participant/${participantId}`, { is_paid: true }));
    expect(paid.position).toBeGreaterThan(0);
    expect((await types(streams.participant(participantId))).at(-1)).toBe('ParticipantPaymentMarked');
    expectRefusal(await call('PUT', '/admin/participant/99999', { is_paid: true }), 404, 'NOT_FOUND');
  });

  test('renames a participant (≤ 32) and a team (unique name)', async () => {
    const { teamId, people: [person] } = await seedTeam('Nimeta Tiim', 1, 0);
    const { participantId } = person!;
    expectOk(await call('PUT', `/admin/participant/${participantId}`, { id: participantId, full_name: ' Uus Nimi ' }));
    const renamed = (await store.readStream(streams.participant(participantId))).at(-1)!;
    expect(renamed.type).toBe('ParticipantRenamed');
    expect(renamed.data).toMatchObject({ participantId, fullName: 'Uus Nimi' });
    expectRefusal(await call('PUT', `/admin/participant/${participantId}`, { id: participantId, full_name: 'n'.repeat(33) }), 400, 'VALUE_TOO_LONG');

    await seedTeam('Võetud Nimi', 0, 0);
    expectRefusal(await call('PUT', `/admin/team/${teamId}`, { id: teamId, team_name: ' VÕETUD   nimi ' }), 409, 'TEAM_NAME_ALREADY_IN_USE');
    const changed = await call('PUT', `/admin/team/${teamId}`, { id: teamId, team_name: 'Vaba Nimi', description: 'Uus kirjeldus' });
    expect(changed.json()).toEqual({
      success: true, team: { id: teamId, team_name: 'Vaba Nimi', description: 'Uus kirjeldus', icon: null }, position: expect.any(Number),
    });
    // One append: the rename and the card change together.
    const [renamedTeam, card] = (await store.readStream(streams.team(teamId))).slice(-2);
    expect([renamedTeam!.type, card!.type]).toEqual(['TeamRenamed', 'TeamPublicAttributesChanged']);
    expect(renamedTeam!.metadata.commandId).toBe(card!.metadata.commandId);
    // The old name is free, the new one taken.
    expect(await directory.teamOfName('nimeta tiim')).toBeNull();
    expect(await directory.teamOfName('vaba nimi')).toBe(teamId);
    expectRefusal(await call('PUT', `/admin/team/${teamId}`, { id: teamId, team_name: 't'.repeat(51) }), 400, 'VALUE_TOO_LONG');
  });

  test('deletes entries', async () => {
    const { people: [person] } = await seedTeam('Kanne Tiim', 1, 2);
    const answer = expectOk(await call('PUT', '/admin/deleteentities/entry', { ids: person!.entryIds }));
    expect(answer).toEqual({ success: true, count: 2, position: expect.any(Number) });
    for (const entryId of person!.entryIds) expect((await types(streams.entry(entryId))).at(-1)).toBe('EntryDeleted');
  });

  test('deletes a user: account and participant in one append, the entries stay (the team keeps the km), then the person is erased', async () => {
    const { teamId, people: [person] } = await seedTeam('Kustuta Kasutaja', 1, 2);
    const { userId, participantId, email, entryIds } = person!;
    expectOk(await call('POST', '/admin/resetpassword', { userId, newPassword: 'kasutaja-parool' }));
    expect((await login(email, 'kasutaja-parool')).statusCode).toBe(200);
    expectOk(await call('PUT', `/admin/participant/${participantId}`, { id: participantId, full_name: 'Enne Kustutamist' }));

    const answer = expectOk(await call('PUT', '/admin/deleteentities/user', { ids: [userId] }));
    expect(answer).toEqual({ success: true, count: 1, position: expect.any(Number) });
    const deletions = [
      (await store.readStream(streams.user(userId))).at(-1)!,
      (await store.readStream(streams.participant(participantId))).at(-1)!,
    ];
    expect(deletions.map((event) => event.type)).toEqual(['UserDeleted', 'ParticipantDeleted']);
    // One deletion rule with the owner's own erasure (docs/decisions/0109): the entries stay.
    for (const id of entryIds) expect((await types(streams.entry(id))).at(-1)).toBe('EntryAdded');
    expect(new Set(deletions.map((event) => event.metadata.commandId)).size).toBe(1);
    expect(Math.max(...deletions.map((event) => event.globalPosition))).toBe(answer.position);
    expect(woken).toContain(answer.position);

    // Login fails as for an unknown e-mail; the events are still in the log, their personal data null.
    expectRefusal(await login(email, 'kasutaja-parool'), 401, 'INVALID_CREDENTIALS');
    const participantEvents = await store.readStream(streams.participant(participantId));
    expect(participantEvents.map((event) => event.type)).toEqual(['ParticipantRegistered', 'ParticipantRenamed', 'ParticipantDeleted']);
    expect(participantEvents[0]!.data).toMatchObject({ fullName: null, email: null, birthYear: null, teamId });
    expect(participantEvents[1]!.data).toMatchObject({ fullName: null });
    const registered = (await store.readStream(streams.user(userId)))[0]!;
    expect(registered.type).toBe('UserRegistered');
    expect(registered.data as UserRegistered['data']).toMatchObject({ email: null, fullName: null, participantId });
    expect((await app.pool.query('SELECT 1 FROM app.credentials WHERE user_id = $1', [userId])).rowCount).toBe(0);

    // Deleted is deleted: again → NOT_FOUND; payment → NOT_FOUND; the e-mail may register again.
    expectRefusal(await call('PUT', '/admin/deleteentities/user', { ids: [userId] }), 404, 'NOT_FOUND');
    expectRefusal(await call('PUT', `/admin/participant/${participantId}`, { is_paid: true }), 404, 'NOT_FOUND');
    expectRefusal(await call('POST', '/admin/resetpassword', { userId, newPassword: 'uuesti-parool' }), 404, 'NOT_FOUND');
    const again = await commandApi.inject({
      method: 'POST', url: '/api/registerteam',
      payload: {
        full_name: 'Tagasi Tulija', email, gender: 'MALE', birth_year: 1985, password: 'kevadine-salasõna-1', newsletter: false,
        type: 'REGISTER_TEAM', team_name: `Tagasitulijad ${serial}`, lang: 'est',
      },
    });
    expect(again.statusCode, again.body).toBe(200);
  });

  test('deletes a team: the team, its members and their entries in one append; the name is free again', async () => {
    const { teamId, people } = await seedTeam('Kustuta Tiim', 2, 1);
    const answer = expectOk(await call('PUT', '/admin/deleteentities/team', { ids: [teamId] }));
    expect(answer).toEqual({ success: true, count: 1, position: expect.any(Number) });
    const last = async (stream: string) => (await store.readStream(stream)).at(-1)!;
    const deletions = [await last(streams.team(teamId))];
    for (const person of people) {
      deletions.push(await last(streams.user(person.userId)), await last(streams.participant(person.participantId)));
      for (const entryId of person.entryIds) deletions.push(await last(streams.entry(entryId)));
    }
    expect(deletions.map((event) => event.type)).toEqual([
      'TeamDeleted', 'UserDeleted', 'ParticipantDeleted', 'EntryDeleted', 'UserDeleted', 'ParticipantDeleted', 'EntryDeleted',
    ]);
    expect(new Set(deletions.map((event) => event.metadata.commandId)).size).toBe(1);
    for (const person of people) {
      const [registered] = await store.readStream(streams.participant(person.participantId));
      expect((registered!.data as ParticipantRegistered['data']).email).toBeNull();
      expect(await directory.userIdOfEmail(person.email)).toBeNull();
    }
    // The name is free, the join code revoked; the team is gone for every further command.
    expect(await directory.teamOfName('Kustuta Tiim')).toBeNull();
    expect((await app.pool.query('SELECT 1 FROM app.join_codes WHERE team_id = $1 AND revoked_at IS NULL', [teamId])).rowCount).toBe(0);
    await commands.registerTeam({ teamName: 'Kustuta Tiim', description: '', joinCode: 'UUSKOOD9', icon: null }, system('reuse-name'));
    expectRefusal(await call('PUT', `/admin/team/${teamId}`, { id: teamId, description: 'x' }), 404, 'NOT_FOUND');
    expectRefusal(await call('PUT', '/admin/deleteentities/team', { ids: [teamId] }), 404, 'NOT_FOUND');
  });

  test('resets a password: the user logs in with it; under 6 characters is PASSWORD_TOO_SHORT', async () => {
    const { people: [person] } = await seedTeam('Parooli Tiim', 1, 0);
    expectRefusal(await call('POST', '/admin/resetpassword', { userId: person!.userId, newPassword: '12345' }), 400, 'PASSWORD_TOO_SHORT');
    const answer = expectOk(await call('POST', '/admin/resetpassword', { userId: person!.userId, newPassword: 'brauseri-oma' }));
    expect(answer.position).toBeGreaterThan(0);
    expect((await types(streams.user(person!.userId))).at(-1)).toBe('PasswordChanged');
    const session = await login(person!.email, 'brauseri-oma');
    expect(session.statusCode, session.body).toBe(200);
  });

  test('settings: registration off → /registerteam answers REGISTRATION_DISABLED', async () => {
    const off = expectOk(await call('PUT', '/admin/settings', { registrationEnabled: false }));
    expect(off.position).toBeGreaterThan(0);
    const registration = await commandApi.inject({
      method: 'POST', url: '/api/registerteam',
      payload: {
        full_name: 'Hiline Tulija', email: 'hiline@example.ee', gender: 'MALE', birth_year: 1985, password: 'kevadine-salasõna-1', newsletter: false,
        type: 'REGISTER_TEAM', team_name: 'Hilinejad', lang: 'est',
      },
    });
    expectRefusal(registration, 400, 'REGISTRATION_DISABLED');
    expectOk(await call('PUT', '/admin/settings', { registrationEnabled: true }));
  });
});
