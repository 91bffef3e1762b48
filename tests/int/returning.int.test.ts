/**
 * Returning participants on real PostgreSQL, through the command API: people of the log's 2025
 * edition log in a year later with the same account and join a planned and opened 2026 in one
 * step (POST /api/me/editions/2026/join): a new team under last year's name, a team of 2026 by its
 * code, or their 2025 team re-opened; the refusals (twice, a 2025 code, outside the registration
 * window, a team one was not in); the invitation of a re-opened team's earlier members, in their
 * languages, through a real SMTP server; the self-erasure of a person who took part twice; and
 * nothing of 2026 for a person who did not return.
 */
import type {} from '@fastify/jwt'; // app.jwt's type (the command API registers the plugin)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { AccountDirectory, AccountService, CommandService, type CommandRequest } from '@sinilill/commands';
import type { AccessClaims } from '@sinilill/contracts';
import {
  PERSONAL_DATA_FIELDS,
  accountDecider,
  participantDecider,
  streams,
  teamDecider,
  type ActingUser,
  type ParticipantRegistered,
  type TeamRegistered,
} from '@sinilill/domain';
import { edition2025, edition2026Demo } from '@sinilill/domain/seed';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection, type EventStore, type RecordedEvent } from '@sinilill/event-store';
import { smtpMailer, type Mailer } from '@sinilill/mail';
import { buildCommandApi } from '@sinilill/command-api';
import { streamIndexOn, testApplication, type TestApplication } from '../support/app';
import { startMailDev, type RunningMailDev } from '../support/maildev';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const PASSWORD = 'sinine lill metsa all';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const ADMIN: ActingUser = { userId: 'a0d1f6c4-3f51-4a4c-9d51-2f0f5c6c0a01', role: 'ADMIN', participantId: null, teamId: null };

interface Person { userId: string; participantId: number; teamId: number; email: string; fullName: string; token: string }

