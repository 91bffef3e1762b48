/**
 * Prometheus metrics of a service, with prom-client.
 *
 * - One Registry per service process (createMetricsRegistry), every series labelled
 *   `{service="<name>"}` and, in a deployed process, prom-client's default metrics (CPU, memory,
 *   event-loop delay, handles, GC; `process_*` and `nodejs_*`).
 * - metricsPlugin (Fastify) records `http_request_duration_seconds` (histogram, seconds; labels
 *   method, route, status_code) for every answer, and serves `GET /metrics` in Prometheus' text
 *   format 0.0.4. `route` is the route's pattern (`/api/team/:id`), or `unmatched` for requests no
 *   route took (404s, refused URLs): never the raw URL, so the series stay bounded whatever
 *   clients send.
 * - /metrics is outside /api, so the gateway never forwards it (each process answers for itself,
 *   like /health/*), and logged at warn and above only (a scrape every few seconds).
 *
 * The services add their own metrics to the registry they pass here (the command API's appends,
 * the projector's lag, batches, queues and replay); gauges that are read at scrape time use
 * prom-client's `collect()` callbacks. The metric names are those of the Grafana dashboard
 * (infra); renaming one breaks a panel.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client';

/** prom-client's metric classes, for services that add metrics without depending on prom-client. */
export { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The request-duration histogram's name. */
export const HTTP_REQUEST_DURATION = 'http_request_duration_seconds';

/**
 * Buckets of http_request_duration_seconds, seconds: from a cached answer (about a millisecond)
 * to a read-your-writes wait (at most 3 s) and beyond.
 */
export const HTTP_DURATION_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The route label of a request that no route took. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * A registry for one service process: every series it exports carries `service` (e.g.
 * 'command-api'); with `defaultMetrics` (default true) prom-client's process and Node.js metrics
 * are collected into it. A process should make one (its server.ts): each default-metrics
 * collection keeps an event-loop-delay monitor running for the life of the process.
 */
export function createMetricsRegistry(service: string, options: { defaultMetrics?: boolean } = {}): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });
  return registry;
}

/**
 * The metric called `name` in `registry`, made by `create` (which must register it there) when it
 * is not there yet: two decorators or apps on one registry share a metric instead of failing on
 * prom-client's "already registered".
 */
export function registeredMetric<T extends Metric>(registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}

/** Options of metricsPlugin. */
export interface MetricsOptions {
  /** Where the request durations go and what /metrics exports (createMetricsRegistry). */
  registry: Registry;
}

/**
 * Registers the request-duration hook and `GET /metrics` on `app` (fastify-plugin: the hook sees
 * every route of the app). Register it early, right after healthRoutes: a hook reaches only the
 * routes registered after it.
 */
export const metricsPlugin = fp(async (app: FastifyInstance, options: MetricsOptions) => {
  const { registry } = options;
  const duration = registeredMetric(registry, HTTP_REQUEST_DURATION, () => new Histogram({
    name: HTTP_REQUEST_DURATION,
    help: 'Time from the request\'s arrival to its answer, seconds, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [...HTTP_DURATION_BUCKETS],
    registers: [registry],
  })) as Histogram<'method' | 'route' | 'status_code'>;
  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) => {
    const text = await registry.metrics();
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text);
  });
}, { name: 'metrics' });

/** The counters of a connection pool that registerPoolMetrics reads (a pg.Pool has them). */
export interface PoolCounters {
  /** Connections open, idle or lent out. */
  readonly totalCount: number;
  /** Connections open and idle. */
  readonly idleCount: number;
  /** Requests waiting for a connection. */
  readonly waitingCount: number;
  /** The pool's options; `max` is its size (node-postgres' default 10 when unset). */
  readonly options: { readonly max?: number | undefined };
}

/**
 * Registers the state of this process's PostgreSQL pools, read at scrape time, each series
 * labelled `pool` with the key it has in `pools` (e.g. `{ main: pool, accounts: accountPool }`):
 * - `sinilill_db_pool_connections{pool,state}`: connections by state, `in_use` (lent out) or `idle`;
 * - `sinilill_db_pool_waiting_requests{pool}`: requests waiting for a connection;
 * - `sinilill_db_pool_max_connections{pool}`: the pool's size.
 * A pool with every connection in use makes requests wait: the PostgresPoolSaturated alert
 * (infra/prometheus/alerts.yml). Call once per registry.
 */
export function registerPoolMetrics(registry: Registry, pools: Readonly<Record<string, PoolCounters>>): void {
  const entries = Object.entries(pools);
  const connections: Gauge<'pool' | 'state'> = new Gauge({
    name: 'sinilill_db_pool_connections', help: 'Connections of the process\'s PostgreSQL pool by state (in_use, idle)',
    labelNames: ['pool', 'state'] as const, registers: [registry],
    collect() {
      for (const [name, pool] of entries) {
        connections.set({ pool: name, state: 'in_use' }, pool.totalCount - pool.idleCount);
        connections.set({ pool: name, state: 'idle' }, pool.idleCount);
      }
    },
  });
  const waiting: Gauge<'pool'> = new Gauge({
    name: 'sinilill_db_pool_waiting_requests', help: 'Requests waiting for a connection of the process\'s PostgreSQL pool',
    labelNames: ['pool'] as const, registers: [registry],
    collect() {
      for (const [name, pool] of entries) waiting.set({ pool: name }, pool.waitingCount);
    },
  });
  const size: Gauge<'pool'> = new Gauge({
    name: 'sinilill_db_pool_max_connections', help: 'Size of the process\'s PostgreSQL pool (its max connections)',
    labelNames: ['pool'] as const, registers: [registry],
    collect() {
      for (const [name, pool] of entries) size.set({ pool: name }, pool.options.max ?? 10);
    },
  });
}
