/**
 * Logs and traces end to end, in this process on real PostgreSQL and Redis: the
 * gateway in front of the command API (both listening on loopback ports), the store's after-commit
 * wake-up through BullMQ, and the projector; spans recorded in memory
 * (@sinilill/telemetry/testing, started before any Fastify instance is made, as server.ts starts
 * the SDK).
 *
 * - `POST /api/entry` with an `x-correlation-id`: the answer echoes it, the event's metadata holds
 *   it, the command API's log lines carry it, and the projector's run that applied the entry logs
 *   it; one trace runs from the gateway's HTTP span through the command API's `POST /api/entry`
 *   (with its pg and Redis spans) into the `projection batch …` spans whose position range covers
 *   the entry's event.
 * - Without the header, or with a bad one, the gateway makes the id, and the API, the answer and
 *   the event all have that one.
 * - A wake-up job as older senders send it (no correlation id, no trace context) is still taken:
 *   its batch is traced from a new root.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildCommandApi } from '@sinilill/command-api';
import { CommandService, withAfterCommit } from '@sinilill/commands';
import type { SessionClaims } from '@sinilill/contracts';
import type { ActingUser } from '@sinilill/domain';
import { buildGateway } from '@sinilill/gateway';
import { WAKE_UP_JOB, WakeUpPublisher, createProjectionQueues, type WakeUpJob } from '@sinilill/messaging';
import { startProjector, type RunningProjector } from '@sinilill/projector';
import { projections, readCheckpoint } from '@sinilill/read-models';
import { startInMemoryTracing, type InMemoryTracing, type ReadableSpan } from '@sinilill/telemetry/testing';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const NOW = new Date('2025-04-20T10:00:00Z');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** OpenTelemetry's SpanKind.SERVER. */
const SERVER = 1;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns something, for at most `ms`. */
async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, ms = 15_000): Promise<T> {
  const by = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > by) throw new Error(`not within ${ms} ms`);
    await pause(50);
  }
}

/** A pino destination keeping every line, parsed. */
function capture(into: Record<string, unknown>[]) {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') into.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
}

