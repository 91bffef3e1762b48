/**
 * The projector's own HTTP server: it serves no API, only what the
 * launcher, compose and an orchestrator's probes and Prometheus ask of every service.
 *
 * - `GET /health/live`: 200 while the process answers (@sinilill/http healthRoutes). It listens
 *   before the projector waits for PostgreSQL, so a projector waiting for its database is alive,
 *   not restarted.
 * - `GET /health/ready`: 200 `{ ready: true }` while PostgreSQL answers, every schema the
 *   projector uses is migrated, Redis answers (its queues), no projection is more than
 *   PROJECTOR_READY_MAX_LAG events behind the log (lagCheck) and the projector has started (its
 *   workers run: server.ts); else 503 `{ ready: false, failed: [...] }` naming 'postgres',
 *   'migrations', 'redis', 'lag' or 'started'; 503 `{ ready: false }` once closing.
 * - `GET /metrics`: the process's registry (./metrics.ts and the process metrics) and the
 *   request durations of these routes.
 *
 * Fastify logs through the projector's pino logger (one format per process); the probes' and the
 * scrapes' request lines are below its level. A change of readiness is logged (a failing check at
 * warn, with each failure's reason; the return at info).
 */
import { createApp, healthRoutes, metricsPlugin, type ReadinessCheck, type Registry } from '@sinilill/http';
import type { ProjectionLag } from './metrics';

/** Fastify's `loggerInstance`: a pino logger (the projector's own, so one log format per process). */
export type ProjectorHttpLogger = NonNullable<NonNullable<Parameters<typeof createApp>[0]>['loggerInstance']>;

export interface ProjectorHttpOptions {
  /** Address to listen on (HOST). */
  host: string;
  /** Port (PROJECTOR_PORT; 0: any free port, see ProjectorHttp.port). */
  port: number;
  /** The process's registry (createMetricsRegistry('projector') with registerProjectorMetrics). */
  registry: Registry;
  /** The conditions of readiness (module docs: postgres, migrations, redis, lag). */
  checks: readonly ReadinessCheck[];
  /** Where Fastify logs (the probes' and scrapes' request lines are below its level: `logLevel: 'warn'`). */
  logger: ProjectorHttpLogger;
}

/** The listening server. */
export interface ProjectorHttp {
  /** The port it listens on (the one bound when PROJECTOR_PORT is 0). */
  readonly port: number;
  /** Readiness turns 503, the socket closes, the requests in flight answer. */
  close(): Promise<void>;
}

/**
 * The readiness check 'lag': fails, naming them, while a projection is more than `maxLag` events
 * behind the log's head (PROJECTOR_READY_MAX_LAG). A projector that has just started with a
 * backlog is therefore not ready until it has nearly caught up: a rollout waits for it.
 */
export function lagCheck(lag: () => Promise<ProjectionLag[]>, maxLag: number, name = 'lag'): ReadinessCheck {
  return {
    name,
    async check() {
      const behind = (await lag()).filter((row) => row.events > maxLag);
      if (behind.length > 0) {
        throw new Error(`more than ${maxLag} events behind: ${behind.map((row) => `${row.projection} ${row.events}`).join(', ')}`);
      }
    },
  };
}

/**
 * Starts the server on `options.host`:`options.port` (module docs).
 * @throws the listen error (EADDRINUSE: the port is taken).
 */
export async function startProjectorHttp(options: ProjectorHttpOptions): Promise<ProjectorHttp> {
  const app = createApp({ loggerInstance: options.logger });
  app.register(healthRoutes, { checks: options.checks });
  app.register(metricsPlugin, { registry: options.registry });
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return { port, close: () => app.close() };
}