describe('returning participants join the next edition with their account', () => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let store: EventStore;
  let commands: CommandService;
  let accounts: AccountService;
  let commandApi: FastifyInstance;
  let mail: RunningMailDev;
  let mailer: Mailer;
  let clock = new Date('2025-02-01T09:00:00Z');
  let serial = 0;
  // 2025: Mari (captain), Kati and Jaan in Tartu Tammed; Peeter (captain), Liis, Toomas and Anu in Pärnu Pääsukesed.
  const people = {} as Record<'mari' | 'kati' | 'jaan' | 'peeter' | 'liis' | 'toomas' | 'anu', Person>;
  let tartu2025 = 0;
  let parnu2025 = 0;

  const request = (actor: ActingUser): CommandRequest => {
    const id = `returning-test:${++serial}`;
    return { actor, metadata: { commandId: id, correlationId: id, causationId: null } };
  };
  const as = (person: Person): CommandRequest => request({ userId: person.userId, role: 'USER', participantId: person.participantId, teamId: person.teamId });
  const tokenOf = async (email: string) => {
    const response = await commandApi.inject({ method: 'POST', url: '/api/login', payload: { email, password: PASSWORD } });
    expect(response.statusCode, response.body).toBe(200);
    return `Bearer ${response.json<{ token: string }>().token}`;
  };
  const claimsOf = (token: string) => commandApi.jwt.decode<AccessClaims>(token.replace('Bearer ', ''))!;
  const join = (person: Person, body: object, year = 2026, token = person.token) =>
    commandApi.inject({ method: 'POST', url: `/api/me/editions/${year}/join`, payload: body, headers: { authorization: token } });
  const invite = (teamId: number, token: string) =>
    commandApi.inject({ method: 'POST', url: `/api/team/${teamId}/invite-returning`, headers: { authorization: token } });
  const refusal = (response: LightMyRequestResponse) => ({ status: response.statusCode, body: response.json<unknown>() });
  const joined = async (response: LightMyRequestResponse) => {
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ participantId: number; teamId: number; joinCode: string | null; token: string; position: number }>();
  };
  const participant = async (participantId: number) =>
    (await store.readStream(streams.participant(participantId))).reduce((state, event) => participantDecider.evolve(state, event as never), participantDecider.initialState());
  const team = async (teamId: number) =>
    (await store.readStream(streams.team(teamId))).reduce((state, event) => teamDecider.evolve(state, event as never), teamDecider.initialState());
  const teamRegistered = async (teamId: number) => (await store.readStream(streams.team(teamId)))[0]!.data as TeamRegistered['data'];
  const joinCodeOf = async (teamId: number) => (await teamRegistered(teamId)).joinCode;
  const participantsOf = async (year: number) => (await store.readEvents({ types: ['ParticipantRegistered'] }))
    .map((event: RecordedEvent) => event.data as ParticipantRegistered['data'])
    .filter((data) => data.edition === year);

  /** A person registered by the system in 2025 as the importer would, approved, with a password, logged in. */
  const register = async (name: string, input: { fullName: string; lang: 'est' | 'eng'; team?: string; joinCode?: string; birthYear?: number }): Promise<Person> => {
    const email = `${name}@example.ee`;
    const person = { fullName: input.fullName, email, gender: 'FEMALE' as const, birthYear: input.birthYear ?? 1980, password: PASSWORD, newsletter: true, lang: input.lang };
    const result = input.team !== undefined
      ? await accounts.registerTeam({ ...person, teamName: input.team }, request(SYSTEM))
      : await accounts.joinTeam({ ...person, joinCode: input.joinCode! }, request(SYSTEM));
    await accounts.setApproval(result.userId, true, request(SYSTEM));
    return { ...result, email, fullName: input.fullName, token: await tokenOf(email) };
  };

  beforeAll(async () => {
    app = await testApplication({ now: () => clock });
    accountPool = new pg.Pool({ connectionString: app.url, max: 6 });
    const directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
    const vault = new PersonalDataVault({ pool: app.pool, cacheTtlMs: 0 });
    store = withPersonalDataProtection(new PostgresEventStore({ pool: app.pool }), vault, PERSONAL_DATA_FIELDS);
    mail = await startMailDev();
    mailer = smtpMailer({ url: mail.smtpUrl, from: 'Sinilill <info@sinilill.test>' });
    const now = () => clock;
    commands = new CommandService({ store, ids: app.ids, now, directory, personalData: vault, streamIndex: streamIndexOn(app.pool) });
    accounts = new AccountService({ store, ids: app.ids, directory, mailer, now, publicUrl: 'http://sinilill.test' });
    commandApi = buildCommandApi({ commands, accounts, jwtSecret: SECRET, rateLimit: { max: 1000, timeWindowMs: 60_000 } });
    await commandApi.ready();

    // The 2025 edition as the first start plans it, then its people and an entry of Mari's.
    await commands.planEdition(edition2025, request(ADMIN));
    await commands.openEdition(2025, request(ADMIN));
    clock = new Date('2025-04-15T09:00:00Z');
    people.mari = await register('mari', { fullName: 'Mari Maasikas', lang: 'est', team: 'Tartu Tammed', birthYear: 1984 });
    tartu2025 = people.mari.teamId;
    const tartuCode = await joinCodeOf(tartu2025);
    people.kati = await register('kati', { fullName: 'Kati Karu', lang: 'eng', joinCode: tartuCode });
    people.jaan = await register('jaan', { fullName: 'Jaan Juurikas', lang: 'est', joinCode: tartuCode });
    people.peeter = await register('peeter', { fullName: 'Peeter Puu', lang: 'est', team: 'Pärnu Pääsukesed' });
    parnu2025 = people.peeter.teamId;
    const parnuCode = await joinCodeOf(parnu2025);
    people.liis = await register('liis', { fullName: 'Liis Lepp', lang: 'eng', joinCode: parnuCode });
    people.toomas = await register('toomas', { fullName: 'Toomas Tamm', lang: 'est', joinCode: parnuCode });
    people.anu = await register('anu', { fullName: 'Anu Aas', lang: 'eng', joinCode: parnuCode });
    await commands.addEntry({ participantId: people.mari.participantId, distance: 12.5, entryType: 'WALK', performedAt: '2025-04-10' }, as(people.mari));

    // A year later: 2025 is closed, 2026 planned and announced; its registration opens on 1 March.
    clock = new Date('2026-02-01T09:00:00Z');
    await commands.closeEdition(2025, request(ADMIN));
    await commands.planEdition(edition2026Demo, request(ADMIN));
    await commands.openEdition(2026, request(ADMIN));
  }, 180_000);

  afterAll(async () => {
    await commandApi?.close();
    mailer?.close();
    await mail?.close();
    await accountPool?.end();
    await app?.close();
  });

  test('before 2026 takes registrations, and for a year that does not, joining is refused with REGISTRATION_NOT_OPEN', async () => {
    clock = new Date('2026-02-15T09:00:00Z');
    expect(refusal(await join(people.mari, { mode: 'newTeam', teamName: 'Tartu Tammed' }))).toEqual({ status: 409, body: { message: 'REGISTRATION_NOT_OPEN' } });
    clock = new Date('2026-03-15T09:00:00Z');
    expect(refusal(await join(people.mari, { mode: 'newTeam', teamName: 'Tartu Tammed' }, 2025))).toEqual({ status: 409, body: { message: 'REGISTRATION_NOT_OPEN' } });
    expect(refusal(await join(people.mari, { mode: 'newTeam', teamName: 'Tartu Tammed' }, 2027))).toEqual({ status: 409, body: { message: 'REGISTRATION_NOT_OPEN' } });
    expect(refusal(await join(people.mari, { mode: 'somethingElse' }))).toEqual({ status: 400, body: { message: 'INVALID_REQUEST' } });
    expect(await participantsOf(2026)).toEqual([]);
  });

  test('a 2025 participant joins 2026 with last year’s team name: a new participant with her profile, a new 2026 team, a session naming them', async () => {
    clock = new Date('2026-03-15T09:00:00Z');
    const mari = people.mari;
    const answer = await joined(await join(mari, { mode: 'newTeam', teamName: 'Tartu Tammed' }));
    expect(answer.participantId).not.toBe(mari.participantId);
    expect(answer.teamId).not.toBe(tartu2025);
    expect(answer.joinCode).toEqual(await joinCodeOf(answer.teamId));

    const newcomer = await participant(answer.participantId);
    expect(newcomer).toMatchObject({
      exists: true, edition: 2026, teamId: answer.teamId, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1984,
      gender: 'FEMALE', newsletter: true, isCaptain: true, isPaid: false,
    });
    expect(await team(answer.teamId)).toMatchObject({ exists: true, edition: 2026, teamName: 'Tartu Tammed' });
    expect((await teamRegistered(answer.teamId)).continues).toBeUndefined();
    // Last year's team and participant stay as they were.
    expect(await team(tartu2025)).toMatchObject({ exists: true, deleted: false, edition: 2025, teamName: 'Tartu Tammed' });
    expect(await participant(mari.participantId)).toMatchObject({ exists: true, edition: 2025, teamId: tartu2025 });

    const account = (await store.readStream(streams.user(mari.userId))).reduce((state, event) => accountDecider.evolve(state, event as never), accountDecider.initialState());
    expect({ participantId: account.participantId, participantIds: account.participantIds }).toEqual({ participantId: answer.participantId, participantIds: [mari.participantId, answer.participantId] });

    // The answer's token, and a new login, name the 2026 participant; last year's token ends.
    expect(claimsOf(`Bearer ${answer.token}`)).toMatchObject({ userId: mari.userId, participantId: answer.participantId, teamId: answer.teamId, isPaid: false });
    const login = await tokenOf(mari.email);
    expect(claimsOf(login)).toMatchObject({ participantId: answer.participantId, teamId: answer.teamId });
    expect((await join(mari, { mode: 'newTeam', teamName: 'Another' }, 2026, mari.token)).statusCode).toBe(401);
    people.mari = { ...mari, participantId: answer.participantId, teamId: answer.teamId, token: login };
  });

  test('joining twice is ALREADY_EXISTS, whichever way', async () => {
    const mari = people.mari;
    expect(refusal(await join(mari, { mode: 'newTeam', teamName: 'Tartu Tammed Kaks' }))).toEqual({ status: 409, body: { message: 'ALREADY_EXISTS' } });
    expect(refusal(await join(mari, { mode: 'joinCode', joinCode: (await joinCodeOf(mari.teamId))! }))).toEqual({ status: 409, body: { message: 'ALREADY_EXISTS' } });
    expect((await participantsOf(2026)).filter((data) => data.email === mari.email)).toHaveLength(1);
  });

  test('a 2025 join code joins nobody in 2026; a 2026 team’s code does; a 2026 name is taken in 2026', async () => {
    const kati = people.kati;
    for (const code of [await joinCodeOf(tartu2025), await joinCodeOf(parnu2025)]) {
      expect(refusal(await join(kati, { mode: 'joinCode', joinCode: code }))).toEqual({ status: 400, body: { message: 'INVALID_JOIN_CODE' } });
    }
    expect(refusal(await join(kati, { mode: 'newTeam', teamName: ' tartu TAMMED ' }))).toEqual({ status: 409, body: { message: 'TEAM_NAME_ALREADY_IN_USE' } });
    const answer = await joined(await join(kati, { mode: 'joinCode', joinCode: (await joinCodeOf(people.mari.teamId))! }));
    expect(answer).toMatchObject({ teamId: people.mari.teamId, joinCode: null });
    expect(await participant(answer.participantId)).toMatchObject({ edition: 2026, teamId: people.mari.teamId, fullName: 'Kati Karu', isCaptain: false });
    people.kati = { ...kati, participantId: answer.participantId, teamId: answer.teamId, token: `Bearer ${answer.token}` };
  });

  test('reopenTeam: only one’s own earlier team; the new team keeps its name and continues it', async () => {
    const peeter = people.peeter;
    expect(refusal(await join(peeter, { mode: 'reopenTeam', teamId: tartu2025 }))).toEqual({ status: 403, body: { message: 'FORBIDDEN' } });
    expect(refusal(await join(peeter, { mode: 'reopenTeam', teamId: 999_999 }))).toEqual({ status: 404, body: { message: 'NOT_FOUND' } });
    expect(refusal(await join(peeter, { mode: 'reopenTeam', teamId: people.mari.teamId }))).toMatchObject({ status: 400 });
    const answer = await joined(await join(peeter, { mode: 'reopenTeam', teamId: parnu2025 }));
    expect(await team(answer.teamId)).toMatchObject({ edition: 2026, teamName: 'Pärnu Pääsukesed' });
    expect((await teamRegistered(answer.teamId)).continues).toBe(parnu2025);
    expect(await participant(answer.participantId)).toMatchObject({ edition: 2026, teamId: answer.teamId, isCaptain: true, fullName: 'Peeter Puu' });
    people.peeter = { ...peeter, participantId: answer.participantId, teamId: answer.teamId, token: `Bearer ${answer.token}` };
  });

  test('invite-returning mails the earlier members who have not joined, each in their language, with the new team’s code', async () => {
    const peeter = people.peeter;
    const code = (await joinCodeOf(peeter.teamId))!;
    // Liis comes back before the invitation: she is not mailed.
    const liis = await joined(await join(people.liis, { mode: 'joinCode', joinCode: code }));
    expect(liis.teamId).toBe(peeter.teamId);

    // Only a member of the team, and only for a team that continues one.
    expect(refusal(await invite(peeter.teamId, people.kati.token))).toEqual({ status: 403, body: { message: 'FORBIDDEN' } });
    expect(refusal(await invite(people.mari.teamId, people.mari.token))).toEqual({ status: 400, body: { message: 'INVALID_REQUEST' } });

    const response = await invite(peeter.teamId, peeter.token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ invited: 2 });

    const toomas = await mail.waitForMail('toomas@example.ee', 'Pärnu Pääsukesed');
    expect(toomas.subject).toBe('Võistkond „Pärnu Pääsukesed“ ootab sind: Sinilill 2026');
    expect(toomas.text).toContain('Tere, Toomas Tamm!');
    expect(toomas.text).toContain(`liitumiskoodiga ${code}`);
    expect(toomas.text).toContain('http://sinilill.test/login?lang=est');
    const anu = await mail.waitForMail('anu@example.ee', 'Pärnu Pääsukesed');
    expect(anu.subject).toBe('Your team “Pärnu Pääsukesed” is back for Sinilill 2026');
    expect(anu.text).toContain('Hello Anu Aas,');
    expect(anu.text).toContain(`join code ${code}`);
    expect(anu.text).toContain('http://sinilill.test/login?lang=eng');
    for (const name of ['peeter', 'liis'] as const) expect(await mail.count(`${name}@example.ee`, 'Pärnu Pääsukesed')).toBe(0);
  });

  test('a keyed join whose answer was lost answers the same again after a new login, and joins once', async () => {
    const toomas = people.toomas;
    const body = { mode: 'joinCode', joinCode: (await joinCodeOf(people.peeter.teamId))! };
    const headers = (token: string) => ({ authorization: token, 'idempotency-key': 'b1f5c1de-7d1a-4c56-9a53-3f1f0b6a9c77' });
    const first = await joined(await commandApi.inject({ method: 'POST', url: '/api/me/editions/2026/join', payload: body, headers: headers(toomas.token) }));
    // The join ended the session the request was sent with; the client logs in again and retries.
    const again = await joined(await commandApi.inject({ method: 'POST', url: '/api/me/editions/2026/join', payload: body, headers: headers(await tokenOf(toomas.email)) }));
    expect({ participantId: again.participantId, teamId: again.teamId, joinCode: again.joinCode, position: again.position })
      .toEqual({ participantId: first.participantId, teamId: first.teamId, joinCode: null, position: first.position });
    expect((await participantsOf(2026)).filter((data) => data.email === toomas.email)).toHaveLength(1);
  });

  test('a person who does not return is not a 2026 participant', async () => {
    const emails = (await participantsOf(2026)).map((data) => data.email).sort();
    expect(emails).toEqual(['kati@example.ee', 'liis@example.ee', 'mari@example.ee', 'peeter@example.ee', 'toomas@example.ee']);
    expect(emails).not.toContain(people.jaan.email);
    // Jaan's account still names his 2025 participant.
    expect(claimsOf(await tokenOf(people.jaan.email))).toMatchObject({ participantId: people.jaan.participantId, teamId: tartu2025 });
  });

  test('self-erasure after joining erases the person in both editions; the 2025 team keeps her km', async () => {
    const mari = people.mari;
    const first = (await store.readStream(streams.user(mari.userId)))[0]!.data as { participantId: number };
    const response = await commandApi.inject({ method: 'POST', url: '/api/me/erase', payload: { password: PASSWORD }, headers: { authorization: mari.token } });
    expect(response.statusCode, response.body).toBe(200);
    for (const participantId of [first.participantId, mari.participantId]) {
      const events = await store.readStream(streams.participant(participantId));
      expect(events.map((event) => event.type)).toContain('ParticipantDeleted');
      expect(events[0]!.data).toMatchObject({ fullName: null, email: null, birthYear: null });
    }
    expect((await store.readStream(streams.user(mari.userId)))[0]!.data).toMatchObject({ email: null, fullName: null });
    // The 2025 entry stays (the team keeps the km), without her name.
    const entries = await store.readEvents({ types: ['EntryAdded', 'EntryDeleted'], data: [{ field: 'participantId', values: [first.participantId] }] });
    expect(entries.map((event) => event.type)).toEqual(['EntryAdded']);
    expect(await team(tartu2025)).toMatchObject({ exists: true, deleted: false });
    expect(refusal(await commandApi.inject({ method: 'POST', url: '/api/login', payload: { email: mari.email, password: PASSWORD } }))).toMatchObject({ status: 401 });
  });

  test('an administrator’s deletion of a returning person deletes the participant of every edition and the account’s e-mail', async () => {
    const kati = people.kati;
    const first = (await store.readStream(streams.user(kati.userId)))[0]!.data as { participantId: number };
    await commands.deleteUsers([kati.userId], request(ADMIN));
    for (const participantId of [first.participantId, kati.participantId]) {
      const events = await store.readStream(streams.participant(participantId));
      expect(events.map((event) => event.type)).toContain('ParticipantDeleted');
      expect(events[0]!.data).toMatchObject({ fullName: null, email: null, birthYear: null });
    }
    expect((await store.readStream(streams.user(kati.userId)))[0]!.data).toMatchObject({ email: null, fullName: null });
  });

  test('deleting an earlier edition’s team deletes its members there; a member who returned keeps a working account', async () => {
    await commands.deleteTeams([parnu2025], request(ADMIN));
    // Anu never came back: her account went with the team.
    expect((await commandApi.inject({ method: 'POST', url: '/api/login', payload: { email: people.anu.email, password: PASSWORD } })).statusCode).toBe(401);
    // Liis is in 2026: she logs in as her 2026 participant, and a password reset still reaches her
    // (her account's own copy of the address was sealed with her deleted 2025 participant's key).
    const liis = claimsOf(await tokenOf(people.liis.email));
    expect(liis.participantId).not.toBe(people.liis.participantId);
    expect(liis.fullName).toBe('Liis Lepp');
    await accounts.requestPasswordReset({ email: people.liis.email, lang: 'eng' }, request(SYSTEM));
    const reset = await mail.waitForMail(people.liis.email, 'Reset your Sinilill password');
    expect(reset.text).toContain('Hello Liis Lepp,');
  });
});
