/**
 * The operators' replay and queue board (docs/decisions/0017), administrators only (401 UNAUTHORIZED
 * without a valid token, 403 FORBIDDEN for anyone else):
 *
 * - POST /admin/replay enqueues a replay on the `replay` queue (the projector's replay worker
 *   runs it) and answers `{ jobId }`. While a replay is waiting or running, a second request is
 *   refused with 409 CONCURRENCY_CONFLICT: a replay rebuilds every read model, and two racing
 *   would only do the work twice. (Two requests in the same instant may both pass the check; the
 *   queue's deduplication id then hands both the same job.)
 * - GET /admin/replay/{jobId} answers `{ state, progress, result }` (contracts/operations.ts).
 *   The gateway sends this GET here, not to the query API: the job lives in Redis, not in a
 *   read model.
 * - /admin/queues is Bull Board over every queue (projection wake-ups and replay). A browser
 *   opens it without an Authorization header, so POST /admin/queues/session (bearer, admin)
 *   sets an HttpOnly, Secure, SameSite=Strict cookie scoped to the board's path. Its value is a
 *   narrow credential of its own: a 15-minute token with `scope: 'queue-board'`, the
 *   administrator's user id, session version and session, signed with a key of its own
 *   (app.queueBoardToken). The board's routes accept only that cookie, and only while the session
 *   is live and the account is still an approved ADMIN (401 / 403 otherwise); no other route
 *   accepts it (authenticate reads only the Authorization header and refuses a scoped token), and
 *   an access token is no board cookie.
 */
// The cookie decorations' types (@fastify/cookie is registered by @sinilill/http's authPlugin).
import type {} from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { Value } from 'typebox/value';
import {
  ErrorAnswer,
  QUEUE_BOARD_COOKIE,
  QUEUE_BOARD_PATH,
  QUEUE_BOARD_SCOPE,
  QUEUE_BOARD_SESSION_SECONDS,
  QueueBoardSession,
  ReplayJobParams,
  ReplayProgressAnswer,
  ReplayResultAnswer,
  ReplayStarted,
  ReplayStatus,
  type ReplayState,
} from '@sinilill/contracts';
import { DomainError } from '@sinilill/domain';
import { errorBody, requireAdmin } from '@sinilill/http';
import { REPLAY_JOB, type Queue, type ReplayJob } from '@sinilill/messaging';

export interface OperationsRouteOptions {
  /** Where replays are enqueued (the projector's replay worker takes them). */
  replayQueue: Queue<ReplayJob>;
  /** The queues the board shows; without them the board (and its session route) is not served. */
  boardQueues?: readonly Queue[];
}

const errors = { 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer };

/** onRequest hook after authenticate: 403 FORBIDDEN unless the actor is an administrator. */

/** BullMQ's states folded into the four an operator needs (delayed and the like are still waiting). */
function publicState(state: string): ReplayState {
  if (state === 'active' || state === 'completed' || state === 'failed') return state;
  return 'waiting';
}

/**
 * The board's guard: the cookie must hold a valid, unexpired queue-board token (not an access
 * token) whose session is live and whose account's session version is unchanged (401
 * UNAUTHORIZED), of an account that is still an approved ADMIN (403 FORBIDDEN). It answers itself
 * instead of throwing, because the board's plugin installs its own error handler in its context,
 * which would turn a thrown 401 into a 500.
 */
function boardGuard(app: FastifyInstance) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = request.cookies[QUEUE_BOARD_COOKIE];
    const claims = token ? app.queueBoardToken.verify(token) : null;
    if (!claims) return reply.status(401).send(errorBody('UNAUTHORIZED'));
    try {
      await app.sessionGuard.check(claims);
    } catch (error) {
      if (error instanceof DomainError) return reply.status(401).send(errorBody('UNAUTHORIZED'));
      throw error;
    }
    if (!(await app.sessionGuard.isAdmin(claims.userId))) return reply.status(403).send(errorBody('FORBIDDEN'));
  };
}

/** Registers the replay routes and, when `boardQueues` is given, the queue board. */
export const operationsRoutes: FastifyPluginAsyncTypebox<OperationsRouteOptions> = async (app, options) => {
  const { replayQueue } = options;
  const adminOnly = { onRequest: [app.authenticate, requireAdmin] };

  app.post('/admin/replay', {
    ...adminOnly,
    schema: { response: { 200: ReplayStarted, ...errors } },
  }, async (request) => {
    const busy = await replayQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
    if (Object.values(busy).some((n) => n > 0)) {
      throw new DomainError('CONCURRENCY_CONFLICT', 'a replay is already waiting or running');
    }
    const job = await replayQueue.add(REPLAY_JOB, {
      requestedBy: { userId: request.actor.userId, role: request.actor.role === 'ADMIN' ? 'ADMIN' : 'USER' },
    }, { deduplication: { id: 'replay' } });
    request.log.info({ jobId: job.id, userId: request.actor.userId }, 'replay enqueued');
    return { jobId: String(job.id) };
  });

  app.get('/admin/replay/:jobId', {
    ...adminOnly,
    schema: { params: ReplayJobParams, response: { 200: ReplayStatus, ...errors } },
  }, async (request) => {
    // The state first, then the job's hash: BullMQ writes the return value in the same step that
    // moves a job to completed, so a hash read after a "completed" state always holds it. (Read
    // the other way round, a job finishing in between answered completed with a null result.)
    const rawState = await replayQueue.getJobState(request.params.jobId);
    const job = rawState === 'unknown' ? undefined : await replayQueue.getJob(request.params.jobId);
    if (!job) throw new DomainError('NOT_FOUND', 'no such replay job (or it has expired)');
    const state = publicState(rawState);
    const progress = Value.Check(ReplayProgressAnswer, job.progress) ? job.progress : null;
    const result = state === 'completed' && Value.Check(ReplayResultAnswer, job.returnvalue) ? job.returnvalue : null;
    return { jobId: request.params.jobId, state, progress, result };
  });

  if (!options.boardQueues) return;

  app.post('/admin/queues/session', {
    ...adminOnly,
    schema: { response: { 200: QueueBoardSession, ...errors } },
  }, async (request, reply) => {
    const { userId, sv, sid } = request.user;
    const token = app.queueBoardToken.sign({ scope: QUEUE_BOARD_SCOPE, userId, sv, sid }, QUEUE_BOARD_SESSION_SECONDS);
    // Secure always: browsers accept it from http://localhost and http://127.0.0.1 as well.
    reply.setCookie(QUEUE_BOARD_COOKIE, token, {
      path: QUEUE_BOARD_PATH, maxAge: QUEUE_BOARD_SESSION_SECONDS, httpOnly: true, secure: true, sameSite: 'strict',
    });
    return { path: QUEUE_BOARD_PATH, expiresInSeconds: QUEUE_BOARD_SESSION_SECONDS };
  });

  const adapter = new FastifyAdapter();
  // The full path, as the browser sees it: the board's HTML links its assets and API from it.
  adapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: options.boardQueues.map((queue) => new BullMQAdapter(queue)),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'Sinilill queues' } },
  });
  await app.register(async (board) => {
    board.addHook('onRequest', boardGuard(app));
    await board.register(adapter.registerPlugin(), { prefix: QUEUE_BOARD_PATH.replace(/^\/api/, '') });
  });
};
