/**
 * Activity files through the command API on real PostgreSQL: upload → proposal
 * (nothing stored) → confirm → an entry whose EntryAdded (schema 2) records the file, with
 * ActivityFileUsed in the file's stream in the same append; the same file refused while its entry
 * lives, free again once it is deleted; refusals with catalogue codes, never a 500; members only.
 * A GPX declared ISO-8859-1 and a 19 MB GPX (under the 20 MiB limit) are read with the reader's
 * default heap. Also the first upcaster on the whole pipeline: a version 1 EntryAdded in the log projects like a
 * version 2 one.
 */
import type {} from '@fastify/jwt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { fitFile, gpxFile } from '@sinilill/activity-files/testing';
import type { SessionClaims } from '@sinilill/contracts';
import { streams, type ActingUser } from '@sinilill/domain';
import { buildCommandApi } from '@sinilill/command-api';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';
import { garminGpxOf } from '../bench/uploads';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const userOf = (participantId: number) => `00000000-0000-4000-8000-${String(participantId).padStart(12, '0')}`;
const claims = (participantId: number, teamId: number): SessionClaims => ({
  userId: userOf(participantId), fullName: 'Test Person', is_approved: true, participantId, teamId, role: 'USER', isPaid: true,
});
const adminClaims = (): SessionClaims => ({ ...claims(1, 1), role: 'ADMIN', participantId: null, teamId: null });

/**
 * A GPX of about 4.4 MB (60 000 points): about 300 MB of XML document, more than a second of
 * reading (on the main thread, a second of every request waiting).
 */
const largeGpx = () => {
  const bytes = gpxFile({ start: '2025-04-12T04:00:00.000Z', points: 60_000, step: 0.00001 }, 'running');
  expect(bytes.length).toBeGreaterThan(4_000_000);
  return bytes;
};

/**
 * A FIT of 150 000 records (about 2.5 MB): the FIT SDK decodes every message into objects (a
 * 5 MB FIT took about 200 MB); it outgrows a 32 MB heap (GPX and TCX are streamed and do not).
 */
const largeFit = () => fitFile({ start: '2025-04-12T04:00:00.000Z', points: 150_000, step: 0.00001 }, 'running');

/** 07:00 in Tallinn on 12 April 2025. */
const morning = { start: '2025-04-12T04:00:00.000Z', points: 21 };

