/**
 * PostgreSQL round trips per `POST /api/entry` (at most 2), counted at the driver: every query any
 * pg client of this process sends while one request is answered. The command API is built by the
 * factory services/command-api/src/server.ts builds it with (commandSide: ids in blocks, the
 * switches' cache, moderation's look-ups and warm team-day figures, the deletions' stream index,
 * the session check kept in memory with its LISTEN on session changes), over the store as
 * server.ts wraps it (personal-data protection, the after-commit hook, append metrics), on real
 * PostgreSQL; no projector runs, so nothing else talks to the database meanwhile.
 *
 * Expected, once the process is warm (an id block, the actor's team, the switches, the session,
 * the day's team figures and prepared statements held — what the first request fills):
 * 1. the command's one read: its repeat check, the participant's and the new entry's streams, the
 *    participant's other entries (moderation) and the switches' tail;
 * 2. the append.
 * The session check and TEAM_DAY_OUTLIER's figures cost none: a third query fails the test.
 */
import type {} from '@fastify/jwt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { SessionClaims } from '@sinilill/contracts';
import type { ActingUser } from '@sinilill/domain';
import { buildCommandApi, commandSide, sessionChangeListener, withAppendMetrics, type CommandSide } from '@sinilill/command-api';
import { withAfterCommit } from '@sinilill/commands';
import type { ReconnectingListener } from '@sinilill/event-store';
import { createMetricsRegistry } from '@sinilill/http';
import { testApplication, type TestApplication } from '../support/app';
import { NO_MAIL, testSessions, type TestSessions } from '../support/sessions';

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

describe('round trips per POST /api/entry, as production wires it', () => {
  let app: TestApplication;
  let api: FastifyInstance;
  let side: CommandSide;
  let listener: ReconnectingListener;
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
    await app.project();
    sessions = testSessions(app);
    await sessions.enrol(claims);
    side = commandSide({
      pool: app.pool,
      store: withAppendMetrics(withAfterCommit(app.store, () => undefined), createMetricsRegistry('round-trips', { defaultMetrics: false })),
      directory: sessions.directory, now: NOW, mailer: NO_MAIL, publicUrl: 'http://sinilill.test',
    });
    listener = sessionChangeListener(app.url, side.sessions);
    await listener.start();
    api = buildCommandApi({ commands: side.commands, accounts: side.accounts, sessions: side.sessions, jwtSecret: SECRET });
    await api.ready();
    authorization = sessions.bearer(api, claims);
    // The first request fills what a running process keeps: an id block, the actor's team, the
    // switches, the session, the day's team figures, prepared statements.
    expect((await add('warm-up-entry-0001', 1.5)).statusCode).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await listener?.close();
    await app?.close();
  });

  test('a new entry with an Idempotency-Key costs at most 2 round trips, and it is stored', async () => {
    const kept = side.sessions.counts.kept;
    const { result, queries } = await countQueries(() => add('counted-entry-0001', 4.25));
    expect(result.statusCode).toBe(200);
    const body = result.json() as { entry: { id: number; distance: number }; position: number };
    expect(body.entry.distance).toBe(4.25);
    console.log(`round trips per POST /api/entry: ${queries.length} (${queries.join(', ')})`);
    expect(queries.length, queries.join(' | ')).toBeLessThanOrEqual(2);
    const stored = await app.store.readStream(`entry-${body.entry.id}`);
    expect(stored.map((e) => e.type)).toEqual(['EntryAdded']);
    // What was spared was really used: the session from memory, the team's day from the held figures.
    expect(side.sessions.counts.kept).toBe(kept + 1);
    expect(side.teamDays.teamDay(1, '2025-04-20')).toMatchObject({ members: 1 });
  });

  test('moderation still sees the entry sent just before: a duplicate is flagged, within the same 2 round trips', async () => {
    const first = await add('duplicate-entry-0001', 7.77);
    const { result, queries } = await countQueries(() => add('duplicate-entry-0002', 7.77));
    expect(queries.length, queries.join(' | ')).toBeLessThanOrEqual(2);
    const second = result.json() as { entry: { id: number } };
    const events = await app.store.readStream(`entry-${second.entry.id}`);
    expect(events.map((e) => e.type)).toEqual(['EntryAdded', 'EntryFlagged']);
    expect(events[1]?.data).toMatchObject({ reasons: [{ rule: 'DUPLICATE', duplicateOf: (first.json() as { entry: { id: number } }).entry.id }] });
  });

  test('the same request again answers the first answer and appends nothing', async () => {
    const first = await add('repeated-entry-0001', 2);
    const head = await app.store.headPosition();
    const again = await add('repeated-entry-0001', 2);
    expect(again.json()).toEqual(first.json());
    expect(await app.store.headPosition()).toBe(head);
  });
});
