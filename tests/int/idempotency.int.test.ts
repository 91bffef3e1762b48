/**
 * Idempotency keys end to end on real PostgreSQL (docs/decisions/0007): a repeated
 * `Idempotency-Key` with the same request answers the first result — also while the first request
 * still runs — and appends nothing; the key reused with another body, path or route answers 422
 * IDEMPOTENCY_KEY_REUSED and changes nothing; a request refused with a domain error is not
 * remembered. Never a 500.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (the command API registers the plugin)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { AccountDirectory, AccountService, CommandService, deterministicUuid, eventIdFor, fingerprintKey, fingerprintOf, requestFingerprint } from '@sinilill/commands';
import type { SessionClaims } from '@sinilill/contracts';
import { streams, type ActingUser } from '@sinilill/domain';
import type { EventStore, RecordedEvent } from '@sinilill/event-store';
import { buildCommandApi } from '@sinilill/command-api';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const NOW = new Date('2025-04-20T10:00:00Z');
const PARALLEL = 20;

describe('Idempotency-Key on the command API', () => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let commands: CommandService;
  let commandApi: FastifyInstance;
  let serial = 0;
  let sessions: TestSessions;
  const TEAM = 1;
  const MEMBER = 11;

  const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });
  const member: SessionClaims = {
    userId: '00000000-0000-4000-8000-000000000011', fullName: 'Mari Maasikas', is_approved: true,
    participantId: MEMBER, teamId: TEAM, role: 'USER', isPaid: true,
  };
  const admin: SessionClaims = {
    userId: 'b7d1f6c4-3f51-4a4c-9d51-2f0f5c6c0a01', fullName: 'Administrator', is_approved: true,
    participantId: null, teamId: null, role: 'ADMIN', isPaid: false,
  };
  // Real accounts with live sessions (a token needs its account's session version).
  const headers = (claims: SessionClaims, key?: string) => ({
    authorization: sessions.bearer(commandApi, claims),
    ...(key !== undefined ? { 'idempotency-key': key } : {}),
  });
  /** A key no other test uses. */
  const newKey = (name: string) => `${name}-${++serial}-key`;

  const addEntry = (key: string | undefined, payload: object = { distance: 5, entry_type: 'WALK', performed_at: '2025-04-19' }) =>
    commandApi.inject({ method: 'POST', url: '/api/entry', headers: headers(member, key), payload });
  const editEntry = (entryId: number, key: string | undefined, payload: object) =>
    commandApi.inject({ method: 'PUT', url: `/api/entry/${entryId}/edit`, headers: headers(member, key), payload });
  const publicAttributes = (key: string, payload: object) =>
    commandApi.inject({ method: 'PUT', url: `/api/team/${TEAM}/publicattributes`, headers: headers(member, key), payload });

  /** Every event appended after `position`. */
  const eventsAfter = (position: number): Promise<RecordedEvent[]> => app.store.readAll({ after: position, maxCount: 10_000 });
  /** The events a keyed request of `claims` recorded (their command id is `<userId>:<key>`). */
  const eventsOfKey = async (claims: SessionClaims, key: string, after = 0) =>
    (await eventsAfter(after)).filter((event) => event.metadata.commandId === `${claims.userId}:${key}`);
  const answer = (response: LightMyRequestResponse) => ({ status: response.statusCode, body: response.json() as unknown });
  const refusal = (status: number, code: string) => ({ status, body: { message: code } });
  const inParallel = <T>(count: number, send: (index: number) => Promise<T>) => Promise.all(Array.from({ length: count }, (_, index) => send(index)));

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    accountPool = new pg.Pool({ connectionString: app.url, max: 6 });
    const directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
    commands = new CommandService({ store: app.store, ids: app.ids, now: () => NOW, directory });
    const mailer = { send: async () => undefined, close: () => undefined };
    const accounts = new AccountService({ store: app.store, ids: app.ids, directory, mailer, now: () => NOW, publicUrl: 'http://sinilill.test' });
    await commands.registerTeam({ teamId: TEAM, teamName: 'Tartu Tammed', description: 'We walk.', joinCode: 'AAAA2222', icon: null }, system('team-1'));
    await commands.registerParticipant({ participantId: MEMBER, teamId: TEAM, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE', isCaptain: true, newsletter: false }, system('p11'));
    await app.ids.reserveThrough('participant', 100);
    await app.ids.reserveThrough('entry', 100);
    sessions = testSessions(app, { now: () => NOW });
    await sessions.enrol(member, admin);
    commandApi = buildCommandApi({ commands, accounts, jwtSecret: SECRET, rateLimit: { max: 1000, timeWindowMs: 60_000 } });
    await commandApi.ready();
  }, 120_000);

  afterAll(async () => {
    await commandApi?.close();
    await accountPool?.end();
    await app?.close();
  });

  test('(a) 20 parallel POST /entry with one key and one body: the same answer 20 times, one EntryAdded', async () => {
    const key = newKey('parallel-add');
    const head = await app.store.headPosition();
    const responses = await inParallel(PARALLEL, () => addEntry(key));
    const first = answer(responses[0]!);
    expect(first.status).toBe(200);
    for (const response of responses) expect(answer(response)).toEqual(first);
    const body = first.body as { entry: { id: number; distance: number }; position: number };
    expect(body.entry.distance).toBe(5);

    const appended = await eventsAfter(head);
    expect(appended.map((event) => event.type)).toEqual(['EntryAdded']);
    expect(appended[0]!.globalPosition).toBe(body.position);
    expect(appended[0]!.stream).toBe(streams.entry(body.entry.id));
    // The request's fingerprint is recorded with the command: HMAC-SHA256 under the app's key,
    // never a plain hash of the body (a body may hold passwords).
    const route = { params: {}, body: { distance: 5, entry_type: 'WALK', performed_at: '2025-04-19' } };
    expect(appended[0]!.metadata).toMatchObject({
      commandId: `${member.userId}:${key}`,
      requestFingerprint: requestFingerprint('POST /api/entry', route, fingerprintKey(SECRET)),
    });
    expect(fingerprintOf(appended[0]!.metadata)).not.toBe(requestFingerprint('POST /api/entry', route));
  });

  test('(b) the same key with another body: 422 IDEMPOTENCY_KEY_REUSED, nothing appended', async () => {
    const key = newKey('other-body');
    const first = await addEntry(key);
    expect(first.statusCode).toBe(200);
    const head = await app.store.headPosition();

    expect(answer(await addEntry(key, { distance: 6, entry_type: 'WALK', performed_at: '2025-04-19' }))).toEqual(refusal(422, 'IDEMPOTENCY_KEY_REUSED'));
    // Another member of the body (participant_id given explicitly) is another body too.
    expect(answer(await addEntry(key, { distance: 5, entry_type: 'WALK', performed_at: '2025-04-19', participant_id: MEMBER })))
      .toEqual(refusal(422, 'IDEMPOTENCY_KEY_REUSED'));
    expect(await app.store.headPosition()).toBe(head);
    // Key order does not make another body: the same fields in another order are a repeat.
    expect(answer(await addEntry(key, { performed_at: '2025-04-19', entry_type: 'WALK', distance: 5 }))).toEqual(answer(first));
    expect(await app.store.headPosition()).toBe(head);
  });

  test('(c) the key of an add reused on PUT /entry/{id}/edit: 422, the entry unchanged', async () => {
    const key = newKey('add-then-edit');
    const added = await addEntry(key);
    expect(added.statusCode).toBe(200);
    const entryId = (added.json() as { entry: { id: number } }).entry.id;
    const head = await app.store.headPosition();

    const edit = await editEntry(entryId, key, { distance: 42, entry_type: 'RUN', performed_at: '2025-04-18' });
    expect(answer(edit)).toEqual(refusal(422, 'IDEMPOTENCY_KEY_REUSED'));
    expect(await app.store.headPosition()).toBe(head);
    const stream = await app.store.readStream(streams.entry(entryId));
    expect(stream.map((event) => event.type)).toEqual(['EntryAdded']);
    expect(stream[0]!.data).toMatchObject({ distance: 5, entryType: 'WALK', performedAt: '2025-04-19' });

    // And the other way round: the edit's key on another entry's path is another request.
    const editKey = newKey('edit-path');
    expect((await editEntry(entryId, editKey, { distance: 7, entry_type: 'WALK', performed_at: '2025-04-19' })).statusCode).toBe(200);
    const other = (await addEntry(undefined)).json() as { entry: { id: number } };
    expect(answer(await editEntry(other.entry.id, editKey, { distance: 7, entry_type: 'WALK', performed_at: '2025-04-19' })))
      .toEqual(refusal(422, 'IDEMPOTENCY_KEY_REUSED'));
    expect((await app.store.readStream(streams.entry(other.entry.id))).map((event) => event.type)).toEqual(['EntryAdded']);
  });

  test('(d) a repeat after completion answers the first result and appends nothing', async () => {
    const key = newKey('sequential');
    const first = await addEntry(key, { distance: 3.25, entry_type: 'SWIM', performed_at: '2025-04-17' });
    expect(first.statusCode).toBe(200);
    const head = await app.store.headPosition();
    for (let i = 0; i < 3; i++) expect(answer(await addEntry(key, { distance: 3.25, entry_type: 'SWIM', performed_at: '2025-04-17' }))).toEqual(answer(first));
    expect(await app.store.headPosition()).toBe(head);
    // Without a key, the same body is a new command each time.
    expect((await addEntry(undefined, { distance: 3.25, entry_type: 'SWIM', performed_at: '2025-04-17' })).statusCode).toBe(200);
    expect(await app.store.headPosition()).toBeGreaterThan(head);
  });

  test('(e) parallel repeats on the edit route: the same answer, one EntryEdited', async () => {
    const entryId = ((await addEntry(undefined)).json() as { entry: { id: number } }).entry.id;
    const key = newKey('parallel-edit');
    const head = await app.store.headPosition();
    const responses = await inParallel(PARALLEL, () => editEntry(entryId, key, { distance: 12.5, entry_type: 'RUN', performed_at: '2025-04-18' }));
    const first = answer(responses[0]!);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, entry: { id: entryId, distance: 12.5, entry_type: 'RUN' } });
    for (const response of responses) expect(answer(response)).toEqual(first);
    expect((await eventsAfter(head)).map((event) => event.type)).toEqual(['EntryEdited']);
  });

  test('(e) parallel repeats on a team command (public attributes): the same answer, one event', async () => {
    const key = newKey('parallel-team');
    const head = await app.store.headPosition();
    const responses = await inParallel(PARALLEL, () => publicAttributes(key, { description: 'Kõnnime koos.' }));
    const first = answer(responses[0]!);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, team: { id: TEAM, description: 'Kõnnime koos.' } });
    for (const response of responses) expect(answer(response)).toEqual(first);
    const appended = await eventsAfter(head);
    expect(appended.map((event) => event.type)).toEqual(['TeamPublicAttributesChanged']);
    expect((first.body as { position: number }).position).toBe(appended[0]!.globalPosition);
    // Another description under the key: refused, the card keeps the first.
    expect(answer(await publicAttributes(key, { description: 'Midagi muud.' }))).toEqual(refusal(422, 'IDEMPOTENCY_KEY_REUSED'));
    expect((await commands.team(TEAM)).description).toBe('Kõnnime koos.');
  });

  test('(e) parallel repeats of a join-code replacement answer the one code drawn', async () => {
    const key = newKey('parallel-code');
    const head = await app.store.headPosition();
    const responses = await inParallel(10, () =>
      commandApi.inject({ method: 'GET', url: `/api/team/${TEAM}/newcode`, headers: headers(member, key) }));
    const first = answer(responses[0]!);
    expect(first.status).toBe(200);
    for (const response of responses) expect(answer(response)).toEqual(first);
    const appended = await eventsAfter(head);
    expect(appended.map((event) => event.type)).toEqual(['JoinCodeReplaced']);
    expect((appended[0]!.data as { joinCode: string }).joinCode).toBe((first.body as { code: string }).code);
  });

  test('parallel requests with one key and two bodies: one is applied, its twins answer it, the others 422', async () => {
    const key = newKey('two-bodies');
    const head = await app.store.headPosition();
    const bodies = [
      { distance: 1, entry_type: 'WALK', performed_at: '2025-04-19' },
      { distance: 2, entry_type: 'WALK', performed_at: '2025-04-19' },
    ];
    const responses = await inParallel(PARALLEL, (index) => addEntry(key, bodies[index % 2]!));
    const answers = responses.map(answer);
    const applied = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(applied.length).toBe(PARALLEL / 2);
    for (const a of applied) expect(a).toEqual(applied[0]);
    for (const a of refused) expect(a).toEqual(refusal(422, 'IDEMPOTENCY_KEY_REUSED'));
    const appended = await eventsAfter(head);
    expect(appended.map((event) => event.type)).toEqual(['EntryAdded']);
    expect((appended[0]!.data as { distance: number }).distance).toBe((applied[0]!.body as { entry: { distance: number } }).entry.distance);
  });

  test('(f) a request refused with a domain error, repeated: the same error, no events; the key stays free', async () => {
    const key = newKey('refused');
    const head = await app.store.headPosition();
    const outside = { distance: 5, entry_type: 'WALK', performed_at: '2025-05-02' }; // after the edition (spec §5)
    const refusals = [await addEntry(key, outside), await addEntry(key, outside), ...(await inParallel(5, () => addEntry(key, outside)))];
    for (const response of refusals) expect(answer(response)).toEqual(refusal(400, 'INVALID_PERFORMED_AT'));
    expect(await eventsAfter(head)).toEqual([]);
    expect(await app.store.findEvent(eventIdFor(`${member.userId}:${key}`, 0))).toBeNull();
    // Nothing was recorded under the key, so a corrected request may use it.
    const corrected = await addEntry(key, { ...outside, performed_at: '2025-04-19' });
    expect(corrected.statusCode).toBe(200);
    expect(await eventsOfKey(member, key, head)).toHaveLength(1);
  });

  test('a domain error on the edit route is repeated the same, and nothing is appended', async () => {
    const key = newKey('edit-missing');
    const head = await app.store.headPosition();
    const responses = [await editEntry(99_999, key, { distance: 1, entry_type: 'WALK', performed_at: '2025-04-19' }),
      ...(await inParallel(5, () => editEntry(99_999, key, { distance: 1, entry_type: 'WALK', performed_at: '2025-04-19' })))];
    for (const response of responses) expect(answer(response)).toEqual(refusal(404, 'NOT_FOUND'));
    expect(await app.store.headPosition()).toBe(head);
  });

  test('PUT /entry/delete: parallel repeats delete once and answer alike; another id list under the key is 422', async () => {
    const ids = [
      ((await addEntry(undefined)).json() as { entry: { id: number } }).entry.id,
      ((await addEntry(undefined)).json() as { entry: { id: number } }).entry.id,
    ];
    const key = newKey('delete');
    const head = await app.store.headPosition();
    const del = (payload: object) => commandApi.inject({ method: 'PUT', url: '/api/entry/delete', headers: headers(member, key), payload });
    const responses = await inParallel(10, () => del({ ids }));
    const first = answer(responses[0]!);
    expect(first).toMatchObject({ status: 200, body: { success: true, count: 2 } });
    for (const response of responses) expect(answer(response)).toEqual(first);
    const appended = await eventsAfter(head);
    expect(appended.map((event) => event.type)).toEqual(['EntryDeleted', 'EntryDeleted']);
    // The answer's position is the command's last event (read-your-writes), for the repeats too.
    expect((first.body as { position: number }).position).toBe(appended[1]!.globalPosition);
    expect(answer(await del({ ids: [ids[0]!] }))).toEqual(refusal(422, 'IDEMPOTENCY_KEY_REUSED'));
    expect(await app.store.headPosition()).toBe(appended[1]!.globalPosition);
  });

  test('admin routes: a key reused across routes (settings → password reset) is 422 and resets nothing', async () => {
    const key = newKey('admin');
    const userId = deterministicUuid('account:p11:account'); // Mari's account (registerParticipant with a directory)
    const settings = await commandApi.inject({ method: 'PUT', url: '/api/admin/settings', headers: headers(admin, key), payload: { registrationEnabled: false } });
    expect(settings.statusCode).toBe(200);
    const head = await app.store.headPosition();
    const reset = await commandApi.inject({
      method: 'POST', url: '/api/admin/resetpassword', headers: headers(admin, key), payload: { userId, newPassword: 'uus-salasõna-1' },
    });
    expect(answer(reset)).toEqual(refusal(422, 'IDEMPOTENCY_KEY_REUSED'));
    expect(await app.store.headPosition()).toBe(head);

    // A password reset repeated in parallel: one PasswordChanged, the same answer.
    const resetKey = newKey('admin-reset');
    const resets = await inParallel(5, () => commandApi.inject({
      method: 'POST', url: '/api/admin/resetpassword', headers: headers(admin, resetKey), payload: { userId, newPassword: 'uus-salasõna-2' },
    }));
    for (const response of resets) expect(answer(response)).toEqual(answer(resets[0]!));
    expect(resets[0]!.statusCode).toBe(200);
    expect((await eventsOfKey(admin, resetKey, head)).map((event) => event.type)).toHaveLength(1);
    // Another user id under that key is another request.
    const other = await commandApi.inject({
      method: 'POST', url: '/api/admin/resetpassword', headers: headers(admin, resetKey), payload: { userId: admin.userId, newPassword: 'uus-salasõna-2' },
    });
    expect(answer(other)).toEqual(refusal(422, 'IDEMPOTENCY_KEY_REUSED'));
  });

  describe('two command API processes racing on one key (each has its own in-process queue)', () => {
    // A second CommandService and API on the same database stand for a second process: the
    // in-process wait does not cover it; the store's unique event ids and the repeat checks do.
    // Its store can hold one call until the first process has answered, which makes each race
    // window certain instead of likely.
    let twinApi: FastifyInstance;
    let directory: AccountDirectory;
    let held: { method: 'readStream' | 'appendToStream'; stream: string | null; reached: () => void; released: Promise<void> } | null = null;

    /** Holds the twin store's next `method` call (on `stream`, or any) until released. */
    const holdNext = (method: 'readStream' | 'appendToStream', stream: string | null) => {
      let reached!: () => void;
      let release!: () => void;
      const reachedPromise = new Promise<void>((resolve) => { reached = resolve; });
      held = { method, stream, reached, released: new Promise<void>((resolve) => { release = resolve; }) };
      return { reached: reachedPromise, release };
    };
    const pass = async (method: 'readStream' | 'appendToStream', stream: string) => {
      const hold = held;
      if (hold && hold.method === method && (hold.stream === null || hold.stream === stream)) {
        held = null;
        hold.reached();
        await hold.released;
      }
    };

    beforeAll(async () => {
      directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
      const store = app.store;
      const twinStore: EventStore = {
        appendToStream: async (stream, events, options) => { await pass('appendToStream', stream); return store.appendToStream(stream, events, options); },
        // Every command appends through appendToStreams (one write path): held as 'appendToStream' too.
        appendToStreams: async (requests) => { await pass('appendToStream', requests[0]!.stream); return store.appendToStreams(requests); },
        readStream: async (stream, options) => { await pass('readStream', stream); return store.readStream(stream, options); },
        readAll: (options) => store.readAll(options),
        appendToStreamsIf: (requests, condition) => store.appendToStreamsIf(requests, condition),
        readEvents: (selector, options) => store.readEvents(selector, options),
        countEvents: (selector) => store.countEvents(selector),
        headPosition: () => store.headPosition(),
        findEvent: (id) => store.findEvent(id),
        close: async () => undefined,
      };
      const twin = new CommandService({ store: twinStore, ids: app.ids, now: () => NOW, directory });
      twinApi = buildCommandApi({ commands: twin, sessions: sessions.accounts, jwtSecret: SECRET });
      await twinApi.ready();
    });
    afterAll(async () => {
      await twinApi?.close();
    });

    /**
     * The twin starts the request and is held at `method` on `stream`; the first process then
     * handles the same request to its end; then the twin goes on. Both must answer alike, and
     * the log must hold the command once.
     */
    const race = async (
      method: 'readStream' | 'appendToStream',
      stream: string | null,
      send: (api: FastifyInstance) => Promise<LightMyRequestResponse>,
    ) => {
      const head = await app.store.headPosition();
      const hold = holdNext(method, stream);
      const twinAnswer = send(twinApi);
      await hold.reached;
      const first = answer(await send(commandApi));
      hold.release();
      expect(first.status).toBe(200);
      expect(answer(await twinAnswer)).toEqual(first);
      return { body: first.body, appended: await eventsAfter(head) };
    };

    test('POST /entry: the twin\'s append of the same event ids into another entry stream is refused; it answers the first result', async () => {
      const key = newKey('twin-add');
      const { body, appended } = await race('appendToStream', null, (api) => api.inject({
        method: 'POST', url: '/api/entry', headers: headers(member, key), payload: { distance: 8, entry_type: 'WALK', performed_at: '2025-04-19' },
      }));
      expect(appended.map((event) => event.type)).toEqual(['EntryAdded']);
      expect(appended[0]!.stream).toBe(streams.entry((body as { entry: { id: number } }).entry.id));
    });

    test('team public attributes: the twin finds nothing left to change and answers the first result', async () => {
      const key = newKey('twin-team');
      const { body, appended } = await race('readStream', streams.team(TEAM), (api) => api.inject({
        method: 'PUT', url: `/api/team/${TEAM}/publicattributes`, headers: headers(member, key), payload: { description: 'Kaks protsessi.' },
      }));
      expect(appended.map((event) => event.type)).toEqual(['TeamPublicAttributesChanged']);
      expect((body as { position: number }).position).toBe(appended[0]!.globalPosition);
    });

    test('PUT /entry/delete: the twin is refused (already deleted) and answers the first result', async () => {
      const entryId = ((await addEntry(undefined)).json() as { entry: { id: number } }).entry.id;
      const key = newKey('twin-delete');
      const { body, appended } = await race('readStream', streams.entry(entryId), (api) => api.inject({
        method: 'PUT', url: '/api/entry/delete', headers: headers(member, key), payload: { ids: [entryId] },
      }));
      expect(body).toMatchObject({ success: true, count: 1 });
      expect(appended.map((event) => event.type)).toEqual(['EntryDeleted']);
    });

    test('join code: the twin drew another code; its transaction rolls back and it answers the first code', async () => {
      const key = newKey('twin-code');
      const { body, appended } = await race('readStream', streams.team(TEAM), (api) =>
        api.inject({ method: 'GET', url: `/api/team/${TEAM}/newcode`, headers: headers(member, key) }));
      expect(appended.map((event) => event.type)).toEqual(['JoinCodeReplaced']);
      const code = (body as { code: string }).code;
      expect((appended[0]!.data as { joinCode: string }).joinCode).toBe(code);
      // The join-code table agrees with the log: the answered code is the team's live code.
      expect(await directory.joinCode(code)).toMatchObject({ teamId: TEAM, revoked: false });
    });

    test('another body under the key in the twin: 422, nothing of it appended', async () => {
      const key = newKey('twin-other-body');
      const head = await app.store.headPosition();
      const hold = holdNext('readStream', streams.team(TEAM));
      const twinAnswer = twinApi.inject({
        method: 'PUT', url: `/api/team/${TEAM}/publicattributes`, headers: headers(member, key), payload: { description: 'Teine.' },
      });
      await hold.reached;
      const first = await publicAttributes(key, { description: 'Esimene.' });
      hold.release();
      expect(first.statusCode).toBe(200);
      expect(answer(await twinAnswer)).toEqual(refusal(422, 'IDEMPOTENCY_KEY_REUSED'));
      expect((await eventsAfter(head)).map((event) => event.type)).toEqual(['TeamPublicAttributesChanged']);
      expect((await commands.team(TEAM)).description).toBe('Esimene.');
    });
  });

  test('one key is scoped to its user: another user with the same key makes another command', async () => {
    const key = newKey('scoped');
    expect((await addEntry(key)).statusCode).toBe(200);
    const settings = await commandApi.inject({ method: 'PUT', url: '/api/admin/settings', headers: headers(admin, key), payload: { entryInsertionEnabled: true } });
    expect(settings.statusCode).toBe(200);
  });
});