describe('activity files through the command API', () => {
  let app: TestApplication;
  let api: FastifyInstance;
  let sessions: TestSessions;
  const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });

  const upload = async (who: SessionClaims, bytes: Uint8Array, name: string, options: { team?: number; contentType?: string } = {}) => api.inject({
    method: 'POST',
    url: `/api/team/${options.team ?? who.teamId ?? 1}/activity-files`,
    headers: { authorization: await sessions.bearer(api, who), 'content-type': options.contentType ?? 'application/octet-stream', 'x-file-name': encodeURIComponent(name) },
    payload: Buffer.from(bytes),
  });
  const confirm = async (who: SessionClaims, body: Record<string, unknown>, headers: Record<string, string> = {}) => api.inject({
    method: 'POST', url: `/api/team/${who.teamId ?? 1}/activity-files/confirm`,
    headers: { authorization: await sessions.bearer(api, who), ...headers }, payload: body,
  });

  beforeAll(async () => {
    app = await testApplication({ now: () => new Date('2025-04-20T10:00:00Z') });
    await app.commands.registerTeam({ teamId: 1, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, system('t1'));
    await app.commands.registerTeam({ teamId: 2, teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'BBBB2222', icon: null }, system('t2'));
    await app.commands.registerParticipant({ participantId: 11, teamId: 1, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE', isCaptain: true, newsletter: false }, system('p11'));
    await app.commands.registerParticipant({ participantId: 12, teamId: 1, fullName: 'Kati Karu', email: 'kati@example.ee', birthYear: 1982, gender: 'FEMALE', isCaptain: false, newsletter: false }, system('p12'));
    await app.commands.registerParticipant({ participantId: 21, teamId: 2, fullName: 'Jüri Juurikas', email: 'jyri@example.ee', birthYear: 1975, gender: 'MALE', isCaptain: true, newsletter: false }, system('p21'));
    sessions = testSessions(app);
    await sessions.enrol(claims(11, 1), claims(12, 1), claims(21, 2), adminClaims());
    api = buildCommandApi({ commands: app.commands, sessions: sessions.accounts, jwtSecret: SECRET });
    await api.ready();
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await app?.close();
  });

  test('a GPX becomes a confirmed entry recording its file; the same file is refused until that entry is deleted', async () => {
    const mari = claims(11, 1);
    const bytes = gpxFile(morning, 'running');
    const first = await upload(mari, bytes, 'hommikujooks õues.gpx');
    expect(first.statusCode).toBe(200);
    const proposal = first.json();
    expect(proposal).toMatchObject({ file_name: 'hommikujooks õues.gpx', format: 'gpx', distance: 2, performed_at: '2025-04-12', entry_type: 'OUTDOOR_RUN', already_used: false });
    expect(proposal.track).toHaveLength(21);
    // Nothing stored by the upload.
    expect(await app.store.readStream(streams.activityFile(proposal.sha256))).toEqual([]);

    const confirmed = await confirm(mari, { token: proposal.token });
    expect(confirmed.statusCode).toBe(200);
    const entry = confirmed.json().entry;
    expect(entry).toMatchObject({ participant_id: 11, team_id: 1, distance: 2, entry_type: 'OUTDOOR_RUN', performed_at: '2025-04-12' });
    const [added] = await app.store.readStream(streams.entry(entry.id));
    expect(added).toMatchObject({ type: 'EntryAdded', schemaVersion: 2, data: { source: { kind: 'file', format: 'gpx', sha256: proposal.sha256 } } });
    const [used] = await app.store.readStream(streams.activityFile(proposal.sha256));
    expect(used).toMatchObject({ type: 'ActivityFileUsed', data: { entryIds: [entry.id], participantId: 11 } });

    // The same bytes again, even under another name and by a teammate: said at upload, refused at confirm.
    const again = await upload(claims(12, 1), bytes, 'copy.gpx');
    expect(again.json()).toMatchObject({ already_used: true });
    const refused = await confirm(claims(12, 1), { token: again.json().token });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: 'ACTIVITY_FILE_ALREADY_USED' });
    // The old proposal's token cannot count it twice either.
    expect((await confirm(mari, { token: proposal.token })).json()).toEqual({ message: 'ACTIVITY_FILE_ALREADY_USED' });

    await app.commands.deleteEntries([entry.id], system('delete-file-entry'));
    const freed = await upload(mari, bytes, 'hommikujooks õues.gpx');
    expect(freed.json()).toMatchObject({ already_used: false });
    expect((await confirm(mari, { token: freed.json().token })).statusCode).toBe(200);
  });

  test('a FIT without a sport needs the member to choose a type; an Idempotency-Key repeat adds nothing', async () => {
    const kati = claims(12, 1);
    const proposal = (await upload(kati, fitFile(morning, 'generic', 'generic', 4321), 'watch.FIT')).json();
    expect(proposal).toMatchObject({ format: 'fit', distance: 4.32, entry_type: null, already_used: false });
    expect((await confirm(kati, { token: proposal.token })).json()).toEqual({ message: 'INVALID_ENTRY_TYPE' });
    const key = { 'idempotency-key': '6d3a3f0e-4a1e-4b7e-9d43-3f0c0a1b2c3d' };
    const first = await confirm(kati, { token: proposal.token, entry_type: 'WALK' }, key);
    expect(first.statusCode).toBe(200);
    expect(first.json().entry).toMatchObject({ entry_type: 'WALK', distance: 4.32 });
    const repeat = await confirm(kati, { token: proposal.token, entry_type: 'WALK' }, key);
    expect(repeat.json()).toEqual(first.json());
  });

  test('two confirmations of one file at once: one entry, one ACTIVITY_FILE_ALREADY_USED', async () => {
    const bytes = gpxFile({ ...morning, points: 5 }, 'walking');
    const [a, b] = await Promise.all([upload(claims(11, 1), bytes, 'a.gpx'), upload(claims(12, 1), bytes, 'b.gpx')]);
    const answers = await Promise.all([confirm(claims(11, 1), { token: a.json().token }), confirm(claims(12, 1), { token: b.json().token })]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
  });

  test('refuses bad files with catalogue codes, never a 500, and stores nothing', async () => {
    const mari = claims(11, 1);
    const fit = fitFile(morning);
    const flipped = fit.slice();
    flipped[60] = flipped[60]! ^ 0x5a;
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const cases: [Uint8Array, string, number, string, string?][] = [
      [flipped, 'broken.fit', 400, 'ACTIVITY_FILE_UNREADABLE'],
      [fit.subarray(0, 100), 'cut.fit', 400, 'ACTIVITY_FILE_UNREADABLE'],
      [png, 'photo.png', 415, 'ACTIVITY_FILE_NOT_SUPPORTED'],
      [new Uint8Array(0), 'empty.gpx', 400, 'ACTIVITY_FILE_EMPTY'],
      [gpxFile(morning), 'run.gpx', 415, 'ACTIVITY_FILE_NOT_SUPPORTED', 'text/plain'],
      [new Uint8Array(20 * 1024 * 1024 + 1), 'huge.fit', 413, 'ACTIVITY_FILE_TOO_LARGE'],
    ];
    for (const [bytes, name, status, message, contentType] of cases) {
      const answer = await upload(mari, bytes, name, contentType ? { contentType } : {});
      expect({ name, status: answer.statusCode, body: answer.json() }).toEqual({ name, status, body: { message } });
    }
  });

  test('only a member of the team: a stranger, an admin and a forged or borrowed token are refused', async () => {
    const bytes = gpxFile({ ...morning, points: 3 });
    expect((await upload(claims(21, 2), bytes, 'x.gpx', { team: 1 })).json()).toEqual({ message: 'FORBIDDEN' });
    expect((await upload(adminClaims(), bytes, 'x.gpx', { team: 1 })).statusCode).toBe(403);
    const unauthenticated = await api.inject({ method: 'POST', url: '/api/team/1/activity-files', headers: { 'content-type': 'application/octet-stream' }, payload: Buffer.from(bytes) });
    expect(unauthenticated.statusCode).toBe(401);
    const proposal = (await upload(claims(11, 1), bytes, 'x.gpx')).json();
    const [payload, mac] = proposal.token.split('.');
    const bound = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const altered = Buffer.from(JSON.stringify({ ...bound, parts: [{ ...bound.parts[0], distance: 999 }] })).toString('base64url');
    expect((await confirm(claims(11, 1), { token: `${altered}.${mac}` })).json()).toEqual({ message: 'INVALID_REQUEST' });
    expect((await confirm(claims(12, 1), { token: proposal.token })).json()).toEqual({ message: 'FORBIDDEN' });
  });

  test('a version 1 EntryAdded in the log reads and projects as a manual version 2 entry', async () => {
    const before = await (async () => { await app.project(); return (await app.totals()).distance; })();
    await app.store.appendToStream(streams.entry(900), [{
      id: '0b7a3c1e-1111-4a2b-8c3d-000000000900', type: 'EntryAdded', schemaVersion: 1,
      data: { entryId: 900, teamId: 2, participantId: 21, distance: 7.5, entryType: 'WALK', performedAt: '2025-04-03', createdAt: '2025-04-03T10:00:00.000Z' },
      metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: 'v1', causationId: null },
    }], { expectedRevision: 'no_stream' });
    const [read] = await app.store.readStream(streams.entry(900));
    expect(read).toMatchObject({ schemaVersion: 2, data: { source: { kind: 'manual' } } });
    await app.project();
    expect((await app.totals()).distance).toBeGreaterThan(before);
  });
  test('a large GPX is read off the event loop: the API answers meanwhile', async () => {
    const bytes = largeGpx();
    // The longest the event loop went without running a 10 ms timer while the file was read.
    let last = performance.now();
    let longestStall = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestStall = Math.max(longestStall, now - last);
      last = now;
    }, 10);
    const healthChecks: number[] = [];
    let uploaded = false;
    const uploading = upload(claims(12, 1), bytes, 'pikk matk.gpx').finally(() => { uploaded = true; });
    while (!uploaded) {
      const started = performance.now();
      expect((await api.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
      healthChecks.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    clearInterval(ticker);
    const answer = await uploading;
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ format: 'gpx', performed_at: '2025-04-12' });
    expect(healthChecks.length).toBeGreaterThan(5);
    // Inline, reading this file stalled the loop for about 2 s; a busy 2-core CI machine may delay a timer a little.
    expect(longestStall).toBeLessThan(1000);
  }, 60_000);
  test('a GPX declared ISO-8859-1 is read in its own encoding', async () => {
    const text = new TextDecoder().decode(gpxFile(morning, 'running'))
      .replace('encoding="UTF-8"', 'encoding="ISO-8859-1"')
      .replace('<name>Test</name>', '<name>Hommikune jooks Pärnus, õhtul tõusuvesi</name>');
    const bytes = Buffer.from(text, 'latin1');
    expect(bytes.includes(0xe4)).toBe(true);
    const answer = await upload(claims(12, 1), bytes, 'pärnu.gpx');
    expect({ status: answer.statusCode, body: answer.json() }).toMatchObject({ status: 200, body: { format: 'gpx', distance: 2, performed_at: '2025-04-12', entry_type: 'OUTDOOR_RUN' } });
  });

  test('a 19 MB GPX, under the upload limit, is read with the reader\'s default heap (its time: the bench)', async () => {
    const bytes = garminGpxOf(19_000_000);
    const answer = await upload(claims(12, 1), bytes, 'pikk jooks.gpx');
    expect({ status: answer.statusCode, message: answer.json().message }).toEqual({ status: 200, message: undefined });
    const proposal = answer.json();
    expect(proposal.parts).toHaveLength(1);
    expect(proposal).toMatchObject({ performed_at: '2025-04-12', entry_type: 'OUTDOOR_RUN' });
    // 57 000 points a second apart round a 2.5 km loop: about 160 km.
    expect(proposal.distance).toBeGreaterThan(150);
  }, 120_000);

  test('a file whose decoding outgrows the reading worker\'s heap is ACTIVITY_FILE_TOO_LARGE, and the API lives on', async () => {
    const small = buildCommandApi({ commands: app.commands, sessions: sessions.accounts, jwtSecret: SECRET, activityFileHeapMb: 32 });
    await small.ready();
    try {
      const mari = claims(11, 1);
      const response = await small.inject({
        method: 'POST', url: '/api/team/1/activity-files', payload: Buffer.from(largeFit()),
        headers: { authorization: await sessions.bearer(small, mari), 'content-type': 'application/octet-stream', 'x-file-name': 'suur.fit' },
      });
      expect({ status: response.statusCode, body: response.json() }).toEqual({ status: 413, body: { message: 'ACTIVITY_FILE_TOO_LARGE' } });
      // A small file right after it is read as ever.
      const after = await small.inject({
        method: 'POST', url: '/api/team/1/activity-files', payload: Buffer.from(gpxFile(morning, 'running')),
        headers: { authorization: await sessions.bearer(small, mari), 'content-type': 'application/octet-stream', 'x-file-name': 'väike.gpx' },
      });
      expect(after.statusCode).toBe(200);
    } finally {
      await small.close();
    }
  }, 60_000);
});
