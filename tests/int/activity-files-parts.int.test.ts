/**
 * An activity file of several parts (a sport each of a multi-sport file, a day each of a file
 * spanning days) through the command API on real PostgreSQL: the confirmation adds an entry per
 * part and the file's ActivityFileUsed naming them all in ONE atomic append, so one part refused
 * (a day outside the edition) refuses the file and appends nothing; the member chooses the day of
 * a part the file gave none (a GPX without time) and the type of a part without a sport; the file
 * stays used while any of its entries lives. The proposals with several parts are signed here
 * with the server's token key (what the upload signs for such a file), so that these rules are
 * tested whatever files the reader splits.
 */
import type {} from '@fastify/jwt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { gpxFile } from '@sinilill/activity-files/testing';
import type { SessionClaims } from '@sinilill/contracts';
import { streams, type ActingUser } from '@sinilill/domain';
import { activityFileTokenKey, buildCommandApi, signActivityFileToken, type ActivityFilePartClaims } from '@sinilill/command-api';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const userOf = (participantId: number) => `00000000-0000-4000-8000-${String(participantId).padStart(12, '0')}`;
const claims = (participantId: number, teamId: number): SessionClaims => ({
  userId: userOf(participantId), fullName: 'Test Person', is_approved: true, participantId, teamId, role: 'USER', isPaid: true,
});

/** An Ironman's three sports on one day (Tallinn), as a multi-sport FIT is proposed. */
const TRIATHLON: ActivityFilePartClaims[] = [
  { distance: 3.86, performedAt: '2025-04-13', entryType: 'SWIMMING' },
  { distance: 180.25, performedAt: '2025-04-13', entryType: 'OUTDOOR_CYCLE' },
  { distance: 42.2, performedAt: '2025-04-13', entryType: 'OUTDOOR_RUN' },
];

