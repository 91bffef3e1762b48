/**
 * "My data" end to end on real PostgreSQL: a participant's download of
 * everything the app holds about them (GET /api/me/data, JSON and CSV) holds exactly their data
 * and events and nobody else's, and their own erasure (POST /api/me/erase) with their password:
 * a wrong one changes nothing (and counts as a failed login), the right one deletes and
 * crypto-shreds them as an administrator's deletion does while the team keeps the km; their
 * token is refused afterwards.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (the command API registers the plugin)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import pg from 'pg';
import { AccountDirectory, AccountService, CommandService, type CommandRequest } from '@sinilill/commands';
import { MY_DATA_CSV_COLUMNS, type HistoryPage, type MyDataExport } from '@sinilill/contracts';
import { PERSONAL_DATA_FIELDS, streams, type ActingUser } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection, type EventStore } from '@sinilill/event-store';
import { buildCommandApi } from '@sinilill/command-api';
import { buildQueryApi } from '@sinilill/query-api';
import { projections, rebuildReadModels } from '@sinilill/read-models';
import { streamIndexOn, testApplication, type TestApplication } from '../support/app';
import { NO_MAIL } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const NOW = new Date('2025-04-15T09:00:00Z');
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const PASSWORD = 'sinine lill metsa all';

interface Person { userId: string; participantId: number; teamId: number; email: string; fullName: string; token: string }

describe('my data: download and self-erasure', () => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let store: EventStore;
  let commands: CommandService;
  let accounts: AccountService;
  let commandApi: FastifyInstance;
  let queryApi: FastifyInstance;
  let mari: Person;
  let kati: Person;
  let jaan: Person;
  let adminToken: string;
  let serial = 0;

  const system = (): CommandRequest => {
    const id = `my-data-test:${++serial}`;
    return { actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } };
  };
  const as = (person: Person): CommandRequest => {
    const id = `my-data-test:${++serial}`;
    return { actor: { userId: person.userId, role: 'USER', participantId: person.participantId, teamId: person.teamId }, metadata: { commandId: id, correlationId: id, causationId: null } };
  };
  const login = async (email: string, password: string) => commandApi.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  const tokenOf = async (email: string, password: string) => {
    const response = await login(email, password);
    expect(response.statusCode, response.body).toBe(200);
    return `Bearer ${response.json<{ token: string }>().token}`;
  };
  const get = (url: string, token?: string) => queryApi.inject({ url, headers: token ? { authorization: token } : {} });
  const exportOf = async (token: string) => {
    const response = await get('/api/me/data', token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MyDataExport>();
  };
  const erase = (token: string, password: string) => commandApi.inject({ method: 'POST', url: '/api/me/erase', payload: { password }, headers: { authorization: token } });
  const refusal = (response: LightMyRequestResponse) => ({ status: response.statusCode, body: response.json<unknown>() });

  /** A participant with a real password, approved, logged in. */
  const register = async (input: { fullName: string; email: string; team?: string; joinCode?: string }): Promise<Person> => {
    const person = { fullName: input.fullName, email: input.email, gender: 'FEMALE' as const, birthYear: 1980, password: PASSWORD, newsletter: true, lang: 'est' as const };
    const result = input.team !== undefined
      ? await accounts.registerTeam({ ...person, teamName: input.team }, system())
      : await accounts.joinTeam({ ...person, joinCode: input.joinCode! }, system());
    await accounts.setApproval(result.userId, true, system());
    return { ...result, email: input.email, fullName: input.fullName, token: await tokenOf(input.email, PASSWORD) };
  };

  const joinCodeOf = async (teamId: number) => {
    const [registered] = await store.readStream(streams.team(teamId));
    return (registered!.data as { joinCode: string }).joinCode;
  };

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    accountPool = new pg.Pool({ connectionString: app.url, max: 6 });
    const directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
    // One vault without a key cache for both APIs: an erasure is seen at once by every read.
    const vault = new PersonalDataVault({ pool: app.pool, cacheTtlMs: 0 });
    store = withPersonalDataProtection(new PostgresEventStore({ pool: app.pool }), vault, PERSONAL_DATA_FIELDS);
    commands = new CommandService({ store, ids: app.ids, now: () => NOW, directory, personalData: vault, streamIndex: streamIndexOn(app.pool) });
    accounts = new AccountService({ store, ids: app.ids, directory, mailer: NO_MAIL, now: () => NOW, publicUrl: 'http://sinilill.test' });
    commandApi = buildCommandApi({
      commands, accounts, jwtSecret: SECRET, rateLimit: { max: 1000, timeWindowMs: 60_000 },
      // Jaan's wrong passwords below reach the per-address-and-account limit at the third.
      rateLimits: { loginFailuresPerAccountAndAddress: { max: 3, timeWindowMs: 60_000 } },
    });
    queryApi = buildQueryApi({
      db: app.db, now: () => NOW, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes: { subscribe: () => () => undefined }, history: store,
    });
    await Promise.all([commandApi.ready(), queryApi.ready()]);

    mari = await register({ fullName: 'Mari Maasikas', email: 'mari@example.ee', team: 'Tartu Tammed' });
    kati = await register({ fullName: 'Kati Karu', email: 'kati@example.ee', joinCode: await joinCodeOf(mari.teamId) });
    jaan = await register({ fullName: 'Jaan Juurikas', email: 'jaan@example.ee', team: 'Pärnu Pääsukesed' });
    const admin = await accounts.ensureAdmin('admin@example.ee', 'a long admin password', NOW);
    expect(admin.userId).toBeTruthy();
    adminToken = await tokenOf('admin@example.ee', 'a long admin password');

    const walk = (person: Person, distance: number) => ({ participantId: person.participantId, distance, entryType: 'WALK', performedAt: '2025-04-10' });
    const edited = (await commands.addEntry(walk(mari, 5), as(mari))).entry.id;
    await commands.editEntry(edited, walk(mari, 7.5), as(mari));
    await commands.addEntry(walk(mari, 3.25), as(mari));
    await commands.addEntry(walk(kati, 4), as(kati));
    await commands.addEntry(walk(jaan, 9), as(jaan));
    const order = { isPaid: false, grandTotalCents: 1500, amountCents: 1500, country: 'EE', method: 'SEB', provider: 'sandbox', countryMethods: ['SEB'] };
    await commands.orderPayment(order, as(mari));
    await commands.orderPayment(order, as(kati));
    await app.project();
  }, 120_000);

  afterAll(async () => {
    await commandApi?.close();
    await queryApi?.close();
    await accountPool?.end();
    await app?.close();
  });

  describe('the download', () => {
    test('holds the caller’s account, participant, entries with their edits, payments and events, and nobody else’s', async () => {
      const data = await exportOf(mari.token);
      expect(data.account).toMatchObject({ user_id: mari.userId, email: 'mari@example.ee', full_name: 'Mari Maasikas', role: 'USER', approved: true });
      expect(data.participant).toMatchObject({
        id: mari.participantId, team: { id: mari.teamId, team_name: 'Tartu Tammed' }, full_name: 'Mari Maasikas', email: 'mari@example.ee',
        birth_year: 1980, gender: 'FEMALE', captain: true, paid: false, newsletter: true,
      });
      expect(data.entries.map((e) => [e.distance, e.status, e.versions.map((v) => [v.type, v.distance])])).toEqual([
        [7.5, 'active', [['EntryAdded', 5], ['EntryEdited', 7.5]]],
        [3.25, 'active', [['EntryAdded', 3.25]]],
      ]);
      expect(data.payments).toHaveLength(1);
      expect(data.payments[0]).toMatchObject({ kind: 'fee', status: 'ordered', amount_cents: 1500, refunded_cents: 0 });

      // Every event is the caller's: one of their streams, naming them; in global order.
      const own = new Set([streams.user(mari.userId), streams.participant(mari.participantId)]);
      for (const event of data.events) {
        expect(own.has(event.stream) || (event.data as { participantId?: number }).participantId === mari.participantId, event.stream).toBe(true);
      }
      expect(data.events.map((e) => e.position)).toEqual([...data.events.map((e) => e.position)].sort((a, b) => a - b));
      expect(data.events.map((e) => e.type)).toEqual(expect.arrayContaining(['UserRegistered', 'ParticipantRegistered', 'EntryAdded', 'EntryEdited', 'PaymentOrdered']));
      // The log's own count of what names Mari: her two streams, her entries' and her order's events.
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM es.events WHERE stream IN (${streams.user(mari.userId)}, ${streams.participant(mari.participantId)})
        OR (stream LIKE 'entry-%' OR stream LIKE 'payment-%') AND data->>'participantId' = ${String(mari.participantId)}`.execute(app.db);
      expect(data.events).toHaveLength(rows[0]!.n);

      const text = JSON.stringify(data);
      for (const other of [kati, jaan]) {
        expect(text).not.toContain(other.email);
        expect(text).not.toContain(other.fullName);
        expect(text).not.toContain(other.userId);
        expect(text).not.toContain(`participant-${other.participantId}"`);
      }
    });

    test('is an attachment named by the Tallinn date; the CSV parses, one section per row, the same events', async () => {
      const json = await get('/api/me/data', mari.token);
      expect(json.headers['content-disposition']).toBe('attachment; filename="sinilill-minu-andmed-2025-04-15.json"');
      const events = json.json<MyDataExport>().events.length;
      for (const url of ['/api/me/data.csv', '/api/me/data?format=csv']) {
        const response = await get(url, mari.token);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.headers['content-type']).toMatch(/^text\/csv/);
        expect(response.headers['content-disposition']).toBe('attachment; filename="sinilill-minu-andmed-2025-04-15.csv"');
        const rows = parse(response.body, { columns: true }) as Record<string, string>[];
        expect(Object.keys(rows[0]!)).toEqual([...MY_DATA_CSV_COLUMNS]);
        const sections = rows.map((row) => row.section);
        expect(sections.filter((s) => s === 'account')).toHaveLength(1);
        expect(sections.filter((s) => s === 'participant')).toHaveLength(1);
        expect(sections.filter((s) => s === 'entry')).toHaveLength(2);
        expect(sections.filter((s) => s === 'payment')).toHaveLength(1);
        expect(sections.filter((s) => s === 'event')).toHaveLength(events);
        expect(rows.find((row) => row.section === 'participant')).toMatchObject({ email: 'mari@example.ee', birth_year: '1980', team: 'Tartu Tammed', captain: 'true' });
        expect(response.body).not.toContain('kati@example.ee');
      }
    });

    test('an administrator without a participant gets their account and its events only; no token gets 401', async () => {
      const data = await exportOf(adminToken);
      expect(data.account).toMatchObject({ email: 'admin@example.ee', role: 'ADMIN' });
      expect(data.participant).toBeNull();
      expect([data.entries, data.payments]).toEqual([[], []]);
      expect(new Set(data.events.map((e) => e.stream))).toEqual(new Set([streams.user(data.account.user_id)]));
      expect(refusal(await get('/api/me/data'))).toEqual({ status: 401, body: { message: 'UNAUTHORIZED' } });
      expect(refusal(await get('/api/me/data?format=xml', mari.token))).toEqual({ status: 400, body: { message: 'INVALID_REQUEST' } });
    });
  });

  describe('the erasure', () => {
    test('a wrong password is refused and changes nothing; it counts like a failed login', async () => {
      const before = (await store.readStream(streams.user(jaan.userId))).length;
      expect(refusal(await erase(jaan.token, 'not my password'))).toEqual({ status: 400, body: { message: 'INVALID_PASSWORD' } });
      expect(refusal(await erase(jaan.token, 'not my password either'))).toEqual({ status: 400, body: { message: 'INVALID_PASSWORD' } });
      expect(refusal(await erase(jaan.token, 'nor this one'))).toEqual({ status: 400, body: { message: 'INVALID_PASSWORD' } });
      expect((await store.readStream(streams.user(jaan.userId))).length).toBe(before);
      expect((await exportOf(jaan.token)).account.email).toBe('jaan@example.ee');
      // Three failures at this account from this address: the login waits, and so does the erasure.
      expect((await login('jaan@example.ee', PASSWORD)).statusCode).toBe(429);
      expect((await erase(jaan.token, PASSWORD)).statusCode).toBe(429);
      expect((await store.readStream(streams.user(jaan.userId))).length).toBe(before);
      expect(refusal(await erase(jaan.token, ''))).toEqual({ status: 400, body: { message: 'INVALID_REQUEST' } });
    });

    test('an administrator cannot erase their own account this way', async () => {
      expect(refusal(await erase(adminToken, 'a long admin password'))).toEqual({ status: 403, body: { message: 'FORBIDDEN' } });
    });

    test('the right password erases the person: the team keeps the km, the name is gone everywhere, the token is refused', async () => {
      const teamBefore = await app.db.withSchema('rm').selectFrom('team_stats').selectAll().where('team_id', '=', mari.teamId).executeTakeFirstOrThrow();
      const response = await erase(mari.token, PASSWORD);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ success: true, position: expect.any(Number) as number });
      expect(response.headers['set-cookie']).toBeDefined();

      // The administrator's deletion's events, by Mari herself, and no entry deleted.
      const userEvents = await store.readStream(streams.user(mari.userId));
      const participantEvents = await store.readStream(streams.participant(mari.participantId));
      expect(userEvents.at(-1)).toMatchObject({ type: 'UserDeleted', metadata: { actor: { userId: mari.userId, role: 'USER' } } });
      expect(participantEvents.at(-1)).toMatchObject({ type: 'ParticipantDeleted', metadata: { actor: { userId: mari.userId, role: 'USER' } } });
      const { rows: deletedEntries } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM es.events WHERE type = 'EntryDeleted'`.execute(app.db);
      expect(deletedEntries[0]!.n).toBe(0);
      // Crypto-shredded: the log reads her fields as null.
      expect(participantEvents[0]!.data).toMatchObject({ fullName: null, email: null, birthYear: null });

      await app.project();
      const teamAfter = await app.db.withSchema('rm').selectFrom('team_stats').selectAll().where('team_id', '=', mari.teamId).executeTakeFirstOrThrow();
      expect(teamAfter.distance_hundredths).toBe(teamBefore.distance_hundredths);
      expect(teamAfter.participants).toBe(teamBefore.participants - 1);

      // The token and the password are refused from now on.
      expect(refusal(await get('/api/me/data', mari.token))).toEqual({ status: 401, body: { message: 'UNAUTHORIZED' } });
      expect(refusal(await erase(mari.token, PASSWORD))).toEqual({ status: 401, body: { message: 'UNAUTHORIZED' } });
      expect(refusal(await login('mari@example.ee', PASSWORD))).toEqual({ status: 401, body: { message: 'INVALID_CREDENTIALS' } });

      // A teammate's page and download: Mari's km, not her name.
      const entries = (await get(`/api/team/${mari.teamId}/entries`, kati.token)).json<{ participant_id: number; distance: number }[]>();
      expect(entries.filter((e) => e.participant_id === mari.participantId).map((e) => e.distance).sort()).toEqual([3.25, 7.5]);
      const members = await get(`/api/team/${mari.teamId}/participants`, kati.token);
      expect(members.body).not.toContain('Mari Maasikas');
      expect(JSON.stringify(await exportOf(kati.token))).not.toContain('Mari');

      // The admin history reads her fields as null.
      const history = (await get(`/api/admin/history?stream=${streams.participant(mari.participantId)}`, adminToken)).json<HistoryPage>();
      expect(history.events[0]).toMatchObject({ type: 'ParticipantRegistered', data: { fullName: null, email: null } });

      // A rebuild gives the same rows, none of which holds her name, e-mail or user id.
      const snapshot = async () => {
        const tables = await sql<{ table_name: string }>`SELECT table_name FROM information_schema.tables
          WHERE table_schema = 'rm' AND table_name NOT LIKE 'kysely%' AND table_name NOT IN ('checkpoints', 'settings') ORDER BY table_name`.execute(app.db);
        const result: Record<string, string[]> = {};
        for (const { table_name } of tables.rows) {
          const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(`rm.${table_name}`)}`.execute(app.db);
          result[table_name] = rows.rows.map((row) => JSON.stringify(row)).sort();
        }
        return result;
      };
      const live = await snapshot();
      await rebuildReadModels(app.db, store, projections);
      const rebuilt = await snapshot();
      expect(rebuilt).toEqual(live);
      const all = JSON.stringify(rebuilt);
      for (const needle of ['Mari Maasikas', 'mari@example.ee', mari.userId]) expect(all).not.toContain(needle);
      expect(all).toContain('Kati Karu');
    }, 60_000);
  });
});
