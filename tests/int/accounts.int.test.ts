/**
 * Accounts end to end on real PostgreSQL and a real SMTP server (MailDev): registration of a team
 * and joining it, the confirmation mail and link, login and its token, unapproved logins, password
 * reset and change, the imported people's first password, the registration switch, uniqueness
 * under concurrent registrations, rate limits, bad bodies and bad tokens.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (the command API registers the plugin)
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { AccountDirectory, AccountService, CommandService } from '@sinilill/commands';
import type { AccessClaims } from '@sinilill/contracts';
import { PERSONAL_DATA_FIELDS, streams, type ActingUser, type TeamRegistered } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { smtpMailer, type Mailer } from '@sinilill/mail';
import { buildCommandApi } from '@sinilill/command-api';
import { testApplication, type TestApplication } from '../support/app';
import { startMailDev, type ReceivedMail, type RunningMailDev } from '../support/maildev';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const PUBLIC_URL = 'http://sinilill.test';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const ADMIN: ActingUser = { userId: 'b7d1f6c4-3f51-4a4c-9d51-2f0f5c6c0a01', role: 'ADMIN', participantId: null, teamId: null };
const CONFIRM_SUBJECT = { est: 'Kinnita oma Sinilille konto', eng: 'Confirm your Sinilill account' } as const;
const RESET_SUBJECT = { est: 'Sinilille parooli lähtestamine', eng: 'Reset your Sinilill password' } as const;
const LINK = {
  confirm: /\/confirm\/account\/([A-Za-z0-9_-]{43})\/([0-9a-f-]{36})/,
  reset: /\/passwordreset\/([A-Za-z0-9_-]{43})\/([0-9a-f-]{36})/,
};

describe('accounts through the command API', () => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let mail: RunningMailDev;
  let mailer: Mailer;
  let commands: CommandService;
  let accounts: AccountService;
  let api: FastifyInstance;
  let now = new Date('2025-04-15T09:00:00Z');
  let serial = 0;

  const request = (actor: ActingUser, id: string, imported = false) => ({
    actor, metadata: { commandId: id, correlationId: id, causationId: null, ...(imported ? { imported: true } : {}) },
  });
  const uniqueEmail = (who: string) => `${who}-${++serial}@example.ee`;
  const registration = (overrides: Record<string, unknown> = {}) => ({
    full_name: 'Mari Maasikas', email: uniqueEmail('mari'), gender: 'FEMALE', birth_year: 1980, password: 'kevadine-salasõna-1',
    newsletter: false, type: 'REGISTER_TEAM', team_name: `Tiim ${++serial}`, lang: 'est', ...overrides,
  });
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    api.inject({ method: 'POST', url: `/api${url}`, payload: payload as object, headers });
  const expectRefusal = (response: LightMyRequestResponse, status: number, code: string) => {
    expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({ status, body: { message: code } });
  };
  const linkIn = (received: ReceivedMail, kind: 'confirm' | 'reset') => {
    const match = LINK[kind].exec(received.text);
    expect(match, `a ${kind} link in: ${received.text}`).not.toBeNull();
    expect(received.text).toContain(`${PUBLIC_URL}/`);
    return { token: match![1]!, userId: match![2]! };
  };
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as AccessClaims & { iat: number; exp: number };
  const login = async (email: string, password: string) => {
    const response = await post('/login', { email, password });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { token: string }).token;
  };
  /** Registers a team through the API and confirms the captain's account through the mailed link. */
  const confirmedCaptain = async (overrides: Record<string, unknown> = {}) => {
    const body = registration(overrides);
    expect((await post('/registerteam', body)).statusCode).toBe(200);
    const { token, userId } = linkIn(await mail.waitForMail(body.email as string, CONFIRM_SUBJECT.est), 'confirm');
    expect((await post('/confirmaccount', { token, id: userId })).statusCode).toBe(200);
    return { ...body, userId, email: body.email as string, password: body.password as string };
  };
  const joinCodeOf = async (teamId: number) => {
    const [event] = await app.store.readStream(streams.team(teamId));
    return (event!.data as TeamRegistered['data']).joinCode;
  };

  beforeAll(async () => {
    app = await testApplication({ now: () => now });
    accountPool = new pg.Pool({ connectionString: app.url, max: 8 });
    const directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
    mail = await startMailDev();
    mailer = smtpMailer({ url: mail.smtpUrl, from: 'Sinilill <info@sinilill.test>' });
    commands = new CommandService({ store: app.store, ids: app.ids, now: () => now, directory });
    accounts = new AccountService({ store: app.store, ids: app.ids, directory, mailer, now: () => now, publicUrl: PUBLIC_URL });
    api = buildCommandApi({ commands, accounts, jwtSecret: SECRET, rateLimit: { max: 1000, timeWindowMs: 60_000 } });
    await api.ready();
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    mailer?.close();
    await mail?.close();
    await accountPool?.end();
    await app?.close();
  });

  test('register a team → confirmation mail → confirm through its link → login → the session claims of spec §3', async () => {
    const body = registration({ full_name: ' Kati Karu ', team_name: '  Tartu Tammed  ' });
    const registered = await post('/registerteam', body);
    expect(registered.statusCode, registered.body).toBe(200);
    expect(registered.json()).toEqual({ success: true, position: expect.any(Number) });

    const confirmation = await mail.waitForMail(body.email as string, CONFIRM_SUBJECT.est);
    expect(confirmation.text).toContain('Tere, Kati Karu!');
    const { token, userId } = linkIn(confirmation, 'confirm');

    // Unconfirmed: refused with USER_NOT_APPROVED, and a second confirmation mail goes out.
    expectRefusal(await post('/login', { email: body.email, password: body.password }), 403, 'USER_NOT_APPROVED');
    await mail.waitForMail(body.email as string, CONFIRM_SUBJECT.est, { skip: 1 });
    expect(await mail.count(body.email as string, CONFIRM_SUBJECT.est)).toBe(2);

    expect((await post('/confirmaccount', { token, id: userId })).json()).toEqual({ success: true, position: expect.any(Number) });
    expectRefusal(await post('/confirmaccount', { token, id: userId }), 400, 'INVALID_ACCOUNT_TOKEN'); // single use

    const jwt = await login((body.email as string).toUpperCase(), body.password as string);
    const claims = claimsOf(jwt);
    expect(claims).toMatchObject({
      userId, fullName: 'Kati Karu', is_approved: true, participantId: expect.any(Number), teamId: expect.any(Number), role: 'USER', isPaid: false,
    });
    // a 15-minute access token of a session (sv, sid); the refresh cookie renews it.
    expect(claims.exp - claims.iat).toBe(15 * 60);
    expect(claims).toMatchObject({ sv: 1, sid: expect.any(String) });
    expect(JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString())).toMatchObject({ alg: 'HS256' });

    // The log: team, captain and account, appended together; the name trimmed.
    const team = await app.store.readStream(streams.team(claims.teamId!));
    expect(team.map((e) => e.type)).toEqual(['TeamRegistered']);
    expect(team[0]!.data).toMatchObject({ teamName: 'Tartu Tammed', joinCode: expect.stringMatching(/^[A-Z0-9]{8}$/) });
    const participant = await app.store.readStream(streams.participant(claims.participantId!));
    expect(participant[0]!.data).toMatchObject({ teamId: claims.teamId, isCaptain: true, fullName: 'Kati Karu', email: body.email });
    const user = await app.store.readStream(streams.user(userId));
    expect(user.map((e) => e.type)).toEqual(['UserRegistered', 'AccountConfirmed']);
    expect(user[0]!.globalPosition).toBe(participant[0]!.globalPosition + 1);
    expect(user[0]!.data).toMatchObject({ participantId: claims.participantId, approved: false, hasPassword: true, lang: 'est' });
  });

  test('events hold no secrets, and the account’s e-mail and name are erased with the participant', async () => {
    const captain = await confirmedCaptain({ password: 'Väga-salajane-123' });
    const raw = new PostgresEventStore({ pool: app.pool });
    const stored = JSON.stringify(await raw.readAll({ after: 0, maxCount: 10_000 }));
    expect(stored).not.toContain('Väga-salajane-123');
    expect(stored).not.toContain('$argon2id$');
    expect(stored).not.toContain(captain.email); // encrypted at rest
    const { rows } = await accountPool.query('SELECT token_hash FROM app.account_tokens');
    for (const row of rows as { token_hash: Buffer }[]) expect(stored).not.toContain(row.token_hash.toString('base64url'));

    const claims = claimsOf(await login(captain.email, captain.password));
    const [registeredRaw] = await raw.readStream(streams.user(captain.userId));
    expect((registeredRaw!.data as { email: string }).email).toMatch(new RegExp(`^pii:v1:participant-${claims.participantId}:`));
    const vault = new PersonalDataVault({ pool: app.pool });
    await vault.forget(`participant-${claims.participantId}`);
    const fresh = withPersonalDataProtection(raw, new PersonalDataVault({ pool: app.pool }), PERSONAL_DATA_FIELDS);
    const [registered] = await fresh.readStream(streams.user(captain.userId));
    expect(registered!.data).toMatchObject({ email: null, fullName: null, userId: captain.userId });
  });

  test('a second visitor joins with the team’s code (any case); their mail is in English', async () => {
    const captain = await confirmedCaptain();
    const captainClaims = claimsOf(await login(captain.email, captain.password));
    const code = await joinCodeOf(captainClaims.teamId!);
    const body = registration({ type: 'JOIN_TEAM', team_join_code: ` ${code.toLowerCase()} `, team_name: '', lang: 'eng', full_name: 'John Smith' });
    const joined = await post('/jointeam', body);
    expect(joined.statusCode, joined.body).toBe(200);
    const confirmation = await mail.waitForMail(body.email as string, CONFIRM_SUBJECT.eng);
    expect(confirmation.text).toContain('Hello John Smith,');
    const { token, userId } = linkIn(confirmation, 'confirm');
    expect((await post('/confirmaccount', { token, id: userId })).statusCode).toBe(200);
    const claims = claimsOf(await login(body.email as string, body.password as string));
    expect(claims).toMatchObject({ teamId: captainClaims.teamId, fullName: 'John Smith', role: 'USER' });
    expect(claims.participantId).not.toBe(captainClaims.participantId);
    const [participant] = await app.store.readStream(streams.participant(claims.participantId!));
    expect(participant!.data).toMatchObject({ isCaptain: false, teamId: captainClaims.teamId });
  });

  test('bad join codes: unknown → INVALID_JOIN_CODE; after the edition (4 May, Tallinn) → JOIN_CODE_EXPIRED', async () => {
    const captain = await confirmedCaptain();
    const code = await joinCodeOf(claimsOf(await login(captain.email, captain.password)).teamId!);
    const head = await app.store.headPosition();
    expectRefusal(await post('/jointeam', registration({ type: 'JOIN_TEAM', team_join_code: 'NOSUCHCODE' })), 400, 'INVALID_JOIN_CODE');
    expectRefusal(await post('/jointeam', registration({ type: 'JOIN_TEAM', team_join_code: '' })), 400, 'INVALID_JOIN_CODE');
    expectRefusal(await post('/jointeam', registration({ type: 'JOIN_TEAM' })), 400, 'INVALID_JOIN_CODE');
    const saved = now;
    now = new Date('2025-05-03T21:00:00Z'); // 4 May 00:00 in Tallinn
    try {
      expectRefusal(await post('/jointeam', registration({ type: 'JOIN_TEAM', team_join_code: code })), 400, 'JOIN_CODE_EXPIRED');
    } finally {
      now = saved;
    }
    expect(await app.store.headPosition()).toBe(head);
  });

  test('login refusals: wrong password and unknown e-mail alike (INVALID_CREDENTIALS, same work)', async () => {
    const captain = await confirmedCaptain();
    expectRefusal(await post('/login', { email: captain.email, password: 'wrong-password' }), 401, 'INVALID_CREDENTIALS');
    expectRefusal(await post('/login', { email: 'nobody@example.ee', password: captain.password }), 401, 'INVALID_CREDENTIALS');
    expectRefusal(await post('/login', { email: 'not an e-mail', password: captain.password }), 401, 'INVALID_CREDENTIALS');
    // Both refusals run the same lookups and one argon2 verification: neither answers markedly
    // faster. The fastest of 9 tries is compared: the other test files run meanwhile, and their
    // load only ever adds time.
    const fastest = async (payload: object) => {
      const times: number[] = [];
      for (let i = 0; i < 9; i++) {
        const started = performance.now();
        await post('/login', payload);
        times.push(performance.now() - started);
      }
      return Math.min(...times);
    };
    const wrongPassword = await fastest({ email: captain.email, password: 'wrong-password' });
    const unknownEmail = await fastest({ email: 'nobody@example.ee', password: 'wrong-password' });
    expect(unknownEmail).toBeGreaterThan(wrongPassword * 0.5);
    expect(wrongPassword).toBeGreaterThan(unknownEmail * 0.5);
  });

  test('a registered e-mail (any case) answers as a new registration, creates nothing and mails a login and a reset link; taken team name (case and space variants) → TEAM_NAME_ALREADY_IN_USE', async () => {
    const captain = await confirmedCaptain({ team_name: 'Pärnu Pääsukesed' });
    const head = await app.store.headPosition();
    const again = await post('/registerteam', registration({ email: ` ${captain.email.toUpperCase()} `, lang: 'eng' }));
    expect([again.statusCode, again.json()]).toEqual([200, { success: true, position: expect.any(Number) }]);
    const attempt = await mail.waitForMail(captain.email, 'You already have a Sinilill account');
    expect(attempt.text).toContain(`${PUBLIC_URL}/login?lang=eng`);
    const { userId } = linkIn(attempt, 'reset');
    expect(userId).toBe(captain.userId);
    const code = await joinCodeOf(claimsOf(await login(captain.email, captain.password)).teamId!);
    const joined = await post('/jointeam', registration({ type: 'JOIN_TEAM', team_join_code: code, email: captain.email }));
    expect([joined.statusCode, joined.json()]).toEqual([200, { success: true, position: expect.any(Number) }]);
    await mail.waitForMail(captain.email, 'Sinilille konto sellel aadressil on juba olemas');
    for (const name of ['Pärnu Pääsukesed', 'pärnu pääsukesed', '  PÄRNU   PÄÄSUKESED ', 'Ｐärnu Pääsukesed']) {
      expectRefusal(await post('/registerteam', registration({ team_name: name })), 409, 'TEAM_NAME_ALREADY_IN_USE');
    }
    // Nothing was created: each attempt only issued a reset link (its PasswordResetRequested).
    expect((await app.store.readAll({ after: head, maxCount: 100 })).map((event) => event.type)).toEqual(['PasswordResetRequested', 'PasswordResetRequested']);
  });

  test('a registration retried with its Idempotency-Key (its answer lost) answers the first answer, once, with one mail', async () => {
    const body = registration();
    const key = { 'idempotency-key': `reg-${++serial}-0123456789` };
    const head = await app.store.headPosition();
    const first = await post('/registerteam', body, key);
    expect(first.statusCode, first.body).toBe(200);
    // The retry (even two at once) and a later one answer the same; nothing more is appended or mailed.
    const again = await Promise.all([post('/registerteam', body, key), post('/registerteam', body, key)]);
    for (const response of again) expect(response.json()).toEqual(first.json());
    expect((await post('/registerteam', body, key)).json()).toEqual(first.json());
    const appended = await app.store.readAll({ after: head, maxCount: 100 });
    expect(appended.map((e) => e.type)).toEqual(['TeamRegistered', 'ParticipantRegistered', 'UserRegistered']);
    await mail.waitForMail(body.email as string, CONFIRM_SUBJECT.est);
    expect(await mail.count(body.email as string, CONFIRM_SUBJECT.est)).toBe(1);
    // The key sent with another body: refused, nothing appended. Without a key the same body is a new registration (refused: the name is taken).
    expectRefusal(await post('/registerteam', { ...body, full_name: 'Mari Mustikas' }, key), 422, 'IDEMPOTENCY_KEY_REUSED');
    expectRefusal(await post('/registerteam', body), 409, 'TEAM_NAME_ALREADY_IN_USE');
    expect(await app.store.headPosition()).toBe(appended.at(-1)!.globalPosition);
  });

  test('two (and five) concurrent registrations of one team name: exactly one succeeds, and one mail goes out', async () => {
    for (const contenders of [2, 5]) {
      const name = `Kiired Kilpkonnad ${contenders}`;
      const bodies = Array.from({ length: contenders }, (_, i) => registration({ team_name: i % 2 ? name.toUpperCase() : ` ${name} ` }));
      const responses = await Promise.all(bodies.map((body) => post('/registerteam', body)));
      const statuses = responses.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([200, ...Array<number>(contenders - 1).fill(409)]);
      for (const r of responses.filter((x) => x.statusCode === 409)) expect(r.json()).toEqual({ message: 'TEAM_NAME_ALREADY_IN_USE' });
      const teams = (await app.store.readAll({ after: 0, maxCount: 100_000, types: ['TeamRegistered'] }))
        .filter((e) => (e.data as TeamRegistered['data']).teamName.toLowerCase() === name.toLowerCase());
      expect(teams).toHaveLength(1);
      const winner = bodies[responses.findIndex((r) => r.statusCode === 200)]!;
      await mail.waitForMail(winner.email as string, CONFIRM_SUBJECT.est);
      let mails = 0;
      for (const body of bodies) mails += await mail.count(body.email as string, CONFIRM_SUBJECT.est);
      expect(mails).toBe(1);
    }
  });

  test('a reservation blocks a racing one until it commits (taken) or rolls back (free)', async () => {
    const directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
    const raceFor = async (outcome: 'commit' | 'rollback') => {
      const name = `Racing ${outcome}`;
      const [firstTeam, secondTeam] = outcome === 'commit' ? [801, 802] : [803, 804];
      let release!: () => void;
      const held = new Promise<void>((resolve) => { release = resolve; });
      let reserved!: () => void;
      const firstReserved = new Promise<void>((resolve) => { reserved = resolve; });
      const first = directory.transaction(async (tx) => {
        await tx.reserveTeamName(name, firstTeam, 2025);
        await tx.reserveEmail(`${outcome}@race.example.ee`, `first-${outcome}`);
        reserved();
        await held;
        if (outcome === 'rollback') throw new Error('append failed');
      });
      await Promise.race([firstReserved, first]); // (first rejects here only when the test itself is wrong)
      let secondDone = false;
      const second = directory.transaction(async (tx) => {
        await tx.reserveTeamName(` ${name.toUpperCase()} `, secondTeam, 2025);
        await tx.reserveEmail(`${outcome.toUpperCase()}@race.example.ee`, `second-${outcome}`);
      }).then(() => 'reserved', (error: unknown) => (error as Error).message).finally(() => { secondDone = true; });
      // The second transaction is seen waiting on a lock (the first one's row in the unique index).
      await expect.poll(async () => (await accountPool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      )).rows[0]!.n, { timeout: 5_000 }).toBe(1);
      const waited = !secondDone; // waiting on the unique index
      release();
      await (outcome === 'rollback' ? expect(first).rejects.toThrow('append failed') : first);
      expect(waited).toBe(true);
      return second;
    };
    expect(await raceFor('commit')).toBe('TEAM_NAME_ALREADY_IN_USE');
    expect(await raceFor('rollback')).toBe('reserved');
    expect(await directory.teamOfName('racing rollback')).toBe(804);
    expect(await directory.userIdOfEmail('rollback@race.example.ee')).toBe('second-rollback');
    expect(await directory.teamOfName('racing commit')).toBe(801);
  });

  test('two concurrent registrations with one e-mail: both answer alike, exactly one account is created', async () => {
    const email = uniqueEmail('twice');
    const head = await app.store.headPosition();
    const responses = await Promise.all([post('/registerteam', registration({ email })), post('/registerteam', registration({ email: email.toUpperCase() }))]);
    // Both answer alike (the e-mail's owner is not revealed), one account is created.
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    const types = (await app.store.readAll({ after: head, maxCount: 100 })).map((event) => event.type);
    expect(types.filter((type) => type === 'UserRegistered')).toHaveLength(1);
    expect(types.filter((type) => type === 'PasswordResetRequested')).toHaveLength(1);
  });

  test('passwords shorter than 6 characters → PASSWORD_TOO_SHORT (registration, reset, change)', async () => {
    const head = await app.store.headPosition();
    expectRefusal(await post('/registerteam', registration({ password: '12345' })), 400, 'PASSWORD_TOO_SHORT');
    expect(await app.store.headPosition()).toBe(head);
    const captain = await confirmedCaptain();
    const jwt = await login(captain.email, captain.password);
    const change = await api.inject({ method: 'PUT', url: '/api/account/changepassword', headers: { authorization: `Bearer ${jwt}` }, payload: { currentPassword: captain.password, newPassword: 'abc' } });
    expectRefusal(change, 400, 'PASSWORD_TOO_SHORT');
    expectRefusal(await post('/resetpassword', { userId: captain.userId, token: 'x'.repeat(43), newPassword: 'abc' }), 400, 'PASSWORD_TOO_SHORT');
  });

  test('password reset: mail → new password → login; the link is single-use, replaced by a newer one, and expires after 2 h', async () => {
    const captain = await confirmedCaptain();
    // An unknown address is answered as a known one, and gets nothing; a malformed one is refused.
    expect((await post('/requestpasswordreset', { email: 'nobody@example.ee', lang: 'eng' })).json()).toEqual({ success: true, position: expect.any(Number) });
    expectRefusal(await post('/requestpasswordreset', { email: 'not an address', lang: 'eng' }), 400, 'INVALID_EMAIL');

    expect((await post('/requestpasswordreset', { email: captain.email.toUpperCase(), lang: 'eng' })).json()).toEqual({ success: true, position: expect.any(Number) });
    const first = linkIn(await mail.waitForMail(captain.email, RESET_SUBJECT.eng), 'reset');
    expect(first.userId).toBe(captain.userId);
    expect((await post('/requestpasswordreset', { email: captain.email, lang: 'est' })).statusCode).toBe(200);
    const second = linkIn(await mail.waitForMail(captain.email, RESET_SUBJECT.est), 'reset');
    expect((await mail.waitForMail(captain.email, RESET_SUBJECT.est)).text).toContain('kehtib 2 tundi');

    expectRefusal(await post('/resetpassword', { userId: captain.userId, token: first.token, newPassword: 'uus-parool-1' }), 400, 'INVALID_RESET_TOKEN');
    expectRefusal(await post('/resetpassword', { userId: '00000000-0000-4000-8000-000000000000', token: second.token, newPassword: 'uus-parool-1' }), 400, 'INVALID_RESET_TOKEN');
    expect((await post('/resetpassword', { userId: second.userId, token: second.token, newPassword: 'uus-parool-1' })).statusCode).toBe(200);
    expectRefusal(await post('/resetpassword', { userId: second.userId, token: second.token, newPassword: 'uus-parool-2' }), 400, 'INVALID_RESET_TOKEN');
    expectRefusal(await post('/login', { email: captain.email, password: captain.password }), 401, 'INVALID_CREDENTIALS');
    expect(claimsOf(await login(captain.email, 'uus-parool-1')).userId).toBe(captain.userId);

    // Expiry: valid for 2 h of the application's clock.
    expect((await post('/requestpasswordreset', { email: captain.email, lang: 'eng' })).statusCode).toBe(200);
    const late = linkIn(await mail.waitForMail(captain.email, RESET_SUBJECT.eng, { skip: 1 }), 'reset');
    const saved = now;
    now = new Date(saved.getTime() + 2 * 3600_000 + 1000);
    try {
      expectRefusal(await post('/resetpassword', { userId: late.userId, token: late.token, newPassword: 'uus-parool-3' }), 400, 'INVALID_RESET_TOKEN');
    } finally {
      now = saved;
    }
    const types = (await app.store.readStream(streams.user(captain.userId))).map((e) => e.type);
    expect(types).toEqual(['UserRegistered', 'AccountConfirmed', 'PasswordResetRequested', 'PasswordResetRequested', 'PasswordResetCompleted', 'PasswordResetRequested']);
  });

  test('change password: a wrong current one → INVALID_PASSWORD; then the new one logs in', async () => {
    const captain = await confirmedCaptain();
    const authorization = `Bearer ${await login(captain.email, captain.password)}`;
    const change = (payload: object) => api.inject({ method: 'PUT', url: '/api/account/changepassword', headers: { authorization }, payload });
    expectRefusal(await change({ currentPassword: 'not-my-password', newPassword: 'uus-parool-1' }), 400, 'INVALID_PASSWORD');
    const changed = await change({ currentPassword: captain.password, newPassword: 'uus-parool-1' });
    expect(changed.json()).toEqual({ success: true, position: expect.any(Number) });
    expectRefusal(await post('/login', { email: captain.email, password: captain.password }), 401, 'INVALID_CREDENTIALS');
    await login(captain.email, 'uus-parool-1');
    expect((await app.store.readStream(streams.user(captain.userId))).at(-1)!.type).toBe('PasswordChanged');
  });

  test('an imported participant (registered by the system) sets a first password through reset and logs in; the import stays idempotent', async () => {
    const importTeam = () => commands.registerTeam({ teamId: 9001, teamName: 'Haapsalu Sõbrad', description: '', joinCode: 'DSNQK43S', icon: null },
      { ...request(SYSTEM, 'import:2025:team:9001', true), now: new Date('2025-03-12T23:56:00Z') });
    const importParticipant = () => commands.registerParticipant({
      participantId: 9001, teamId: 9001, fullName: 'Kaja Kuusk', email: 'participant9001@example.ee', birthYear: 1971, gender: 'UNDEFINED', isCaptain: true, newsletter: false,
    }, { ...request(SYSTEM, 'import:2025:participant:9001', true), now: new Date('2025-03-12T23:56:00Z') });
    await importTeam();
    await importParticipant();
    await commands.markPayment(9001, true, request(SYSTEM, 'import:2025:participant-paid:9001', true));
    const head = await app.store.headPosition();
    await importTeam(); // a second import run: no error on its own reservations, nothing appended
    await importParticipant();
    expect(await app.store.headPosition()).toBe(head);

    // No password yet: refused like a wrong one.
    expectRefusal(await post('/login', { email: 'participant9001@example.ee', password: 'anything-at-all' }), 401, 'INVALID_CREDENTIALS');
    expect((await post('/requestpasswordreset', { email: 'Participant9001@example.ee', lang: 'est' })).statusCode).toBe(200);
    const { token, userId } = linkIn(await mail.waitForMail('participant9001@example.ee', RESET_SUBJECT.est), 'reset');
    expect((await post('/resetpassword', { userId, token, newPassword: 'minu-uus-parool' })).statusCode).toBe(200);
    const claims = claimsOf(await login('participant9001@example.ee', 'minu-uus-parool'));
    expect(claims).toEqual(expect.objectContaining({ userId, fullName: 'Kaja Kuusk', is_approved: true, participantId: 9001, teamId: 9001, role: 'USER', isPaid: true }));
    const [account] = await app.store.readStream(streams.user(userId));
    expect(account!.metadata).toMatchObject({ imported: true, actor: { userId: null, role: 'SYSTEM' } });

    // The imported team's name, code and e-mail are in the indexes.
    expectRefusal(await post('/registerteam', registration({ team_name: 'haapsalu sõbrad' })), 409, 'TEAM_NAME_ALREADY_IN_USE');
    expect((await post('/registerteam', registration({ email: 'PARTICIPANT9001@example.ee' }))).statusCode).toBe(200);
    const joined = await post('/jointeam', registration({ type: 'JOIN_TEAM', team_join_code: 'dsnqk43s' }));
    expect(joined.statusCode, joined.body).toBe(200);
  });

  test('registration switch off → REGISTRATION_DISABLED on both routes; entry switch off → ENTRY_INSERTION_DISABLED', async () => {
    const captain = await confirmedCaptain();
    const authorization = `Bearer ${await login(captain.email, captain.password)}`;
    const code = await joinCodeOf(claimsOf(authorization.slice(7)).teamId!);
    const visitor: ActingUser = { userId: null, role: 'USER', participantId: null, teamId: null };
    await expect(accounts.changeSettings({ registrationEnabled: false }, request(visitor, 'settings-visitor'))).rejects.toThrow('FORBIDDEN');
    await accounts.changeSettings({ registrationEnabled: false }, request(ADMIN, 'settings-1'));
    try {
      expect(await accounts.settings()).toEqual({ registrationEnabled: false, entryInsertionEnabled: true });
      expectRefusal(await post('/registerteam', registration()), 400, 'REGISTRATION_DISABLED');
      expectRefusal(await post('/jointeam', registration({ type: 'JOIN_TEAM', team_join_code: code })), 400, 'REGISTRATION_DISABLED');
      await login(captain.email, captain.password); // logging in is not registering
    } finally {
      await accounts.changeSettings({ registrationEnabled: true }, request(ADMIN, 'settings-2'));
    }
    expect((await post('/registerteam', registration())).statusCode).toBe(200);

    const entry = () => api.inject({ method: 'POST', url: '/api/entry', headers: { authorization }, payload: { distance: 5, entry_type: 'WALK', performed_at: '2025-04-14' } });
    await accounts.changeSettings({ entryInsertionEnabled: false }, request(ADMIN, 'settings-3'));
    try {
      expectRefusal(await entry(), 400, 'ENTRY_INSERTION_DISABLED');
    } finally {
      await accounts.changeSettings({ entryInsertionEnabled: true }, request(ADMIN, 'settings-4'));
    }
    expect((await entry()).statusCode).toBe(200);
    expect((await app.store.readStream(streams.settings())).map((e) => e.data)).toEqual([
      { registrationEnabled: false, changedAt: now.toISOString() },
      { registrationEnabled: true, changedAt: now.toISOString() },
      { entryInsertionEnabled: false, changedAt: now.toISOString() },
      { entryInsertionEnabled: true, changedAt: now.toISOString() },
    ]);
  });

  test('an administrator approves an account without the link; ADMIN_EMAIL creates an approved admin, idempotently', async () => {
    const body = registration();
    expect((await post('/registerteam', body)).statusCode).toBe(200);
    const { userId } = linkIn(await mail.waitForMail(body.email as string, CONFIRM_SUBJECT.est), 'confirm');
    await expect(accounts.setApproval(userId, true, request({ ...ADMIN, role: 'USER' }, 'approve-0'))).rejects.toThrow('FORBIDDEN');
    await accounts.setApproval(userId, true, request(ADMIN, 'approve-1'));
    expect(claimsOf(await login(body.email as string, body.password as string)).is_approved).toBe(true);
    // Withdrawn by an administrator: refused, and no new confirmation link could undo it.
    await accounts.setApproval(userId, false, request(ADMIN, 'approve-2'));
    expectRefusal(await post('/login', { email: body.email, password: body.password }), 403, 'USER_NOT_APPROVED');
    const { token } = linkIn(await mail.waitForMail(body.email as string, CONFIRM_SUBJECT.est), 'confirm');
    expectRefusal(await post('/confirmaccount', { token, id: userId }), 400, 'INVALID_ACCOUNT_TOKEN');
    expect(await mail.count(body.email as string, CONFIRM_SUBJECT.est)).toBe(1);

    const first = await accounts.ensureAdmin('Admin@Example.ee', 'admin-parool-1');
    expect(first.changed).toBe(true);
    expect(claimsOf(await login('admin@example.ee', 'admin-parool-1'))).toEqual(expect.objectContaining({
      userId: first.userId, role: 'ADMIN', is_approved: true, participantId: null, teamId: null, isPaid: false, fullName: 'Administrator',
    }));
    const again = await accounts.ensureAdmin('admin@example.ee', 'admin-parool-1');
    expect(again).toMatchObject({ userId: first.userId, changed: false });
    const newPassword = await accounts.ensureAdmin('admin@example.ee', 'admin-parool-2');
    expect(newPassword).toMatchObject({ userId: first.userId, changed: true });
    expectRefusal(await post('/login', { email: 'admin@example.ee', password: 'admin-parool-1' }), 401, 'INVALID_CREDENTIALS');
    await login('admin@example.ee', 'admin-parool-2');
    // A participant named as ADMIN_EMAIL becomes an admin with that password.
    const promoted = await accounts.ensureAdmin(body.email as string, 'admin-parool-3');
    expect(promoted.userId).toBe(userId);
    expect(claimsOf(await login(body.email as string, 'admin-parool-3'))).toMatchObject({ role: 'ADMIN', participantId: expect.any(Number) });
    await expect(accounts.ensureAdmin('admin@example.ee', 'short')).rejects.toThrow('PASSWORD_TOO_SHORT');
  });

  test('login and reset requests are rate limited: 429 TOO_MANY_REQUESTS with Retry-After', async () => {
    const limited = buildCommandApi({ commands, accounts, jwtSecret: SECRET, rateLimit: { max: 3, timeWindowMs: 60_000 } });
    await limited.ready();
    try {
      const attempt = (email: string) => limited.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'wrong-password' } });
      for (let i = 0; i < 3; i++) expect((await attempt('target@example.ee')).statusCode).toBe(401);
      const refused = await attempt('TARGET@example.ee');
      expectRefusal(refused, 429, 'TOO_MANY_REQUESTS');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // The budget is the client's, whatever the e-mail (docs/decisions/0024: spraying e-mails is limited too).
      expectRefusal(await attempt('someone-else@example.ee'), 429, 'TOO_MANY_REQUESTS');
      const reset = () => limited.inject({ method: 'POST', url: '/api/requestpasswordreset', payload: { email: 'nobody@example.ee', lang: 'est' } });
      // An unknown address is answered as a known one (200), and counts as one.
      for (let i = 0; i < 3; i++) expect((await reset()).statusCode).toBe(200);
      expectRefusal(await reset(), 429, 'TOO_MANY_REQUESTS');
    } finally {
      await limited.close();
    }
  });

  test.each([
    ['/registerteam', 'an unknown field', () => ({ ...registration(), is_admin: true })],
    ['/registerteam', 'the other registration type', () => registration({ type: 'JOIN_TEAM' })],
    ['/jointeam', 'the other registration type', () => registration({ type: 'REGISTER_TEAM', team_join_code: 'ABCDEFGH' })],
    ['/registerteam', 'a birth year as text', () => registration({ birth_year: '1980' })],
    ['/registerteam', 'a birth year out of range', () => registration({ birth_year: 2024 })],
    ['/registerteam', 'an unknown gender', () => registration({ gender: 'OTHER' })],
    ['/registerteam', 'an unknown language', () => registration({ lang: 'fin' })],
    ['/registerteam', 'a missing password', () => { const { password: _p, ...rest } = registration(); return rest; }],
    ['/registerteam', 'a full name of 33 characters', () => registration({ full_name: 'n'.repeat(33) })],
    ['/registerteam', 'a team name of 51 characters', () => registration({ team_name: 't'.repeat(51) })],
    ['/registerteam', 'an e-mail of 265 characters', () => registration({ email: `${'a'.repeat(254)}@example.ee` })],
    ['/registerteam', 'a password of 129 characters', () => registration({ password: 'p'.repeat(129) })],
    ['/jointeam', 'a join code of 65 characters', () => registration({ type: 'JOIN_TEAM', team_join_code: 'C'.repeat(65) })],
    ['/registerteam', 'an array', () => [registration()]],
    ['/login', 'an unknown field', () => ({ email: 'a@example.ee', password: 'secret1', remember: true })],
    ['/login', 'a number for the password', () => ({ email: 'a@example.ee', password: 123456 })],
    ['/login', 'no e-mail', () => ({ password: 'secret1' })],
    ['/requestpasswordreset', 'no language', () => ({ email: 'a@example.ee' })],
    ['/requestpasswordreset', 'an over-long e-mail', () => ({ email: 'a'.repeat(265), lang: 'est' })],
    ['/resetpassword', 'an over-long token', () => ({ userId: 'u', token: 't'.repeat(257), newPassword: 'secret1' })],
    ['/resetpassword', 'an unknown field', () => ({ userId: 'u', token: 't', newPassword: 'secret1', confirm: 'secret1' })],
    ['/confirmaccount', 'a number for the id', () => ({ token: 't', id: 5 })],
    ['/confirmaccount', 'an empty token', () => ({ token: '', id: 'u' })],
  ])('%s with %s → 400 INVALID_REQUEST, nothing appended', async (url, _what, payload) => {
    const head = await app.store.headPosition();
    expectRefusal(await post(url, payload()), 400, 'INVALID_REQUEST');
    expect(await app.store.headPosition()).toBe(head);
  });

  test('malformed JSON and other content types are refused with 4xx INVALID_REQUEST, never a 500', async () => {
    for (const url of ['/registerteam', '/jointeam', '/login', '/requestpasswordreset', '/resetpassword', '/confirmaccount']) {
      const broken = await api.inject({ method: 'POST', url: `/api${url}`, payload: '{"email": ', headers: { 'content-type': 'application/json' } });
      expectRefusal(broken, 400, 'INVALID_REQUEST');
      const text = await api.inject({ method: 'POST', url: `/api${url}`, payload: 'email=a', headers: { 'content-type': 'text/plain' } });
      expect(text.statusCode).toBeGreaterThanOrEqual(400);
      expect(text.statusCode).toBeLessThan(500);
      const empty = await api.inject({ method: 'POST', url: `/api${url}` });
      expect(empty.statusCode).toBe(400);
    }
    // A well-formed body with a link id that is no user id: the catalogue code, not a crash.
    expectRefusal(await post('/confirmaccount', { token: 'x'.repeat(43), id: "1' OR '1'='1" }), 400, 'INVALID_ACCOUNT_TOKEN');
    expectRefusal(await post('/resetpassword', { userId: '../../etc', token: 'x', newPassword: 'secret12' }), 400, 'INVALID_RESET_TOKEN');
  });

  test.each([
    ['no token', undefined],
    ['a token signed with another secret', 'forged'],
    ['an alg:none token', 'none'],
    ['an expired token', 'expired'],
    ['a token with tampered claims', 'tampered'],
    ['garbage', 'Bearer not.a.token'],
  ])('/account/changepassword with %s → 401 UNAUTHORIZED', async (_name, kind) => {
    const captain = await confirmedCaptain();
    const real = await login(captain.email, captain.password);
    const claims = { ...claimsOf(real) } as Partial<ReturnType<typeof claimsOf>>;
    delete claims.iat;
    delete claims.exp;
    let authorization: string | undefined;
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    if (kind === 'forged') {
      const other = buildCommandApi({ commands, jwtSecret: `${SECRET}-other` });
      await other.ready();
      authorization = `Bearer ${other.jwt.sign(claims as AccessClaims)}`;
      await other.close();
    } else if (kind === 'none') {
      authorization = `Bearer ${encode({ alg: 'none', typ: 'JWT' })}.${encode({ ...claims, iat: Math.floor(Date.now() / 1000) })}.`;
    } else if (kind === 'expired') {
      authorization = `Bearer ${api.jwt.sign({ ...(claims as AccessClaims), iat: Math.floor(Date.now() / 1000) - 3600 } as AccessClaims, { expiresIn: 1 })}`;
    } else if (kind === 'tampered') {
      const [header, , signature] = real.split('.');
      authorization = `Bearer ${header}.${encode({ ...claimsOf(real), role: 'ADMIN' })}.${signature}`;
    } else if (kind) {
      authorization = kind;
    }
    const response = await api.inject({
      method: 'PUT', url: '/api/account/changepassword', headers: authorization ? { authorization } : {},
      payload: { currentPassword: captain.password, newPassword: 'uus-parool-1' },
    });
    expectRefusal(response, 401, 'UNAUTHORIZED');
    await login(captain.email, captain.password); // unchanged
  });
});