describe('logs and traces from POST /api/entry to the projection batch', () => {
  let tracing: InMemoryTracing;
  let app: TestApplication;
  let sessions: TestSessions;
  let publisher: WakeUpPublisher;
  let commandApi: FastifyInstance;
  let gateway: FastifyInstance;
  let projector: RunningProjector;
  const prefix = `tr${randomUUID().slice(0, 8)}`;
  const apiLog: Record<string, unknown>[] = [];
  const projectorLog: { message: string; details: Record<string, unknown> }[] = [];
  const claims: SessionClaims = {
    userId: '00000000-0000-4000-8000-000000000011', fullName: 'Mari Maasikas', is_approved: true, participantId: 11, teamId: 1, role: 'USER', isPaid: true,
  };

  /** POST /api/entry through the gateway, as a browser sends it. */
  const addEntry = async (headers: Record<string, string> = {}) => {
    const port = (gateway.server.address() as AddressInfo).port;
    const response = await fetch(`http://127.0.0.1:${port}/api/entry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: sessions.bearer(commandApi, claims), ...headers },
      body: JSON.stringify({ distance: 2.5, entry_type: 'WALK', performed_at: '2025-04-20' }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const body = await response.json() as { position: number };
    return { position: body.position, correlationId: response.headers.get('x-correlation-id') };
  };
  /** The correlation id in the metadata of the event at `position`. */
  const storedCorrelationId = async (position: number) => {
    const [event] = await app.store.readAll({ after: position - 1, maxCount: 1 });
    expect(event?.globalPosition).toBe(position);
    return event!.metadata.correlationId;
  };
  const attribute = (span: ReadableSpan, name: string) => span.attributes[name];
  /** The batch spans of `projection` whose range covers `position` (from < position <= to). */
  const batchesCovering = (projection: string, position: number) => tracing.spans().filter((span) =>
    span.name === `projection batch ${projection}`
    && Number(attribute(span, 'sinilill.position.from')) < position && Number(attribute(span, 'sinilill.position.to')) >= position);

  beforeAll(async () => {
    // First: the Fastify instances made below get @fastify/otel, and pg, ioredis and http are patched.
    tracing = await startInMemoryTracing();
    app = await testApplication({ now: () => NOW });
    const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });
    await app.commands.registerTeam({ teamId: 1, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, system('team-1'));
    await app.commands.registerParticipant({
      participantId: 11, teamId: 1, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE', isCaptain: true, newsletter: false,
    }, system('participant-11'));
    await app.ids.reserveThrough('entry', 100);
    sessions = testSessions(app);
    await sessions.enrol(claims);
    publisher = new WakeUpPublisher({ redisUrl: inject('redisUrl'), prefix });
    // The command API's wiring (server.ts): the wake-up names the append's correlation id, and
    // takes the request's trace context itself.
    const store = withAfterCommit(app.store, (position, append) => { void publisher.wake(position, undefined, { correlationId: append.correlationId }); });
    commandApi = buildCommandApi({
      commands: new CommandService({ store, ids: app.ids, now: () => NOW }),
      sessions: sessions.accounts,
      jwtSecret: SECRET,
      logger: { level: 'info', stream: capture(apiLog) },
    });
    await commandApi.listen({ host: '127.0.0.1', port: 0 });
    const commandPort = (commandApi.server.address() as AddressInfo).port;
    gateway = buildGateway({ commandApiUrl: `http://127.0.0.1:${commandPort}`, queryApiUrl: 'http://127.0.0.1:9', webRoot: '/nonexistent/web/dist' });
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    // A long sweep: every run below is a wake-up's. Started after the seeding, so its start-up
    // catch-up (untraced) has read everything before the tests.
    projector = await startProjector({
      db: app.db, store: app.store, projections, redisUrl: inject('redisUrl'), prefix, sweepIntervalMs: 600_000,
      log: (message, details = {}) => { projectorLog.push({ message, details }); },
    });
  }, 120_000);

  afterAll(async () => {
    await projector?.close();
    await gateway?.close();
    await commandApi?.close();
    await publisher?.close();
    await app?.close();
    await tracing?.shutdown();
  });

  test('one trace from the gateway through POST /api/entry into the batches that applied it; one correlation id everywhere', async () => {
    const correlationId = `trace-test-${randomUUID().slice(0, 8)}`;
    const entry = await addEntry({ 'x-correlation-id': correlationId });

    // The answer echoes it; the event holds it; every log line of the request in the API carries it.
    expect(entry.correlationId).toBe(correlationId);
    expect(await storedCorrelationId(entry.position)).toBe(correlationId);
    const requestLines = apiLog.filter((line) => line.correlationId === correlationId);
    expect(requestLines.map((line) => line.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));

    // The projections that handle EntryAdded apply it in a batch of the request's trace.
    const [teamStats] = await eventually(() => {
      const found = batchesCovering('team-stats', entry.position);
      return found.length > 0 ? found : undefined;
    });
    const traceId = teamStats!.spanContext().traceId;
    expect(attribute(teamStats!, 'sinilill.events.applied')).toBeGreaterThanOrEqual(1);
    expect(attribute(teamStats!, 'sinilill.projection')).toBe('team-stats');
    const directory = await eventually(() => batchesCovering('team-directory', entry.position)[0]);
    expect(directory.spanContext().traceId).toBe(traceId);

    // The other projections the wake-up ran may still be in a batch (their SQL spans ended, their
    // batch span not yet): a catch-up queues behind every run in progress, so once it is done
    // every batch span of the trace has ended (CI caught the trace read mid-batch).
    await projector.catchUpAll();
    const trace = tracing.spans().filter((span) => span.spanContext().traceId === traceId);
    const byId = new Map(trace.map((span) => [span.spanContext().spanId, span]));
    const parentOf = (span: ReadableSpan) => byId.get(span.parentSpanContext?.spanId ?? '');
    // The command API's HTTP span of the route, and the gateway's in front of it (two servers).
    const route = trace.find((span) => span.kind === SERVER && span.name === 'POST /api/entry');
    expect(route, trace.map((span) => span.name).join(', ')).toBeDefined();
    expect(trace.filter((span) => span.kind === SERVER && span.instrumentationScope.name === '@opentelemetry/instrumentation-http')).toHaveLength(2);
    expect(trace.some((span) => span.instrumentationScope.name === '@fastify/otel' && attribute(span, 'http.route') === '/api/entry')).toBe(true);
    // One root: the gateway's span (its route is the proxy's pattern); everything else hangs from it.
    expect(trace.filter((span) => parentOf(span) === undefined).map((span) => span.name)).toEqual(['POST /api/*']);
    // The append's SQL and the wake-up's Redis calls under the request; the batch's SQL under the batch.
    expect(trace.some((span) => span.name.startsWith('pg.query') && parentOf(span) !== undefined && !parentOf(span)!.name.startsWith('projection batch'))).toBe(true);
    expect(trace.some((span) => span.instrumentationScope.name === '@opentelemetry/instrumentation-ioredis')).toBe(true);
    expect(trace.some((span) => span.name.startsWith('pg.query') && parentOf(span) === teamStats)).toBe(true);

    // The projector's log names the run's correlation id and its trace.
    const projected = await eventually(() => projectorLog.find((line) => line.message === 'projected' && line.details.projection === 'team-stats'
      && Number(line.details.position) >= entry.position));
    expect(projected.details.correlationIds).toEqual([correlationId]);
    expect(projected.details.traceId).toBe(traceId);
  });

  test('without x-correlation-id the gateway makes one: the API takes it, the answer echoes it, the event holds it', async () => {
    const entry = await addEntry();
    expect(entry.correlationId).toMatch(UUID);
    expect(await storedCorrelationId(entry.position)).toBe(entry.correlationId);
    expect(apiLog.some((line) => line.correlationId === entry.correlationId && line.msg === 'request completed')).toBe(true);
  });

  test.each([
    ['300 characters', 'x'.repeat(300)],
    ['spaces', 'not a usable id'],
  ])('a bad x-correlation-id (%s) is replaced, never echoed, logged or stored', async (_case, bad) => {
    const entry = await addEntry({ 'x-correlation-id': bad });
    expect(entry.correlationId).toMatch(UUID);
    expect(await storedCorrelationId(entry.position)).toBe(entry.correlationId);
    expect(JSON.stringify(apiLog)).not.toContain(bad);
  });

  test('a wake-up job of an older sender (no correlation id, no trace context) still runs its projection, traced from a new root', async () => {
    // The earlier tests' wake-ups done (so no run of theirs reads the event below), an append that
    // wakes nobody (the test application's own store), then the old job by hand.
    const queues = createProjectionQueues({ redisUrl: inject('redisUrl'), prefix });
    try {
      await eventually(async () => {
        const counts = await Promise.all(queues.map((q) => q.getJobCounts('waiting', 'active', 'delayed', 'prioritized')));
        return counts.every((count) => Object.values(count).every((n) => n === 0)) ? true : undefined;
      });
    } finally {
      await Promise.all(queues.map((q) => q.close()));
    }
    // A job only asks for a run and completes: the runs it asked for end with this catch-up.
    await projector.catchUpAll();
    const { position } = await app.commands.addEntry(
      { participantId: 11, distance: 1, entryType: 'WALK', performedAt: '2025-04-20' },
      { actor: SYSTEM, metadata: { commandId: 'old-job-entry', correlationId: 'old-job-entry', causationId: null } },
    );
    const [queue] = createProjectionQueues({ redisUrl: inject('redisUrl'), prefix, projections: ['team-stats'] });
    try {
      const old: WakeUpJob = { position, sentAt: Date.now() };
      await queue!.add(WAKE_UP_JOB, old);
      await eventually(async () => ((await readCheckpoint(app.db, 'team-stats')) >= position ? true : undefined));
    } finally {
      await queue!.close();
    }
    const batch = await eventually(() => batchesCovering('team-stats', position)[0]);
    expect(batch.parentSpanContext).toBeUndefined();
    expect(batch.links).toEqual([]);
  });
});
