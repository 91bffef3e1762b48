/**
 * Graceful shutdown: the services as real processes, stopped with SIGTERM.
 *
 * - The command API, in the middle of a burst of POST /api/entry: it exits 0 within the bound,
 *   every command answered 2xx has exactly one EntryAdded in the log, none is doubled, nothing
 *   is half-written, no request is answered 5xx other than 503, and /health/ready stops
 *   answering 200.
 * - The query API and the gateway end an open live stream (server-sent events) cleanly and exit
 *   0 at once, not after the bound.
 * - The projector, in the middle of catching up a backlog: it finishes the batch in progress
 *   (read models and checkpoint agree), stops there and exits 0; the next run counts nothing twice.
 * - The shared helper (installShutdown, @sinilill/http) in a throwaway service: a request in
 *   flight finishes, a close that hangs is ended at the bound with exit 1, an uncaught exception
 *   and an unhandled rejection are logged with the error and exit 1.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { CommandRequest } from '@sinilill/commands';
import { repoRoot } from '@sinilill/config';
import type { SessionClaims } from '@sinilill/contracts';
import type { ActingUser, EntryAdded } from '@sinilill/domain';
import { freePortBlock } from '@sinilill/local-infra';
import { readCheckpoints } from '@sinilill/read-models';
import { spawnService, waitForOk, type ServiceProcess } from '../support/service-process';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'shutdown-test-secret-0123456789-0123456789';
/** The services' bound (SHUTDOWN_DELAY_MS in @sinilill/http and the gateway's and projector's server.ts). */
const SHUTDOWN_DELAY_MS = 10_000;
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const TEAM = 1;
const PARTICIPANT = 11;
const run = randomUUID().slice(0, 8);

let app: TestApplication;
let sessions: TestSessions;
const dataDir = mkdtempSync(join(repoRoot, '.tmp-shutdown-'));
const services: ServiceProcess[] = [];

const system = (id: string): CommandRequest => ({ actor: SYSTEM, metadata: { commandId: `${run}-${id}`, correlationId: `${run}-${id}`, causationId: null } });

/** The member's claims (spec §3); the account is made and given a session in beforeAll. */
const MEMBER: SessionClaims = {
  userId: '00000000-0000-4000-8000-000000000011', fullName: 'Mari Maasikas', is_approved: true,
  participantId: PARTICIPANT, teamId: TEAM, role: 'USER', isPaid: true,
};

/**
 * A member's access token, signed like the command API's (HS256, the shared secret), with the
 * session version and session of a real account (the services check both).
 */
