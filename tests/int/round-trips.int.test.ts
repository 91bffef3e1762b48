/**
 * PostgreSQL round trips per `POST /api/entry` (at most 3), counted at the
 * driver: every query any pg client of this process sends while one request is answered. The
 * command API is wired as services/command-api/src/server.ts wires it (ids in blocks, the
 * switches' cache, the store's after-commit hook), on real PostgreSQL; no projector runs, so
 * nothing else talks to the database meanwhile.
 *
 * Expected: the session check of authentication (1), the command's one read — its repeat check,
 * the participant's and the new entry's streams and the switches' tail — (1), and the append (1).
 */
import type {} from '@fastify/jwt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { SessionClaims } from '@sinilill/contracts';
import type { ActingUser } from '@sinilill/domain';
import { buildCommandApi } from '@sinilill/command-api';
import { CommandService, PostgresIdAllocator, SettingsCache, withAfterCommit } from '@sinilill/commands';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const NOW = () => new Date('2025-04-20T10:00:00Z');
const USER_ID = '00000000-0000-4000-8000-000000000011';

/** Counts every query sent by any pg client of this process while `work` runs. */
async function countQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: string[] }> {
  const queries: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text?: string; name?: string };
    queries.push(typeof config === 'string' ? config : config.name ?? config.text ?? '?');
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    return { result: await work(), queries };
  } finally {
    pg.Client.prototype.query = original;
  }
}

describe('round trips per POST /api/entry', () => {
  let app: TestApplication;
  let api: FastifyInstance;
  let sessions: TestSessions;
  let authorization: string;
  const claims: SessionClaims = {
    userId: USER_ID, fullName: 'Mari Maasikas', is_approved: true, participantId: 11, teamId: 1, role: 'USER', isPaid: true,
  };
  const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });
  const add = (key: string, distance: number) => api.inject({
    method: 'POST', url: '/api/entry', headers: { authorization, 'idempotency-key': key },
    payload: { distance, entry_type: 'WALK', performed_at: '2025-04-20' },
  });

  beforeAll(async () => {
    app = await testApplication({ now: NOW });
    await app.commands.registerTeam({ teamId: 1, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, system('t1'));
    await app.commands.registerParticipant({ participantId: 11, teamId: 1, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE', isCaptain: true, newsletter: false }, system('p11'));
    sessions = testSessions(app);
    await sessions.enrol(claims);
    const commands = new CommandService({
      store: withAfterCommit(app.store, () => undefined),
      ids: new PostgresIdAllocator(app.pool, { block: 32 }),
      settings: new SettingsCache(),
      now: NOW,
    });
    api = buildCommandApi({ commands, sessions: sessions.accounts, jwtSecret: SECRET });
    await api.ready();
    authorization = sessions.bearer(api, claims);
    // The first request fills what a running process keeps: an id block, the actor's team, the
    // switches, prepared statements.
    expect((await add('warm-up-entry-0001', 1.5)).statusCode).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await app?.close();
  });

  test('a new entry with an Idempotency-Key costs at most 3 round trips, and it is stored', async () => {
    const { result, queries } = await countQueries(() => add('counted-entry-0001', 4.25));
    expect(result.statusCode).toBe(200);
    const body = result.json() as { entry: { id: number; distance: number }; position: number };
    expect(body.entry.distance).toBe(4.25);
    console.log(`round trips per POST /api/entry: ${queries.length} (${queries.join(', ')})`);
    expect(queries.length, queries.join(' | ')).toBeLessThanOrEqual(3);
    const stored = await app.store.readStream(`entry-${body.entry.id}`);
    expect(stored.map((e) => e.type)).toEqual(['EntryAdded']);
  });

  test('the same request again answers the first answer and appends nothing', async () => {
    const first = await add('repeated-entry-0001', 2);
    const head = await app.store.headPosition();
    const again = await add('repeated-entry-0001', 2);
    expect(again.json()).toEqual(first.json());
    expect(await app.store.headPosition()).toBe(head);
  });
});
