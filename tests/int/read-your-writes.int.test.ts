/**
 * Read-your-writes without polling (docs/decisions/0006) on real PostgreSQL: a query with
 * `x-min-position` waits for the projections its route reads only, and is woken by the
 * checkpoint notification the query API's one LISTEN hears (live.ts), not by polling the
 * checkpoints; it answers within the bound with `x-read-your-writes: timeout` when they do not
 * come; a notification lost while the listener reconnects does not leave it hanging.
 *
 * The query API's database handle logs every statement, so the test counts the checkpoint reads
 * a wait costs. Projections run by hand (catchUp), one at a time: a projection not run is held
 * back. The safety net's re-read is set to 10 s here, so an answer within the 3 s bound can only
 * have come from a notification (or the reconnection's re-read).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { CommandRequest } from '@sinilill/commands';
import type { StatsAnswer } from '@sinilill/contracts';
import type { ActingUser } from '@sinilill/domain';
import { buildQueryApi, ReadModelChangeListener } from '@sinilill/query-api';
import {
  adminDirectoryProjection,
  catchUp,
  projections,
  settingsProjection,
  teamStatsProjection,
  paymentsProjection,
  type Projection,
  type ReadModelDatabase,
} from '@sinilill/read-models';
import { testApplication, type TestApplication } from '../support/app';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const NOW = new Date('2025-04-20T10:00:00Z');
const TIMEOUT_MS = 3000;
const TEAM = 1;

let commandCount = 0;
const system = (): CommandRequest => {
  const id = `ryw-${++commandCount}`;
  return { actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } };
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('read-your-writes woken by notifications', () => {
  let app: TestApplication;
  let changes: ReadModelChangeListener;
  let queryApi: FastifyInstance;
  let logged: Kysely<ReadModelDatabase>;
  /** The SQL of every statement the query API ran, in order. */
  const statements: string[] = [];
  const checkpointReads = () => statements.filter((s) => /from "rm"\."checkpoints"/i.test(s)).length;

  const run = async (...which: Projection[]) => {
    for (const projection of which) await catchUp(app.db, app.store, projection);
  };
  const addEntry = async (distance: number) =>
    (await app.commands.addEntry({ participantId: 11, distance, entryType: 'WALK', performedAt: '2025-04-20' }, system())).position;
  const get = (url: string, position: number | string) =>
    queryApi.inject({ url, headers: { 'x-min-position': String(position) } });

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    await app.commands.registerTeam({ teamId: TEAM, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, system());
    await app.commands.registerParticipant({
      participantId: 11, teamId: TEAM, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE',
      newsletter: false, isCaptain: true,
    }, system());
    await app.project();
    changes = new ReadModelChangeListener({ connectionString: app.url, reconnect: { minMs: 50, maxMs: 200 } });
    await changes.start();
    logged = new Kysely<ReadModelDatabase>({
      dialect: new PostgresDialect({ pool: app.pool }),
      log: (event) => { statements.push(event.query.sql); },
    });
    queryApi = buildQueryApi({
      db: logged, now: () => NOW, readYourWritesTimeoutMs: TIMEOUT_MS, readYourWritesRecheckMs: 10_000, jwtSecret: SECRET, changes,
    });
    await queryApi.ready();
  }, 120_000);

  afterAll(async () => {
    await queryApi?.close();
    await changes?.close();
    await app?.close();
  });

  test('a waiting query answers right after the projection commits, with one checkpoint read in all', async () => {
    await run(...projections);
    const position = await addEntry(1.25);
    const before = checkpointReads();
    const answering = get('/api/stats', position);
    // Waiting: nothing projected the entry yet; a poller would read the checkpoints ~66 times a second.
    await pause(600);
    const whileWaiting = checkpointReads() - before;
    await run(teamStatsProjection, paymentsProjection);
    const committed = performance.now();
    const response = await answering;
    const latency = performance.now() - committed;

    expect(response.statusCode).toBe(200);
    expect(response.headers['x-read-your-writes']).toBeUndefined();
    expect(Number(response.headers['x-projected-position'])).toBeGreaterThanOrEqual(position);
    expect(response.json<StatsAnswer>().totalDistance).toBe(1);
    // One read after subscribing (a notification may have come before), none while waiting.
    expect(whileWaiting).toBe(1);
    expect(checkpointReads() - before).toBe(1);
    // Woken by the NOTIFY: well inside the safety net's 10 s (a few ms on an idle machine).
    expect(latency).toBeLessThan(1000);
  });

  test('a position already heard of answers at once, without reading the checkpoints', async () => {
    const position = await addEntry(0.5);
    await run(teamStatsProjection, paymentsProjection);
    const heard = performance.now();
    while (Math.min(changes.position(teamStatsProjection.name), changes.position(paymentsProjection.name)) < position && performance.now() - heard < 2000) await pause(5);
    const before = checkpointReads();
    const response = await get('/api/stats', position);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-read-your-writes']).toBeUndefined();
    expect(checkpointReads() - before).toBe(0);
  });

  test('a route waits for the projections it reads only: stats answers while admin-directory is held back', async () => {
    const position = await addEntry(2);
    // team-stats, payments (GET /stats reads both) and team-directory move; admin-directory and settings are not run.
    await run(teamStatsProjection, paymentsProjection, projections.find((p) => p.name === 'team-directory')!);
    const started = performance.now();
    const stats = await get('/api/stats', position);
    expect(stats.statusCode).toBe(200);
    expect(stats.headers['x-read-your-writes']).toBeUndefined();
    expect(Number(stats.headers['x-projected-position'])).toBeGreaterThanOrEqual(position);
    expect(performance.now() - started).toBeLessThan(1000);

    // GET /api/health reads every projection: it waits the whole bound and says so.
    const health = await get('/api/health', position);
    expect(health.statusCode).toBe(200);
    expect(health.headers['x-read-your-writes']).toBe('timeout');
    expect(Number(health.headers['x-projected-position'])).toBeLessThan(position);
    await run(adminDirectoryProjection, settingsProjection, ...projections);
  });

  test('a route that reads nothing projected never waits (the news)', async () => {
    const started = performance.now();
    const response = await queryApi.inject({
      method: 'POST', url: '/api/strapi/story', payload: { locale: 'et' }, headers: { 'x-min-position': '999999999' },
    });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(response.headers['x-read-your-writes']).toBeUndefined();
    expect(response.headers['x-projected-position']).toBe('999999999');
  });

  test('a position that never comes answers after the bound with what there is, saying timeout', async () => {
    const head = await app.store.headPosition();
    const before = checkpointReads();
    const started = performance.now();
    const response = await get('/api/stats', head + 1000);
    const waited = performance.now() - started;
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-read-your-writes']).toBe('timeout');
    expect(Number(response.headers['x-projected-position'])).toBe(head);
    expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(waited).toBeLessThan(TIMEOUT_MS + 1000);
    // The first read, and at most one more (a notification of another test's leftover batch or a
    // listener's reconnect re-reads once; the safety net's 10 s never came). Polling every 15 ms
    // would have read about 200 times.
    expect(checkpointReads() - before).toBeGreaterThanOrEqual(1);
    expect(checkpointReads() - before).toBeLessThanOrEqual(2);
  });

  test('a commit while the listener reconnects: the reconnection re-reads the checkpoints and wakes the waiter', async () => {
    const position = await addEntry(0.75);
    const before = checkpointReads();
    const answering = get('/api/stats', position);
    // Waiting: it has read the checkpoints once and found them behind.
    await expect.poll(() => checkpointReads() - before).toBeGreaterThan(0);
    const admin = new pg.Client({ connectionString: app.url });
    await admin.connect();
    try {
      // The notification of this commit is lost: the LISTEN connection is gone.
      const killed = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN rm_changes'");
      expect(killed.rowCount).toBe(1);
      await run(teamStatsProjection, paymentsProjection);
    } finally {
      await admin.end();
    }
    const response = await answering;
    expect(response.headers['x-read-your-writes']).toBeUndefined();
    expect(Number(response.headers['x-projected-position'])).toBeGreaterThanOrEqual(position);
    expect(changes.listening).toBe(true);
  });

  test('x-min-position that is not a position answers 400 INVALID_REQUEST', async () => {
    for (const bad of ['-1', 'abc', '1.5', '99999999999999999999']) {
      const response = await get('/api/stats', bad);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'INVALID_REQUEST' });
    }
  });

  test('without a change listener (a stub feed) the wait still works, polling', async () => {
    const polling = buildQueryApi({
      db: app.db, now: () => NOW, readYourWritesTimeoutMs: TIMEOUT_MS, jwtSecret: SECRET, changes: { subscribe: () => () => undefined },
    });
    try {
      const position = await addEntry(0.25);
      const answering = polling.inject({ url: '/api/stats', headers: { 'x-min-position': String(position) } });
      await pause(100);
      await run(teamStatsProjection, paymentsProjection);
      const response = await answering;
      expect(response.headers['x-read-your-writes']).toBeUndefined();
      expect(Number(response.headers['x-projected-position'])).toBeGreaterThanOrEqual(position);
    } finally {
      await polling.close();
    }
  });
});
