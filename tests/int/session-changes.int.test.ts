/**
 * Sessions kept in memory end at once in every process (@sinilill/http SessionCache, accounts
 * migration 0007's triggers, docs/decisions/0100). Two command APIs on one database, A and B, each
 * built by commandSide with its own LISTEN on session changes, as two processes of server.ts would
 * be: B keeps a live session and answers from memory; a logout, a raised session version (password
 * change) and a deleted account made through A are refused by B on its very next request; while
 * B's LISTEN is down B asks PostgreSQL on every request, and a lost connection drops what B kept.
 */
import type {} from '@fastify/jwt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildCommandApi, commandSide, sessionChangeListener, type CommandSide } from '@sinilill/command-api';
import type { AccountDirectory } from '@sinilill/commands';
import { REFRESH_COOKIE, type SessionClaims } from '@sinilill/contracts';
import type { ActingUser } from '@sinilill/domain';
import type { ReconnectingListener } from '@sinilill/event-store';
import { testApplication, type TestApplication } from '../support/app';
import { NO_MAIL, testSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const MARI = '00000000-0000-4000-8000-000000000021';
const JAAN = '00000000-0000-4000-8000-000000000022';

interface Process {
  side: CommandSide;
  /** Its account tables (a password change or a deletion there is one made by this process). */
  directory: AccountDirectory;
  api: FastifyInstance;
  listener: ReconnectingListener;
  /** http://127.0.0.1:port: requests go over real sockets, as they reach a running process. */
  url: string;
}

describe('sessions kept in memory end at once in every process', () => {
  let app: TestApplication;
  let a: Process;
  let b: Process;

  async function process(): Promise<Process> {
    const directory = testSessions(app).directory;
    const side = commandSide({ pool: app.pool, store: app.store, directory, now: () => new Date(), mailer: NO_MAIL, publicUrl: 'http://sinilill.test' });
    const listener = sessionChangeListener(app.url, side.sessions);
    await listener.start();
    const api = buildCommandApi({ commands: side.commands, accounts: side.accounts, sessions: side.sessions, jwtSecret: SECRET });
    const url = await api.listen({ host: '127.0.0.1', port: 0 });
    return { side, directory, api, listener, url };
  }

  /** A new session of `userId` started by A: its bearer header and refresh token. */
  async function login(userId: string): Promise<{ authorization: string; refreshToken: string }> {
    const session = await a.side.accounts.renewSession(userId);
    return { authorization: `Bearer ${a.api.jwt.sign(session.claims)}`, refreshToken: session.refreshToken };
  }

  const check = async (on: Process, authorization: string) => (await fetch(`${on.url}/api/me/strava`, { headers: { authorization } })).status;

  /** B answers 200 and keeps the session: the next check is answered from memory. */
  async function keptByB(authorization: string): Promise<void> {
    expect(await check(b, authorization)).toBe(200);
    const kept = b.side.sessions.counts.kept;
    expect(await check(b, authorization)).toBe(200);
    expect(b.side.sessions.counts.kept).toBe(kept + 1);
  }

  beforeAll(async () => {
    app = await testApplication();
    const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });
    await app.commands.registerTeam({ teamId: 1, teamName: 'Pärnu Pajud', description: '', joinCode: 'BBBB2222', icon: null }, system('t1'));
    const people: SessionClaims[] = [
      { userId: MARI, fullName: 'Mari Mets', is_approved: true, participantId: 21, teamId: 1, role: 'USER', isPaid: true },
      { userId: JAAN, fullName: 'Jaan Jõgi', is_approved: true, participantId: 22, teamId: 1, role: 'USER', isPaid: true },
    ];
    for (const person of people) {
      await app.commands.registerParticipant({
        participantId: person.participantId!, teamId: 1, fullName: person.fullName, email: `${person.participantId}@example.ee`, birthYear: 1980, gender: 'FEMALE', isCaptain: false, newsletter: false,
      }, system(`p${person.participantId}`));
    }
    await testSessions(app).enrol(...people);
    [a, b] = [await process(), await process()];
  }, 120_000);

  afterAll(async () => {
    for (const p of [a, b]) {
      await p?.api.close();
      await p?.listener.close();
    }
    await app?.close();
  });

  test('a logout through A is refused by B on its next request, every time', async () => {
    for (let round = 0; round < 25; round += 1) {
      const { authorization, refreshToken } = await login(MARI);
      await keptByB(authorization);
      const logout = await fetch(`${a.url}/api/session/logout`, { method: 'POST', headers: { cookie: `${REFRESH_COOKIE}=${refreshToken}` } });
      expect(logout.status).toBe(200);
      expect(await check(b, authorization)).toBe(401);
      expect(await check(a, authorization)).toBe(401);
    }
  });

  test('a raised session version (a password change, a withdrawn approval) is refused by B at once', async () => {
    const { authorization } = await login(MARI);
    await keptByB(authorization);
    await a.directory.transaction((tx) => tx.raiseSessionVersion(MARI, new Date()));
    expect(await check(b, authorization)).toBe(401);
  });

  test('while B\'s LISTEN is down B asks PostgreSQL on every request; a new LISTEN keeps again', async () => {
    const { authorization, refreshToken } = await login(MARI);
    await keptByB(authorization);
    await b.listener.close();
    expect(b.side.sessions.listening).toBe(false);
    const asked = b.side.sessions.counts.asked;
    expect(await check(b, authorization)).toBe(200);
    expect(await check(b, authorization)).toBe(200);
    expect(b.side.sessions.counts.asked).toBe(asked + 2);
    await a.side.accounts.endSession(refreshToken);
    expect(await check(b, authorization)).toBe(401);
    b.listener = sessionChangeListener(app.url, b.side.sessions);
    await b.listener.start();
    const second = await login(MARI);
    await keptByB(second.authorization);
  });

  test('a lost LISTEN connection drops what B kept: a change made meanwhile is not missed', async () => {
    const { authorization, refreshToken } = await login(MARI);
    await keptByB(authorization);
    await app.pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'sinilill-session-listener' AND datname = current_database()`);
    // No time limit: the test waits until B has noticed, whatever the machine's load.
    while (b.side.sessions.listening) await new Promise((resolve) => setTimeout(resolve, 10));
    await a.side.accounts.endSession(refreshToken);
    expect(await check(b, authorization)).toBe(401);
  });

  test('a deleted account is refused by B at once', async () => {
    const { authorization } = await login(JAAN);
    // B may be reconnecting after the test before: wait until it keeps again.
    while (!b.side.sessions.listening) await new Promise((resolve) => setTimeout(resolve, 10));
    await keptByB(authorization);
    await a.directory.transaction((tx) => tx.eraseAccount(JAAN, new Date()));
    expect(await check(b, authorization)).toBe(401);
  });
});
