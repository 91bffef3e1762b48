/**
 * Health routes of an HTTP service (issue 12), outside /api so the gateway never forwards them:
 * each process answers for itself, to the launcher, a load balancer or an orchestrator's probes.
 *
 * - `GET /health/live`: 200 `{ live: true, node: process.versions.node }` while the process answers at all (a liveness probe
 *   restarts a process that stops answering, never one that is merely closing).
 * - `GET /health/ready`: 200 `{ ready: true }` while the service takes new work; not ready from
 *   the moment it starts closing (`fastify.close()`, e.g. on SIGTERM through installShutdown), so
 *   a balancer stops sending it requests: the listening socket is closed (a new connection is
 *   refused) and Fastify answers 503 to requests on connections still open (its own
 *   `Service Unavailable` body). The route answers 503 `{ ready: false }` itself once
 *   `app.readiness.notReady()` was called, which a service may do before closing to drain.
 *
 * The probes are logged at warn and above only, so a probe every few seconds does not flood the log.
 *
 * While closing, every answer carries `Connection: close`. Node's server.close() closes only the
 * keep-alive connections idle at that moment; one whose request was still in flight would stay
 * open after its answer, holding the close until its keep-alive timeout (72 s in Fastify).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import Type from 'typebox';

declare module 'fastify' {
  interface FastifyInstance {
    /** The service's readiness (healthRoutes); false once it has started to close. */
    readonly readiness: Readiness;
  }
}

/** Whether the service takes new work; `notReady()` is one-way (a closing service never comes back). */
export interface Readiness {
  readonly ready: boolean;
  /** Answer 503 on /health/ready from now on (idempotent). */
  notReady(): void;
}

const LiveAnswer = Type.Object({ live: Type.Literal(true), node: Type.String({ description: 'the Node.js version the process runs on' }) });
const ReadyAnswer = Type.Object({ ready: Type.Boolean() });

/**
 * Registers GET /health/live and GET /health/ready at the root of `app` (fastify-plugin, so not
 * encapsulated) and decorates `app.readiness`; readiness turns false in a preClose hook, the
 * first step of `app.close()`. Register it before the other plugins: its onSend hook (the
 * `Connection: close` while closing) reaches only the routes registered after it.
 */
export const healthRoutes = fp(async (app: FastifyInstance) => {
  let ready = true;
  const readiness: Readiness = {
    get ready() { return ready; },
    notReady() { ready = false; },
  };
  app.decorate('readiness', readiness);
  app.addHook('preClose', async () => readiness.notReady());
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!readiness.ready) reply.header('connection', 'close');
    return payload;
  });
  app.get('/health/live', { logLevel: 'warn', schema: { response: { 200: LiveAnswer } } }, async () => ({ live: true as const, node: process.versions.node }));
  app.get('/health/ready', { logLevel: 'warn', schema: { response: { 200: ReadyAnswer, 503: ReadyAnswer } } }, async (_request, reply) => {
    if (!readiness.ready) return reply.status(503).send({ ready: false });
    return { ready: true };
  });
}, { name: 'health' });
