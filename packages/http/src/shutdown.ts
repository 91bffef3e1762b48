/**
 * Graceful shutdown of an HTTP service, with close-with-grace.
 *
 * On SIGTERM or SIGINT (and SIGHUP, SIGQUIT, SIGUSR2…, the signals close-with-grace listens to):
 * `app.close()`, which in Fastify's order turns readiness to 503 (healthRoutes' preClose) and
 * ends what preClose hooks end (the query API's live streams), stops listening (new connections
 * are refused; requests arriving on connections still open get 503), lets the requests in flight
 * finish, and then runs the onClose hooks, which release pools, queues and Redis connections.
 * The process then exits 0.
 *
 * An uncaught exception or an unhandled rejection is logged with the error (pino's `err`), the
 * same close runs, and the process exits 1. A close that takes longer than the bound, a second
 * signal or a second uncaught error while closing exit 1 at once (logged first).
 */
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';

/**
 * Default bound of a graceful close, ms: how long the requests in flight (a read-your-writes wait
 * is at most 3 s, an append well under 1 s) and the release of pools may take before the process
 * is ended with exit code 1 anyway. Pass `delayMs` to installShutdown to change it per service;
 * whatever stops the service (the launcher, an orchestrator) should wait a little longer than
 * this before it kills.
 */
export const SHUTDOWN_DELAY_MS = 10_000;

export interface ShutdownOptions {
  /** The bound, ms (default SHUTDOWN_DELAY_MS). */
  delayMs?: number;
}

/** The installed handlers: `close()` starts the same close by hand (exit code 0), `uninstall()` removes them. */
export interface Shutdown {
  close(): void;
  uninstall(): void;
}

/** Where the shutdown helper logs: pino-shaped (an object of fields, then the message). */
export interface ShutdownLog {
  info(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/**
 * Installs the process-wide handlers (close-with-grace) that run `close` on a signal or an
 * uncaught error and then exit: 0 after a signal, 1 after an error, 1 when `close` outlasts the
 * bound or a second signal or error comes. For a service that is not a Fastify app (the
 * projector); HTTP services use installShutdown. Call it once per process, as early as possible.
 */
export function installGracefulShutdown(
  log: ShutdownLog,
  close: (reason: { signal?: string; err?: Error }) => Promise<void>,
  options: ShutdownOptions = {},
): Shutdown {
  const delayMs = options.delayMs ?? SHUTDOWN_DELAY_MS;
  return closeWithGrace({
    delay: delayMs,
    // close-with-grace's own messages (a failed close) go through the same log.
    logger: { error: (message: unknown) => log.error(message instanceof Error ? { err: message } : { detail: message }, 'shutdown failed') },
    onTimeout: () => log.error({ delayMs }, 'graceful close took longer than its bound; exiting with code 1'),
    onSecondSignal: (signal) => log.error({ signal }, 'second signal while closing; exiting with code 1'),
    onSecondError: (error) => log.error({ err: error }, 'uncaught error while closing; exiting with code 1'),
  }, async ({ signal, err, manual }) => {
    if (err) log.error({ err }, 'uncaught error; closing, then exiting with code 1');
    else log.info({ signal, manual: manual ?? false, delayMs }, 'closing gracefully');
    await close({ ...(signal ? { signal } : {}), ...(err ? { err } : {}) });
    if (!err) log.info({}, 'closed');
  });
}

/**
 * Installs the process-wide handlers that close `app` gracefully and exit (module docs). Call it
 * once per process, as early as possible in `server.ts` (a signal during start-up then closes
 * what exists instead of killing the process mid-way).
 */
export function installShutdown(app: FastifyInstance, options: ShutdownOptions = {}): Shutdown {
  // What the app does not own itself is released in its onClose hooks (server.ts).
  return installGracefulShutdown(
    { info: (fields, message) => app.log.info(fields, message), error: (fields, message) => app.log.error(fields, message) },
    () => app.close(),
    options,
  );
}