describe('activity files of several parts', () => {
  let app: TestApplication;
  let api: FastifyInstance;
  let sessions: TestSessions;
  const key = activityFileTokenKey(SECRET);
  const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });
  let fileNumber = 0;
  /** A token for a file of these parts, as the upload signs it, for a new file (its own hash). */
  const proposal = (who: SessionClaims, parts: ActivityFilePartClaims[]) => {
    const sha256 = (++fileNumber).toString(16).padStart(64, 'a');
    return { sha256, token: signActivityFileToken(key, { teamId: who.teamId!, participantId: who.participantId!, sha256, format: 'fit', parts, expiresAt: Date.now() + 60_000 }) };
  };
  const confirm = async (who: SessionClaims, body: Record<string, unknown>, headers: Record<string, string> = {}) => api.inject({
    method: 'POST', url: `/api/team/${who.teamId}/activity-files/confirm`,
    headers: { authorization: await sessions.bearer(api, who), ...headers }, payload: body,
  });
  const upload = async (who: SessionClaims, bytes: Uint8Array, name: string) => api.inject({
    method: 'POST', url: `/api/team/${who.teamId}/activity-files`,
    headers: { authorization: await sessions.bearer(api, who), 'content-type': 'application/octet-stream', 'x-file-name': encodeURIComponent(name) },
    payload: Buffer.from(bytes),
  });

  beforeAll(async () => {
    app = await testApplication({ now: () => new Date('2025-04-20T10:00:00Z') });
    await app.commands.registerTeam({ teamId: 1, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, system('t1'));
    await app.commands.registerParticipant({ participantId: 11, teamId: 1, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE', isCaptain: true, newsletter: false }, system('p11'));
    await app.commands.registerParticipant({ participantId: 12, teamId: 1, fullName: 'Kati Karu', email: 'kati@example.ee', birthYear: 1982, gender: 'FEMALE', isCaptain: false, newsletter: false }, system('p12'));
    sessions = testSessions(app);
    await sessions.enrol(claims(11, 1), claims(12, 1));
    api = buildCommandApi({ commands: app.commands, sessions: sessions.accounts, jwtSecret: SECRET });
    await api.ready();
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await app?.close();
  });

  test('a multi-sport file becomes one entry per sport and one ActivityFileUsed naming them, in one append', async () => {
    const mari = claims(11, 1);
    const { sha256, token } = proposal(mari, TRIATHLON);
    const answer = await confirm(mari, { token });
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body.entries.map((e: { entry_type: string; distance: number; performed_at: string }) => [e.entry_type, e.distance, e.performed_at])).toEqual([
      ['SWIMMING', 3.86, '2025-04-13'], ['OUTDOOR_CYCLE', 180.25, '2025-04-13'], ['OUTDOOR_RUN', 42.2, '2025-04-13'],
    ]);
    expect(body.entry).toEqual(body.entries[0]);
    const [used] = await app.store.readStream(streams.activityFile(sha256));
    expect(used).toMatchObject({ type: 'ActivityFileUsed', schemaVersion: 2, data: { entryIds: body.entries.map((e: { id: number }) => e.id), participantId: 11 } });
    // One append: every entry's EntryAdded and the file's event share the command's transaction order.
    const added = await Promise.all(body.entries.map(async (e: { id: number }) => (await app.store.readStream(streams.entry(e.id)))[0]!));
    for (const event of added) expect(event).toMatchObject({ type: 'EntryAdded', data: { source: { kind: 'file', format: 'fit', sha256 } } });
    expect(used!.globalPosition).toBe(Math.max(...added.map((event) => event.globalPosition)) + 1);
    expect(body.position).toBe(used!.globalPosition);
  });

  test('one part outside the edition refuses the whole file: nothing appended', async () => {
    const mari = claims(11, 1);
    const { sha256, token } = proposal(mari, [
      { distance: 5, performedAt: '2025-04-14', entryType: 'OUTDOOR_RUN' },
      { distance: 6, performedAt: '2025-03-31', entryType: 'OUTDOOR_RUN' },
    ]);
    const head = await app.store.headPosition();
    const answer = await confirm(mari, { token });
    expect({ status: answer.statusCode, body: answer.json() }).toEqual({ status: 400, body: { message: 'INVALID_PERFORMED_AT' } });
    expect(await app.store.headPosition()).toBe(head);
    expect(await app.store.readStream(streams.activityFile(sha256))).toEqual([]);
  });

  test('a part without time needs its day from the member; a part with one keeps the file\'s', async () => {
    const kati = claims(12, 1);
    const { token } = proposal(kati, [
      { distance: 2.5, performedAt: null, entryType: 'WALK' },
      { distance: 1.25, performedAt: '2025-04-15', entryType: null },
    ]);
    expect((await confirm(kati, { token, parts: [{ index: 1, entry_type: 'WALK' }] })).json()).toEqual({ message: 'INVALID_PERFORMED_AT' });
    expect((await confirm(kati, { token, parts: [{ index: 0, performed_at: '2025-04-16' }] })).json()).toEqual({ message: 'INVALID_ENTRY_TYPE' });
    expect((await confirm(kati, { token, parts: [{ index: 0, performed_at: '2025-04-16' }, { index: 1, entry_type: 'WALK', performed_at: '2025-04-17' }] })).json())
      .toEqual({ message: 'INVALID_REQUEST' });
    expect((await confirm(kati, { token, parts: [{ index: 2, entry_type: 'WALK' }] })).json()).toEqual({ message: 'INVALID_REQUEST' });
    expect((await confirm(kati, { token, parts: [{ index: 0, performed_at: '2025-05-03' }, { index: 1, entry_type: 'WALK' }] })).json())
      .toEqual({ message: 'INVALID_PERFORMED_AT' });
    const key = { 'idempotency-key': '1c0c7b8e-9d3c-4b7e-8f7a-2a4f5e6d7c8b' };
    const chosen = { token, parts: [{ index: 0, performed_at: '2025-04-16' }, { index: 1, entry_type: 'NORDIC_WALKING' }] };
    const answer = await confirm(kati, chosen, key);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().entries.map((e: { entry_type: string; performed_at: string }) => [e.entry_type, e.performed_at]))
      .toEqual([['WALK', '2025-04-16'], ['NORDIC_WALKING', '2025-04-15']]);
    // A repeat under the same key answers the same entries and adds none.
    const head = await app.store.headPosition();
    expect((await confirm(kati, chosen, key)).json()).toEqual(answer.json());
    expect(await app.store.headPosition()).toBe(head);
  });

  test('a file stays used while any of its entries lives; deleting them all frees it', async () => {
    const mari = claims(11, 1);
    const parts = [{ distance: 4, performedAt: '2025-04-18', entryType: 'WALK' }, { distance: 3, performedAt: '2025-04-19', entryType: 'WALK' }];
    const { sha256, token } = proposal(mari, parts);
    const first = (await confirm(mari, { token })).json();
    const again = signActivityFileToken(key, { teamId: 1, participantId: 11, sha256, format: 'fit', parts, expiresAt: Date.now() + 60_000 });
    expect((await confirm(mari, { token: again })).json()).toEqual({ message: 'ACTIVITY_FILE_ALREADY_USED' });
    await app.commands.deleteEntries([first.entries[0].id], system('delete-first-part'));
    expect(await app.commands.activityFileInUse(sha256)).toBe(true);
    expect((await confirm(mari, { token: again })).json()).toEqual({ message: 'ACTIVITY_FILE_ALREADY_USED' });
    await app.commands.deleteEntries([first.entries[1].id], system('delete-second-part'));
    expect(await app.commands.activityFileInUse(sha256)).toBe(false);
    expect((await confirm(mari, { token: again })).statusCode).toBe(200);
  });

  test('an upload answers its parts; after its confirmation the same file is already used and refused', async () => {
    const mari = claims(11, 1);
    const bytes = gpxFile({ start: '2025-04-11T05:00:00.000Z', points: 31 }, 'running');
    const proposed = (await upload(mari, bytes, 'jooks.gpx')).json();
    expect(proposed.parts).toEqual([expect.objectContaining({ index: 0, entry_type: 'OUTDOOR_RUN', distance: proposed.distance, performed_at: '2025-04-11' })]);
    expect(proposed.parts[0].started_at).toBe('2025-04-11T05:00:00.000Z');
    expect((await confirm(mari, { token: proposed.token })).json().entries).toHaveLength(1);
    const second = (await upload(mari, bytes, 'jooks uuesti.gpx')).json();
    expect(second.already_used).toBe(true);
    const refused = await confirm(mari, { token: second.token });
    expect({ status: refused.statusCode, body: refused.json() }).toEqual({ status: 409, body: { message: 'ACTIVITY_FILE_ALREADY_USED' } });
  });

  test('an ActivityFileUsed of schema 1 (one entryId) still holds its file while that entry lives', async () => {
    const mari = claims(11, 1);
    const { entries: [entry] } = await app.commands.addFileEntries({
      participantId: 11, format: 'gpx', sha256: 'c'.repeat(64), parts: [{ distance: 1, entryType: 'WALK', performedAt: '2025-04-12' }],
    }, { actor: { userId: userOf(11), role: 'USER', participantId: 11, teamId: 1 }, metadata: { commandId: 'v2-first', correlationId: 'v2', causationId: null } });
    const sha256 = 'd'.repeat(64);
    await app.store.appendToStream(streams.activityFile(sha256), [{
      id: '0b7a3c1e-1111-4a2b-8c3d-00000000f001', type: 'ActivityFileUsed', schemaVersion: 1,
      data: { sha256, format: 'gpx', entryId: entry!.id, teamId: 1, participantId: 11, usedAt: '2025-04-12T10:00:00.000Z' },
      metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: 'v1', causationId: null },
    }], { expectedRevision: 'no_stream' });
    const [read] = await app.store.readStream(streams.activityFile(sha256));
    expect(read).toMatchObject({ schemaVersion: 2, data: { entryIds: [entry!.id] } });
    expect(await app.commands.activityFileInUse(sha256)).toBe(true);
    const { token } = { token: signActivityFileToken(key, { teamId: 1, participantId: 11, sha256, format: 'gpx', parts: [{ distance: 1, performedAt: '2025-04-12', entryType: 'WALK' }], expiresAt: Date.now() + 60_000 }) };
    expect((await confirm(mari, { token })).json()).toEqual({ message: 'ACTIVITY_FILE_ALREADY_USED' });
  });
});
