/**
 * Replay as a job (docs/decisions/0017) on real PostgreSQL and Redis: an administrator enqueues a replay through
 * the command API, a projector-like replay worker started here runs it, the administrator follows
 * its progress to completion; the totals are unchanged for an unchanged route, and the replay is
 * recorded as ReadModelsReplayed in stream `operations`. Nobody else may start or follow one.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (the command API registers the plugin)
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { importEdition } from '@sinilill/cli';
import { buildCommandApi } from '@sinilill/command-api';
import type { ReplayStatus, SessionClaims } from '@sinilill/contracts';
import { streams, type ReadModelsReplayed } from '@sinilill/domain';
import { createReplayQueue, type Queue, type ReplayJob, type ReplayJobProgress } from '@sinilill/messaging';
import { startReplayWorker } from '@sinilill/projector';
import { projections, rebuildStep } from '@sinilill/read-models';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';
import { smallEdition } from '../support/small-edition';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const admin: SessionClaims = {
  userId: 'b7d1f6c4-3f51-4a4c-9d51-2f0f5c6c0a01', fullName: 'Administrator', is_approved: true, participantId: null, teamId: null, role: 'ADMIN', isPaid: false,
};
const user: SessionClaims = {
  userId: '00000000-0000-4000-8000-000000000011', fullName: 'Test Person', is_approved: true, participantId: null, teamId: null, role: 'USER', isPaid: false,
};

describe('replay as a job', () => {
  let app: TestApplication;
  let api: FastifyInstance;
  let queue: Queue<ReplayJob>;
  let worker: ReturnType<typeof startReplayWorker>;
  const reported: ReplayJobProgress[] = [];
  let sessions: TestSessions;
  // Real accounts with live sessions (a token needs its account's session version).
  const bearer = (claims: SessionClaims) => ({ authorization: sessions.bearer(api, claims) });

  beforeAll(async () => {
    app = await testApplication();
    await importEdition({ dir: smallEdition(30), edition: 2025, commands: app.commands, ids: app.ids });
    sessions = testSessions(app);
    await sessions.enrol(admin, user);
    await app.project();
    const redisUrl = inject('redisUrl');
    const prefix = `test-replay-${randomUUID()}`;
    queue = createReplayQueue({ redisUrl, prefix });
    // Small batches: many progress reports even on a small log.
    worker = startReplayWorker({ db: app.db, store: app.store, projections, redisUrl, prefix, batchSize: 500 });
    worker.on('progress', (_job, progress) => { reported.push(progress as ReplayJobProgress); });
    api = buildCommandApi({ commands: app.commands, sessions: sessions.accounts, jwtSecret: SECRET, replayQueue: queue });
    await api.ready();
  }, 300_000);
  afterAll(async () => {
    await api?.close();
    await worker?.close();
    await queue?.close();
    await app?.close();
  });

  test('without a token: 401 for starting and following', async () => {
    const start = await api.inject({ method: 'POST', url: '/api/admin/replay' });
    expect([start.statusCode, start.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
    const follow = await api.inject({ method: 'GET', url: '/api/admin/replay/1' });
    expect([follow.statusCode, follow.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
  });

  test('a USER: 403 for starting and following', async () => {
    const start = await api.inject({ method: 'POST', url: '/api/admin/replay', headers: bearer(user) });
    expect([start.statusCode, start.json()]).toEqual([403, { message: 'FORBIDDEN' }]);
    const follow = await api.inject({ method: 'GET', url: '/api/admin/replay/1', headers: bearer(user) });
    expect([follow.statusCode, follow.json()]).toEqual([403, { message: 'FORBIDDEN' }]);
    expect(await queue.count()).toBe(0);
  });

  test('an unknown job: 404', async () => {
    const response = await api.inject({ method: 'GET', url: '/api/admin/replay/999999', headers: bearer(admin) });
    expect([response.statusCode, response.json()]).toEqual([404, { message: 'NOT_FOUND' }]);
  });

  test('an administrator starts a replay, follows it to the end, and finds it recorded', async () => {
    const totalsBefore = await app.totals();
    const headBefore = await app.store.headPosition();
    const started = await api.inject({ method: 'POST', url: '/api/admin/replay', headers: bearer(admin) });
    expect(started.statusCode).toBe(200);
    const { jobId } = started.json<{ jobId: string }>();
    expect(jobId).toMatch(/^[1-9][0-9]*$/);

    // A second one while the first waits or runs is refused.
    const second = await api.inject({ method: 'POST', url: '/api/admin/replay', headers: bearer(admin) });
    expect([second.statusCode, second.json()]).toEqual([409, { message: 'CONCURRENCY_CONFLICT' }]);

    const seen: ReplayStatus[] = [];
    for (let i = 0; i < 600; i++) {
      const response = await api.inject({ method: 'GET', url: `/api/admin/replay/${jobId}`, headers: bearer(admin) });
      expect(response.statusCode).toBe(200);
      const status = response.json<ReplayStatus>();
      seen.push(status);
      if (status.state === 'completed' || status.state === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const last = seen[seen.length - 1]!;
    expect(last.state).toBe('completed');

    // Progress grows with every batch of the one pass over the log (every projection at once),
    // over several reports, up to 95 %; the last step (indexes, checksums, swap: projection
    // '*') reports 95 and the worker 100 once the swap is done.
    const pass = reported.filter((p) => p.projection !== '*').map((p) => p.percent);
    expect(pass.length).toBeGreaterThan(4);
    for (let i = 1; i < pass.length; i++) expect(pass[i]).toBeGreaterThan(pass[i - 1]!);
    expect(reported.slice(-2)).toMatchObject([{ projection: '*', percent: 95 }, { projection: '*', percent: 100 }]);
    const polled = seen.flatMap((s) => (s.progress ? [s.progress.percent] : []));
    for (let i = 1; i < polled.length; i++) expect(polled[i]).toBeGreaterThanOrEqual(polled[i - 1]!);
    expect(last.progress).toMatchObject({ percent: 100 });
    for (const p of reported.slice(0, -2)) {
      expect(p.projection).toBe(rebuildStep(projections));
      expect(p.position).toBeLessThanOrEqual(p.head);
    }

    // Same route, same log: the same totals; the result says so.
    expect(await app.totals()).toEqual(totalsBefore);
    expect(last.result).toMatchObject({ jobId, position: headBefore, before: totalsBefore, after: totalsBefore });
    expect(Date.parse(last.result!.finishedAt)).toBeGreaterThanOrEqual(Date.parse(last.result!.startedAt));

    const recorded = await app.store.readStream(streams.operations());
    expect(recorded).toHaveLength(1);
    const event = recorded[0]!;
    expect(event.type).toBe('ReadModelsReplayed');
    expect(event.data).toEqual(last.result);
    expect((event.data as ReadModelsReplayed['data']).events).toBe(headBefore);
    expect(event.metadata.actor).toEqual({ userId: admin.userId, role: 'ADMIN' });

    // Finished: another replay may start.
    const third = await api.inject({ method: 'POST', url: '/api/admin/replay', headers: bearer(admin) });
    expect(third.statusCode).toBe(200);
    expect(third.json<{ jobId: string }>().jobId).not.toBe(jobId);
  }, 120_000);
});