async function memberToken(): Promise<string> {
  return new SignJWT({ ...sessions.access(MEMBER) }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('15m')
    .sign(new TextEncoder().encode(SECRET));
}

/** The environment `npm start` gives every service (services/cli/src/start.ts), for this test's database. */
async function serviceEnv(extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  const port = await freePortBlock(3);
  return {
    DATABASE_URL: app.url,
    REDIS_URL: inject('redisUrl'),
    BULLMQ_PREFIX: `shutdown${run}`,
    JWT_SECRET: SECRET,
    EMAIL_INDEX_SECRET: 'shutdown-email-index-secret-0123456789',
    SANDBOX_PAYMENT_SECRET: 'shutdown-sandbox-payment-secret-0123456789',
    PORT: String(port),
    COMMAND_API_PORT: String(port + 1),
    QUERY_API_PORT: String(port + 2),
    DATA_DIR: dataDir,
    CLOCK: 'simulated',
    CLOCK_START: '2025-04-20T10:00:00Z',
    LOG_LEVEL: 'info',
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
    ...extra,
  };
}

function start(file: string, env: NodeJS.ProcessEnv, args: readonly string[] = []): ServiceProcess {
  const service = spawnService(file, env, args);
  services.push(service);
  return service;
}

/** Pino's log lines of a service with the given message. */
const logged = (service: ServiceProcess, msg: string) => service.logLines().filter((line) => line.msg === msg);

beforeAll(async () => {
  app = await testApplication({ now: () => new Date('2025-04-20T09:00:00Z') });
  await app.commands.registerTeam({ teamId: TEAM, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, system('team'));
  await app.commands.registerParticipant({
    participantId: PARTICIPANT, teamId: TEAM, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980,
    gender: 'FEMALE', isCaptain: true, newsletter: false,
  }, system('participant'));
  sessions = testSessions(app);
  await sessions.enrol(MEMBER);
  await app.project();
}, 120_000);

afterAll(async () => {
  await Promise.all(services.map((service) => service.kill()));
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the command API stopped with SIGTERM during a burst of appends', () => {
  test('answers every command it took, appends each exactly once, and exits 0 within the bound', async () => {
    const env = await serviceEnv();
    const base = `http://127.0.0.1:${env.COMMAND_API_PORT}`;
    const api = start('services/command-api/src/server.ts', env);
    await waitForOk(`${base}/health/ready`, api);
    expect(await (await fetch(`${base}/health/ready`)).json()).toEqual({ ready: true });
    // The spawned service runs on the Node.js LTS the project brings (24 or newer).
    const live = await (await fetch(`${base}/health/live`)).json() as { live: boolean; node: string };
    expect(live).toEqual({ live: true, node: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    expect(Number(live.node.split('.')[0])).toBeGreaterThanOrEqual(24);

    const authorization = `Bearer ${await memberToken()}`;
    const TOTAL = 600;
    const IN_FLIGHT = 16;
    const SIGNAL_AFTER = 150; // answers before SIGTERM
    interface Outcome { key: string; status: number | null; entryId: number | null; error: string | null }
    const outcomes: Outcome[] = [];
    let answered = 0;
    let signalledAt: number | null = null;
    let next = 0;
    const readiness: (number | 'refused')[] = [];

    const probeReadiness = async () => {
      // Until the listening socket is gone: every answer after the first non-200 must stay non-200.
      for (;;) {
        try {
          readiness.push((await fetch(`${base}/health/ready`)).status);
        } catch {
          readiness.push('refused');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    let probing: Promise<void> = Promise.resolve();

    const send = async (i: number): Promise<Outcome> => {
      const key = `shutdown-${run}-${i}`;
      try {
        const response = await fetch(`${base}/api/entry`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json', 'idempotency-key': key, 'x-correlation-id': key },
          body: JSON.stringify({ distance: 1.5, entry_type: 'WALK', performed_at: '2025-04-20' }),
        });
        const body = (await response.json().catch(() => null)) as { entry?: { id: number } } | null;
        return { key, status: response.status, entryId: body?.entry?.id ?? null, error: null };
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        return { key, status: null, entryId: null, error: cause?.code ?? cause?.message ?? String(error) };
      }
    };
    const burstStarted = performance.now();
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (next < TOTAL) {
        const outcome = await send(next++);
        outcomes.push(outcome);
        answered += 1;
        if (answered === SIGNAL_AFTER) {
          signalledAt = api.signal('SIGTERM');
          probing = probeReadiness();
        }
      }
    }));
    const exit = await api.exited;
    await probing;
    const burstMs = performance.now() - burstStarted;
    expect(signalledAt).not.toBeNull();
    const closeMs = exit.at - signalledAt!;

    // The process: exit code 0, well within the bound, through the graceful path.
    expect(exit, api.output().slice(-3000)).toMatchObject({ code: 0, signal: null });
    expect(closeMs).toBeLessThan(SHUTDOWN_DELAY_MS);
    expect(logged(api, 'closing gracefully')).toHaveLength(1);
    expect(logged(api, 'closed')).toHaveLength(1);

    // Readiness: once it stopped answering 200 it never did again, and it did stop.
    const firstNotReady = readiness.findIndex((status) => status !== 200);
    expect(firstNotReady, JSON.stringify(readiness)).toBeGreaterThanOrEqual(0);
    expect(readiness.slice(firstNotReady).every((status) => status === 503 || status === 'refused'), JSON.stringify(readiness)).toBe(true);

    // Every request: answered 200, refused while closing (503), or not connected at all; never a 500.
    const ok = outcomes.filter((o) => o.status !== null && o.status >= 200 && o.status < 300);
    const failed = outcomes.filter((o) => !ok.includes(o));
    expect(outcomes).toHaveLength(TOTAL);
    expect(outcomes.every((o) => o.status === null || o.status === 200 || o.status === 503), JSON.stringify(outcomes.filter((o) => o.status !== 200).slice(0, 5))).toBe(true);
    expect(ok.length).toBeGreaterThanOrEqual(SIGNAL_AFTER);
    expect(failed.length).toBeGreaterThan(0);
    expect(ok.every((o) => o.entryId !== null)).toBe(true);

    // The log: exactly one EntryAdded per answered command, none doubled, none from elsewhere.
    const events = (await app.store.readAll({ after: 0, maxCount: 100_000, types: ['EntryAdded'] })) as unknown as {
      stream: string; revision: number; data: EntryAdded['data']; metadata: { correlationId: string };
    }[];
    const byKey = new Map<string, typeof events>();
    for (const event of events) byKey.set(event.metadata.correlationId, [...(byKey.get(event.metadata.correlationId) ?? []), event]);
    const ids = events.map((e) => e.data.entryId);
    expect(new Set(ids).size).toBe(ids.length);
    const sent = new Set(outcomes.map((o) => o.key));
    expect(events.every((e) => sent.has(e.metadata.correlationId))).toBe(true);
    for (const outcome of ok) {
      const mine = byKey.get(outcome.key) ?? [];
      expect(mine, outcome.key).toHaveLength(1);
      expect(mine[0]!.data.entryId).toBe(outcome.entryId);
    }
    // A request that got no answer may have been appended before its connection went (whole:
    // one event, its stream's first), or not at all; never twice.
    for (const outcome of failed) expect((byKey.get(outcome.key) ?? []).length).toBeLessThanOrEqual(1);
    for (const event of events) {
      expect(event).toMatchObject({ stream: `entry-${event.data.entryId}`, revision: 0 });
      expect(event.data).toMatchObject({ participantId: PARTICIPANT, teamId: TEAM, distance: 1.5, entryType: 'WALK', performedAt: '2025-04-20' });
    }
    const appendedWithoutAnswer = failed.filter((o) => byKey.has(o.key)).length;
    console.log(`shutdown burst: ${TOTAL} requests (${IN_FLIGHT} in flight), SIGTERM after ${SIGNAL_AFTER} answers; ` +
      `${ok.length} answered 200, ${failed.filter((o) => o.status === 503).length} answered 503, ` +
      `${failed.filter((o) => o.status === null).length} not connected (${[...new Set(failed.map((o) => o.error).filter(Boolean))].join(', ')}); ` +
      `${events.length} EntryAdded in the log (${appendedWithoutAnswer} without an answer); ` +
      `exit ${exit.code} ${closeMs.toFixed(0)} ms after SIGTERM; burst ${burstMs.toFixed(0)} ms; readiness probes ${JSON.stringify(readiness)}`);
  }, 90_000);
});

describe('live streams on SIGTERM', () => {
  /** Opens GET …/api/team/1/live and reads up to the first comment; returns the rest of the stream's reading. */
  async function openLiveStream(base: string): Promise<{ ended: Promise<'ended' | string>; status: number }> {
    const response = await fetch(`${base}/api/team/${TEAM}/live`, { headers: { authorization: `Bearer ${await memberToken()}` } });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain(': connected');
    const ended = (async () => {
      try {
        for (;;) {
          const { done } = await reader.read();
          if (done) return 'ended' as const;
        }
      } catch (error) {
        return `errored: ${String((error as { cause?: unknown }).cause ?? error)}`;
      }
    })();
    return { ended, status: response.status };
  }

  test('the query API ends an open live stream and exits 0 at once', async () => {
    const env = await serviceEnv();
    const base = `http://127.0.0.1:${env.QUERY_API_PORT}`;
    const api = start('services/query-api/src/server.ts', env);
    await waitForOk(`${base}/health/ready`, api);
    const stream = await openLiveStream(base);
    expect(stream.status).toBe(200);

    const signalledAt = api.signal('SIGTERM');
    expect(await stream.ended).toBe('ended');
    const exit = await api.exited;
    expect(exit, api.output().slice(-3000)).toMatchObject({ code: 0, signal: null });
    const closeMs = exit.at - signalledAt;
    expect(closeMs).toBeLessThan(3000);
    console.log(`query API: live stream ended, exit ${exit.code} ${closeMs.toFixed(0)} ms after SIGTERM`);
  }, 60_000);

  test('the gateway ends a proxied live stream and exits 0 at once; the query API behind it stays up', async () => {
    const env = await serviceEnv({ WEB_ROOT: join(dataDir, 'no-web') });
    const queryApi = start('services/query-api/src/server.ts', env);
    const gateway = start('services/gateway/src/server.ts', env);
    const base = `http://127.0.0.1:${env.PORT}`;
    await waitForOk(`http://127.0.0.1:${env.QUERY_API_PORT}/health/ready`, queryApi);
    await waitForOk(`${base}/health/ready`, gateway);
    expect(await (await fetch(`${base}/health/live`)).json()).toEqual({ live: true, node: process.versions.node });
    const stream = await openLiveStream(base);
    expect(stream.status).toBe(200);

    const signalledAt = gateway.signal('SIGTERM');
    expect(await stream.ended).toBe('ended');
    const exit = await gateway.exited;
    expect(exit, gateway.output().slice(-3000)).toMatchObject({ code: 0, signal: null });
    const closeMs = exit.at - signalledAt;
    expect(closeMs).toBeLessThan(3000);
    // The upstream stream was let go of too: the query API closes at once as well.
    const queryClosedAt = queryApi.signal('SIGTERM');
    const queryExit = await queryApi.exited;
    expect(queryExit).toMatchObject({ code: 0, signal: null });
    expect(queryExit.at - queryClosedAt).toBeLessThan(3000);
    console.log(`gateway: proxied live stream ended, exit ${exit.code} ${closeMs.toFixed(0)} ms after SIGTERM`);
  }, 60_000);
});

describe('the projector stopped with SIGTERM while it catches up', () => {
  test('finishes the batch in progress, stops there and exits 0; the next run continues without counting twice', async () => {
    // A backlog the projector needs several 2 000-event batches per projection for.
    const BACKLOG = 12_000;
    const firstId = 100_000;
    const at = '2025-04-20T09:30:00.000Z';
    for (let start = 0; start < BACKLOG; start += 500) {
      await app.store.appendToStreams(Array.from({ length: 500 }, (_, k) => {
        const entryId = firstId + start + k;
        return {
          stream: `entry-${entryId}`,
          expectedRevision: 'no_stream' as const,
          events: [{
            id: randomUUID(), type: 'EntryAdded', schemaVersion: 1,
            data: { entryId, teamId: TEAM, participantId: PARTICIPANT, distance: 0.25, entryType: 'WALK', performedAt: '2025-04-20', createdAt: at, source: { kind: 'manual' } } satisfies EntryAdded['data'],
            metadata: { actor: { userId: null, role: 'SYSTEM' as const }, correlationId: `${run}-backlog`, causationId: null },
          }],
        };
      }));
    }
    const head = await app.store.headPosition();
    const before = await readCheckpoints(app.db);
    const env = await serviceEnv({ SWEEP_INTERVAL_MS: '60000' });
    const projector = start('services/projector/src/server.ts', env);
    // SIGTERM as soon as the first batch of this backlog has committed.
    const deadline = Date.now() + 60_000;
    let signalledAt = 0;
    for (;;) {
      const now = await readCheckpoints(app.db);
      if (Object.entries(now).some(([name, position]) => position > (before[name] ?? 0))) {
        signalledAt = projector.signal('SIGTERM');
        break;
      }
      if (projector.child.exitCode !== null || Date.now() > deadline) throw new Error(`projector made no progress:\n${projector.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const exit = await projector.exited;
    expect(exit, projector.output().slice(-3000)).toMatchObject({ code: 0, signal: null });
    const closeMs = exit.at - signalledAt;
    expect(closeMs).toBeLessThan(SHUTDOWN_DELAY_MS);
    const messages = projector.logLines().map((line) => line.msg);
    expect(messages).toContain('closing gracefully');
    expect(messages).toContain('closed');

    // It stopped mid-backlog, at a batch boundary: team-stats' rows hold exactly the events up to
    // its checkpoint (a batch is applied with its checkpoint, or not at all).
    const stopped = await readCheckpoints(app.db);
    expect(Object.values(stopped).some((position) => position < head), JSON.stringify({ stopped, head })).toBe(true);
    const teamDistance = async () => Number((await app.db.withSchema('rm').selectFrom('team_stats')
      .select((eb) => eb.fn.sum<number>('distance_hundredths').as('sum')).executeTakeFirstOrThrow()).sum);
    const loggedDistance = async (through: number) => {
      const added = await app.store.readAll({ after: 0, maxCount: 1_000_000, types: ['EntryAdded'] });
      return added.filter((e) => e.globalPosition <= through)
        .reduce((sum, e) => sum + Math.round((e.data as EntryAdded['data']).distance * 100), 0);
    };
    expect(await teamDistance()).toBe(await loggedDistance(stopped['team-stats'] ?? 0));

    // The next run (here in process) reads on from the checkpoints: everything once.
    await app.project();
    const caughtUp = await readCheckpoints(app.db);
    expect(Object.values(caughtUp).every((position) => position === head), JSON.stringify({ caughtUp, head })).toBe(true);
    expect(await teamDistance()).toBe(await loggedDistance(head));
    console.log(`projector: SIGTERM after its first batch of a ${BACKLOG}-event backlog; stopped at ${JSON.stringify(stopped)} of head ${head}; ` +
      `exit ${exit.code} ${closeMs.toFixed(0)} ms after SIGTERM`);
  }, 120_000);
});

describe('installShutdown (the shared helper) in a throwaway service', () => {
  const FIXTURE = 'tests/support/shutdown-fixture.ts';

  async function startFixture(delayMs: number): Promise<{ service: ServiceProcess; base: string }> {
    const service = start(FIXTURE, {}, [String(delayMs)]);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const port = logged(service, 'fixture listening')[0]?.port;
      if (typeof port === 'number') {
        const base = `http://127.0.0.1:${port}`;
        await waitForOk(`${base}/health/ready`, service);
        return { service, base };
      }
      if (service.child.exitCode !== null || Date.now() > deadline) throw new Error(`fixture did not start:\n${service.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  test('a request in flight at SIGTERM is answered, then the process exits 0', async () => {
    const { service, base } = await startFixture(SHUTDOWN_DELAY_MS);
    const slow = fetch(`${base}/slow?ms=800`).then(async (r) => ({ status: r.status, body: await r.json() }));
    await expect.poll(() => logged(service, 'fixture request in').length).toBe(1);
    const signalledAt = service.signal('SIGTERM');
    expect(await slow).toEqual({ status: 200, body: { slept: 800 } });
    const exit = await service.exited;
    expect(exit, service.output()).toMatchObject({ code: 0, signal: null });
    expect(exit.at - signalledAt).toBeLessThan(3000);
  }, 60_000);

  test('a close that does not finish within the bound exits 1 at the bound', async () => {
    const { service, base } = await startFixture(1000);
    void fetch(`${base}/hang`).catch(() => undefined);
    await expect.poll(() => logged(service, 'fixture request in').length).toBe(1);
    const signalledAt = service.signal('SIGTERM');
    const exit = await service.exited;
    expect(exit, service.output()).toMatchObject({ code: 1, signal: null });
    expect(exit.at - signalledAt).toBeGreaterThanOrEqual(900);
    expect(exit.at - signalledAt).toBeLessThan(5000);
    expect(logged(service, 'graceful close took longer than its bound; exiting with code 1')).toHaveLength(1);
  }, 60_000);

  test.each([
    ['an uncaught exception', '/throw', 'fixture: uncaught exception'],
    ['an unhandled rejection', '/reject', 'fixture: unhandled rejection'],
  ])('%s is logged with the error and exits 1', async (_name, path, message) => {
    const { service, base } = await startFixture(SHUTDOWN_DELAY_MS);
    await fetch(`${base}${path}`);
    const exit = await service.exited;
    expect(exit, service.output()).toMatchObject({ code: 1, signal: null });
    const [line] = logged(service, 'uncaught error; closing, then exiting with code 1');
    expect(line, service.output()).toMatchObject({ level: 50, err: { message } });
    expect((line!.err as { stack?: string }).stack).toContain(message);
  }, 60_000);
});
