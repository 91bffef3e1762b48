/**
 * Health routes of an HTTP service, outside /api so the gateway never forwards them:
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
 *   with `checks` (the plugin's options), every probe also runs each check
 *   (concurrently, each bounded by `checkTimeoutMs`, default READINESS_CHECK_TIMEOUT_MS) and
 *   answers 503 `{ ready: false, failed: [names] }` when one throws or outlasts its bound: the
 *   standard ones are postgresCheck (PostgreSQL answers), migrationsCheck (every migration this
 *   code knows is applied) and redisCheck (Redis answers PING). A change of the failing set is
 *   logged at warn (with each failure's message), not every probe.
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

/**
 * One condition of readiness: `check` resolves when it holds and throws (any
 * error; its message is logged) when it does not. It should not take long: a probe waits for the
 * slowest check, at most the plugin's `checkTimeoutMs`.
 */
export interface ReadinessCheck {
  /** Named in the 503 answer's `failed` (e.g. 'postgres', 'redis', 'migrations', 'lag'). */
  readonly name: string;
  check(): Promise<void>;
}

/** Options of healthRoutes. */
export interface HealthOptions {
  /** Conditions of readiness besides not closing (default none). */
  checks?: readonly ReadinessCheck[];
  /** Bound of each check, ms (default READINESS_CHECK_TIMEOUT_MS). */
  checkTimeoutMs?: number;
}

/** How long one readiness check may take before it counts as failed, ms. */
export const READINESS_CHECK_TIMEOUT_MS = 1500;

/**
 * Rejects with `Error('timed out after N ms')` when `promise` has not settled within `ms`; the
 * promise itself is not cancelled (its late rejection is swallowed).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  promise.catch(() => undefined);
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** PostgreSQL answers `SELECT 1` (a pg Pool, or anything with its `query(text)`). */
export function postgresCheck(pool: { query(text: string): Promise<unknown> }, name = 'postgres'): ReadinessCheck {
  return { name, check: async () => { await pool.query('SELECT 1'); } };
}

/**
 * Redis answers PING (an ioredis client). A client with an offline queue holds the PING while it
 * reconnects: the check's bound ends the wait.
 */
export function redisCheck(redis: { ping(): Promise<unknown> }, name = 'redis'): ReadinessCheck {
  return { name, check: async () => { await redis.ping(); } };
}

/**
 * Every migration the service's code knows is applied: `pending` lists the ones that are not
 * (give it @sinilill/event-store's `pendingMigrations(pool, sets)`, the rule waitForPostgres
 * waits on). Once the list has been empty it stays so for this process (migrations are never
 * undone), so later probes cost no query.
 * @throws Error naming the pending migrations.
 */
export function migrationsCheck(pending: () => Promise<readonly string[]>, name = 'migrations'): ReadinessCheck {
  let current = false;
  return {
    name,
    async check() {
      if (current) return;
      const left = await pending();
      if (left.length > 0) throw new Error(`pending migrations: ${left.join(', ')}`);
      current = true;
    },
  };
}

const LiveAnswer = Type.Object({ live: Type.Literal(true), node: Type.String({ description: 'the Node.js version the process runs on' }) });
const ReadyAnswer = Type.Object({
  ready: Type.Boolean(),
  failed: Type.Optional(Type.Array(Type.String(), { description: 'the readiness checks that failed (503 only)' })),
});

/**
 * Registers GET /health/live and GET /health/ready at the root of `app` (fastify-plugin, so not
 * encapsulated) and decorates `app.readiness`; readiness turns false in a preClose hook, the
 * first step of `app.close()`. Register it before the other plugins: its onSend hook (the
 * `Connection: close` while closing) reaches only the routes registered after it. `options.checks`
 * are further conditions of readiness (module docs).
 */
export const healthRoutes = fp(async (app: FastifyInstance, options: HealthOptions) => {
  const checks = options.checks ?? [];
  const timeoutMs = options.checkTimeoutMs ?? READINESS_CHECK_TIMEOUT_MS;
  /** The failing checks the last probe found, to log changes only. */
  let lastFailed = '';
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
    if (checks.length === 0) return { ready: true };
    const outcomes = await Promise.allSettled(checks.map((c) => withTimeout(Promise.resolve().then(() => c.check()), timeoutMs)));
    const failures = checks.flatMap((c, i) => {
      const outcome = outcomes[i]!;
      return outcome.status === 'rejected' ? [{ name: c.name, error: outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason) }] : [];
    });
    const failed = failures.map((f) => f.name);
    if (failed.join(',') !== lastFailed) {
      lastFailed = failed.join(',');
      if (failed.length > 0) app.log.warn({ failed: failures }, 'not ready: readiness checks failed');
      else app.log.info('ready: every readiness check passes again');
    }
    if (failed.length > 0) return reply.status(503).send({ ready: false, failed });
    return { ready: true };
  });
}, { name: 'health' });
