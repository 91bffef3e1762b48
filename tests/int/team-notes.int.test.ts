/**
 * An administrator's note about a team on real PostgreSQL: POST /api/admin/team/{id}/note
 * appends TeamNoteRecorded to the team's stream; only administrators may, a blank or too long note
 * and an unknown team are refused, and the team itself does not change.
 */
import type {} from '@fastify/jwt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { SessionClaims } from '@sinilill/contracts';
import { buildCommandApi } from '@sinilill/command-api';
import { TEAM_NOTE_MAX, streams, type ActingUser } from '@sinilill/domain';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const NOW = new Date('2025-04-20T10:00:00Z');
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const ADMIN_ID = '00000000-0000-4000-8000-00000000ad01';
const MEMBER_ID = '00000000-0000-4000-8000-000000000011';

describe('an administrator\'s note about a team', () => {
  let app: TestApplication;
  let commandApi: FastifyInstance;
  let sessions: TestSessions;
  const adminClaims: SessionClaims = { userId: ADMIN_ID, fullName: 'Admin', is_approved: true, participantId: null, teamId: null, role: 'ADMIN', isPaid: true };
  const memberClaims: SessionClaims = { userId: MEMBER_ID, fullName: 'Mari Maasikas', is_approved: true, participantId: 11, teamId: 1, role: 'USER', isPaid: true };
  const note = (teamId: number, text: string, claims: SessionClaims = adminClaims) =>
    commandApi.inject({ method: 'POST', url: `/api/admin/team/${teamId}/note`, headers: { authorization: sessions.bearer(commandApi, claims) }, payload: { note: text } });

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    const system = { actor: SYSTEM, metadata: { commandId: 'team-notes-1', correlationId: 'team-notes-1', causationId: null } };
    await app.commands.registerTeam({ teamId: 1, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, system);
    sessions = testSessions(app);
    await sessions.enrol(adminClaims, memberClaims);
    commandApi = buildCommandApi({ commands: app.commands, sessions: sessions.accounts, jwtSecret: SECRET });
    await commandApi.ready();
  }, 120_000);

  afterAll(async () => {
    await commandApi?.close();
    await app?.close();
  });

  test('records TeamNoteRecorded in the team\'s stream, the note trimmed, at its position', async () => {
    const response = await note(1, '  Kapten helistas, kõik korras. ');
    expect(response.statusCode, response.body).toBe(200);
    const events = await app.store.readStream(streams.team(1));
    expect(events.map((e) => e.type)).toEqual(['TeamRegistered', 'TeamNoteRecorded']);
    expect(events[1]!.data).toEqual({ teamId: 1, note: 'Kapten helistas, kõik korras.', notedAt: NOW.toISOString() });
    expect(response.json()).toEqual({ success: true, position: events[1]!.globalPosition });
  });

  test('a member of the team is refused (403 FORBIDDEN) and nothing is appended', async () => {
    const before = (await app.store.readStream(streams.team(1))).length;
    const response = await note(1, 'Märkus', memberClaims);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'FORBIDDEN' });
    expect((await app.store.readStream(streams.team(1))).length).toBe(before);
  });

  test('a blank note, a note over the limit and an unknown team are refused with their codes', async () => {
    expect((await note(1, '   ')).json()).toEqual({ message: 'INVALID_REQUEST' });
    expect((await note(1, 'x'.repeat(TEAM_NOTE_MAX + 1))).json()).toEqual({ message: 'VALUE_TOO_LONG' });
    const unknown = await note(99, 'Märkus');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'NOT_FOUND' });
  });
});
