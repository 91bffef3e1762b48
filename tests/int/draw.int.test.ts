/**
 * The prize draw anyone can check, end to end on real PostgreSQL: commit and
 * reveal through the command API (administrators only, every refusal code), eligibility as of
 * 3 May 24:00 Tallinn (rejected entries counting nowhere), the public answer GET /api/draw, and scripts/verify-draw.mjs recomputing
 * the winners from that answer (and failing with another seed).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { drawWinners, type CommandRequest } from '@sinilill/commands';
import type { DrawAnswer, SessionClaims } from '@sinilill/contracts';
import { PERSONAL_DATA_FIELDS, type ActingUser } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { buildCommandApi } from '@sinilill/command-api';
import { buildQueryApi } from '@sinilill/query-api';
import { repoRoot } from '@sinilill/config';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const SEED = 'f3a9c2d14b5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const run = promisify(execFile);

let serial = 0;
const as = (actor: ActingUser, at: string): CommandRequest => {
  const id = `draw-${++serial}`;
  return { actor, metadata: { commandId: id, correlationId: id, causationId: null }, now: new Date(at) };
};
const claims = (role: 'USER' | 'ADMIN'): SessionClaims => ({
  userId: role === 'ADMIN' ? '00000000-0000-4000-8000-00000000ad01' : '00000000-0000-4000-8000-000000000011',
  fullName: 'Test Person', is_approved: true, participantId: role === 'ADMIN' ? null : 11, teamId: role === 'ADMIN' ? null : 1, role, isPaid: true,
});

/** Runs the verification script on `draw` (written to a file); exit code and output. */
async function verify(draw: unknown): Promise<{ code: number; out: string }> {
  const file = join(await mkdtemp(join(tmpdir(), 'draw-')), 'draw.json');
  await writeFile(file, JSON.stringify(draw));
  try {
    const { stdout } = await run(process.execPath, [join(repoRoot, 'scripts/verify-draw.mjs'), file]);
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

describe('the prize draw', () => {
  let app: TestApplication;
  let clock = new Date('2025-04-15T09:00:00Z');
  let commandApi: FastifyInstance;
  let queryApi: FastifyInstance;
  let sessions: TestSessions;

  const post = (url: string, payload: object, role: 'USER' | 'ADMIN' | null = 'ADMIN') => commandApi.inject({
    method: 'POST', url: `/api${url}`, payload, headers: role === null ? {} : { authorization: sessions.bearer(commandApi, claims(role)) },
  });
  const refused = (response: LightMyRequestResponse, status: number, code: string) =>
    expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({ status, body: { message: code } });
  const publicDraw = async () => {
    const response = await queryApi.inject({ url: '/api/draw' });
    expect(response.statusCode).toBe(200);
    return response.json<DrawAnswer>();
  };

  beforeAll(async () => {
    app = await testApplication({ now: () => clock });
    const history = withPersonalDataProtection(new PostgresEventStore({ pool: app.pool }), new PersonalDataVault({ pool: app.pool }), PERSONAL_DATA_FIELDS);
    const person = { birthYear: 1980, gender: 'FEMALE' as const, newsletter: false };
    const april = '2025-04-12T09:00:00Z';
    // Team 1 walks 12 km (one collected flower); team 2 only 5 km (the base flower only).
    await app.commands.registerTeam({ teamId: 1, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, as(SYSTEM, april));
    await app.commands.registerTeam({ teamId: 2, teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'BBBB2222', icon: null }, as(SYSTEM, april));
    const people: [number, number, string][] = [[11, 1, 'Mari Maasikas'], [12, 1, 'Kati Karu'], [13, 1, 'Peeter Paju'], [14, 1, 'Liis Lepp'], [21, 2, 'Jüri Juurikas']];
    for (const [participantId, teamId, fullName] of people) {
      await app.commands.registerParticipant({ ...person, participantId, teamId, fullName, email: `p${participantId}@example.ee`, isCaptain: false }, as(SYSTEM, april));
    }
    for (const id of [11, 12, 13, 21]) await app.commands.markPayment(id, true, as(SYSTEM, april));
    await app.commands.addEntry({ participantId: 11, distance: 12, entryType: 'WALK', performedAt: '2025-04-10' }, as(SYSTEM, april));
    await app.commands.addEntry({ participantId: 21, distance: 5, entryType: 'WALK', performedAt: '2025-04-10' }, as(SYSTEM, april));
    // Team 3 walks 5 km that count and 60.01 km that moderation flags (WALK: 60 km per entry) and an
    // administrator rejects: its only km past the first mission (7 km) were rejected.
    await app.commands.registerTeam({ teamId: 3, teamName: 'Võru Vibud', description: '', joinCode: 'CCCC3333', icon: null }, as(SYSTEM, april));
    await app.commands.registerParticipant({ ...person, participantId: 31, teamId: 3, fullName: 'Tiit Tamm', email: 'p31@example.ee', isCaptain: true }, as(SYSTEM, april));
    await app.commands.markPayment(31, true, as(SYSTEM, april));
    const tiit: ActingUser = { userId: '00000000-0000-4000-8000-000000000031', role: 'USER', participantId: 31, teamId: 3 };
    await app.commands.addEntry({ participantId: 31, distance: 5, entryType: 'WALK', performedAt: '2025-04-10' }, as(tiit, april));
    const flagged = await app.commands.addEntry({ participantId: 31, distance: 60.01, entryType: 'WALK', performedAt: '2025-04-11' }, as(tiit, april));
    const ADMIN: ActingUser = { userId: claims('ADMIN').userId, role: 'ADMIN', participantId: null, teamId: null };
    await app.commands.reviewEntries({ entryIds: [flagged.entry.id], decision: 'reject', note: '' }, as(ADMIN, april));
    // After the deadline (4 May in Tallinn): Liis pays and team 2 walks on — neither counts.
    const late = '2025-05-03T21:30:00Z';
    await app.commands.addEntry({ participantId: 21, distance: 50, entryType: 'WALK', performedAt: '2025-04-30' }, as(SYSTEM, late));
    await app.commands.markPayment(14, true, as(SYSTEM, late));
    sessions = testSessions(app, { now: () => clock });
    await sessions.enrol(claims('ADMIN'), claims('USER'));
    commandApi = buildCommandApi({ commands: app.commands, sessions: sessions.accounts, jwtSecret: SECRET });
    queryApi = buildQueryApi({ db: app.db, now: () => clock, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes: { subscribe: () => () => undefined }, history });
    await Promise.all([commandApi.ready(), queryApi.ready()]);
    await app.project();
  }, 120_000);

  afterAll(async () => {
    await commandApi?.close();
    await queryApi?.close();
    await app?.close();
  });

  test('only administrators commit and reveal; bad bodies are INVALID_REQUEST', async () => {
    const commit = { commitment: sha256(SEED), drawAt: '2025-05-05T17:00:00+03:00', winners: 2 };
    refused(await post('/admin/draw/commit', commit, null), 401, 'UNAUTHORIZED');
    refused(await post('/admin/draw/commit', commit, 'USER'), 403, 'FORBIDDEN');
    refused(await post('/admin/draw/reveal', { seed: SEED }, 'USER'), 403, 'FORBIDDEN');
    refused(await post('/admin/draw/commit', { ...commit, commitment: 'abc' }), 400, 'INVALID_REQUEST');
    refused(await post('/admin/draw/commit', { ...commit, drawAt: 'tomorrow' }), 400, 'INVALID_REQUEST');
    refused(await post('/admin/draw/commit', { ...commit, winners: 0 }), 400, 'INVALID_REQUEST');
    expect((await publicDraw()).status).toBe('none');
  });

  test('commit, refusals, reveal; the public answer recomputes with the script, another seed does not', async () => {
    refused(await post('/admin/draw/reveal', { seed: SEED }), 409, 'DRAW_NOT_COMMITTED');
    const commit = { commitment: sha256(SEED), drawAt: '2025-05-05T17:00:00+03:00', winners: 2 };
    refused(await post('/admin/draw/commit', { ...commit, drawAt: '2025-05-03T23:59:00+03:00' }), 409, 'DRAW_NOT_YET_ALLOWED');
    clock = new Date('2025-05-01T10:00:00Z');
    expect((await post('/admin/draw/commit', commit)).statusCode).toBe(200);
    refused(await post('/admin/draw/commit', commit), 409, 'DRAW_ALREADY_COMMITTED');
    expect(await publicDraw()).toMatchObject({ status: 'committed', commitment: sha256(SEED), drawAt: '2025-05-05T14:00:00.000Z', winnersCount: 2, seed: null, winners: [] });

    refused(await post('/admin/draw/reveal', { seed: SEED }), 409, 'DRAW_NOT_YET_ALLOWED');
    clock = new Date('2025-05-05T14:00:00Z');
    refused(await post('/admin/draw/reveal', { seed: `${SEED.slice(0, -1)}0` }), 400, 'DRAW_SEED_MISMATCH');
    expect((await post('/admin/draw/reveal', { seed: SEED })).statusCode).toBe(200);
    refused(await post('/admin/draw/reveal', { seed: SEED }), 409, 'DRAW_ALREADY_DONE');
    await app.project();

    const draw = await publicDraw();
    // Eligible as of 3 May 24:00: paid, team with a collected flower — Mari, Kati, Peeter (team 1);
    // not Liis (paid late), not Jüri (team 2 had 5 km by the deadline), not Tiit (team 3's km past
    // the first mission were rejected).
    expect(draw).toMatchObject({ status: 'drawn', seed: SEED, eligible: [11, 12, 13], eligibleCount: 3, eligibleListHash: sha256('11\n12\n13') });
    expect(draw.winners).toHaveLength(2);
    for (const winner of draw.winners) {
      expect([11, 12, 13]).toContain(winner.participantId);
      expect(winner.teamName).toBe('Tartu Tammed');
      expect(['Mari', 'Kati', 'Peeter']).toContain(winner.firstName);
    }
    expect(JSON.stringify(draw)).not.toMatch(/Maasikas|Karu|Paju|@example/);

    const checked = await verify(draw);
    expect(checked.code, checked.out).toBe(0);
    expect(checked.out).toContain('OK: the draw checks out');
    expect(checked.out).toContain(draw.winners.map((w) => w.participantId).join(', '));

    // Another seed (with its own commitment, so only the winners can differ) gives another result.
    // (With 3 ids and 2 winners a seed repeats the result 1 time in 6: take the first that does not.)
    const published = draw.winners.map((w) => w.participantId);
    let n = 0;
    while (drawWinners(`another-seed-${n}`, draw.eligible!, 2).join() === published.join()) n++;
    const other = `another-seed-${n}`;
    const forged = await verify({ ...draw, seed: other, commitment: sha256(other) });
    expect(forged.code).toBe(1);
    expect(forged.out).toMatch(/MISMATCH: published winners/);
    expect(forged.out).toContain(`recomputed winners (participant ids, in draw order): ${drawWinners(other, draw.eligible!, 2).join(', ')}\n`);
    // A changed seed without a new commitment, a dropped id, a swapped winner: all caught.
    expect((await verify({ ...draw, seed: other })).code).toBe(1);
    expect((await verify({ ...draw, eligible: [11, 12], eligibleCount: 2 })).code).toBe(1);
    expect((await verify({ ...draw, winners: [...draw.winners].reverse() })).code).toBe(1);
  });
});
