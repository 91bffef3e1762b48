/**
 * The OpenTelemetry SDK of a service, started by its server.ts only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set. The SDK, its exporter and the instrumentations are required
 * only then (sdkRequire), so a service with traces off never loads them.
 *
 * Why patch after loading: the services run as esbuild bundles in ESM (docs/decisions/0020) whose npm imports are
 * hoisted and evaluated before any of our code, so `pg`, `pg-pool`, `ioredis` and Node's `http`
 * are loaded before the SDK starts, and the instrumentations' require hooks (which patch a module
 * as it is required) would never see them. startTelemetry therefore requires those modules once
 * more right after the instrumentations are enabled: the require hook then patches the copies
 * already loaded, in place, and since the patches sit on the prototypes (pg's Client.query,
 * pg-pool's Pool.connect, ioredis's sendCommand, http.Server's emit) they reach the pools and
 * connections made before as well as after. The Fastify spans come from @fastify/otel, which is a
 * plugin, not a patch: `registerOnInitialization` adds it to every Fastify instance made after the
 * start through Fastify's `fastify.initialization` diagnostics channel, before any route exists.
 * Limits: a module imported only by an ESM file that bound a patched *function* by name at import
 * (`import { request } from 'node:http'`) keeps the unpatched function; undici (fetch, the
 * gateway's proxy) is not instrumented, so the gateway injects the trace context into its proxied
 * requests itself (services/gateway/src/app.ts).
 *
 * Traces only: no metrics (prom-client serves those) and no log export (pino writes to stdout).
 */
import { createRequire } from 'node:module';
import { DiagLogLevel, diag } from '@opentelemetry/api';
// Types only (erased): the modules themselves are required at start (sdkRequire).
import type * as FastifyOtelModule from '@fastify/otel';
import type * as ExporterModule from '@opentelemetry/exporter-trace-otlp-http';
import type * as HttpModule from '@opentelemetry/instrumentation-http';
import type * as IORedisModule from '@opentelemetry/instrumentation-ioredis';
import type * as PgModule from '@opentelemetry/instrumentation-pg';
import type * as SdkModule from '@opentelemetry/sdk-node';

export interface TelemetryOptions {
  /** `service.name` of the spans: `command-api`, `query-api`, `projector`, `gateway`. */
  serviceName: string;
  /** The collector's OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT, no trailing slash); spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  /** Where the SDK's errors go (a failed export, say), pino-shaped; default stderr as one JSON line. */
  warn?: (fields: Record<string, unknown>, message: string) => void;
}

/** A started SDK. */
export interface Telemetry {
  /** Exports what is buffered and stops; gives up after `timeoutMs` (default 2000) so a shutdown is never held by a collector. */
  shutdown(timeoutMs?: number): Promise<void>;
}

/** The modules whose loaded copies are patched after the start (module docs). */
const PATCHED_MODULES = ['http', 'https', 'pg', 'pg-pool', 'ioredis'] as const;

/**
 * True for the paths that probes and scrapers poll (health, metrics): not traced, since a span for
 * every probe of every process says nothing and buries the requests.
 */
export function isProbePath(url: string | undefined): boolean {
  return url !== undefined && (url === '/health' || url.startsWith('/health/') || url.startsWith('/metrics'));
}

/**
 * The instrumentations of every service: incoming and outgoing HTTP (Node's http), Fastify's
 * request, hook and handler spans (@fastify/otel, added to every Fastify instance made from now
 * on), and pg and ioredis — these two only under a span already (requireParentSpan), so that the
 * projector's lease queries and BullMQ's polling of Redis make no traces of their own. Each is
 * enabled as it is made (their default: require hooks installed, @fastify/otel subscribed) and
 * records through the global tracer provider, which NodeSDK (or a test's provider) registers.
 */
export function createInstrumentations() {
  const load = sdkRequire();
  const { HttpInstrumentation } = load('@opentelemetry/instrumentation-http') as typeof HttpModule;
  const { PgInstrumentation } = load('@opentelemetry/instrumentation-pg') as typeof PgModule;
  const { IORedisInstrumentation } = load('@opentelemetry/instrumentation-ioredis') as typeof IORedisModule;
  const { FastifyOtelInstrumentation } = load('@fastify/otel') as typeof FastifyOtelModule;
  return [
    new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => isProbePath(request.url) }),
    new FastifyOtelInstrumentation({ registerOnInitialization: true, ignorePaths: (route) => isProbePath(route.url) }),
    new PgInstrumentation({ requireParentSpan: true }),
    new IORedisInstrumentation({ requireParentSpan: true }),
  ];
}

/**
 * Requires the instrumented modules once more, so that the instrumentations' require hook patches
 * the copies the bundle loaded before the SDK started (module docs). A module that is not
 * installed is skipped. Call it after the instrumentations are enabled.
 */
export function patchLoadedModules(): void {
  const load = createRequire(import.meta.url);
  for (const name of PATCHED_MODULES) {
    try {
      load(name);
    } catch {
      // Not installed here: nothing of it to trace.
    }
  }
}

/**
 * A require that resolves from this package's directory, where npm put the SDK (nested in
 * packages/telemetry/node_modules: its versions of @opentelemetry/instrumentation and the logs
 * API differ from the ones hoisted for @fastify/otel). A bundle (services/<name>/dist) would not
 * find them from its own place; the package is found through its workspace link, which a
 * deployment's `npm ci` makes too.
 */
function sdkRequire(): NodeJS.Require {
  const here = createRequire(import.meta.url);
  return createRequire(here.resolve('@sinilill/telemetry/package.json'));
}

/** Routes the SDK's own errors (diag) to `warn`; its warnings are left out (see startTelemetry). */
function diagnosticsTo(warn: NonNullable<TelemetryOptions['warn']>): void {
  const report = (message: string, ...args: unknown[]) => warn({ detail: args.map((arg) => (arg instanceof Error ? arg.message : String(arg))) }, `opentelemetry: ${message}`);
  const quiet = () => undefined;
  // ERROR only: at WARN each instrumentation says its module "has been loaded before" it, which
  // is true and handled (patchLoadedModules).
  diag.setLogger({ error: report, warn: quiet, info: quiet, debug: quiet, verbose: quiet }, { logLevel: DiagLogLevel.ERROR, suppressOverrideMessage: true });
}

/**
 * Starts the SDK: a tracer provider exporting to `<endpoint>/v1/traces` (OTLP over HTTP, JSON) in
 * batches, the W3C trace-context propagator, the AsyncLocalStorage context manager and the
 * instrumentations (createInstrumentations), then patches the modules loaded before it
 * (patchLoadedModules). Call it at the top of server.ts, before any Fastify instance is made.
 * Sampling and resource attributes follow the standard OTEL_* variables (OTEL_TRACES_SAMPLER...).
 */
export async function startTelemetry(options: TelemetryOptions): Promise<Telemetry> {
  const warn = options.warn ?? ((fields, message) => console.error(JSON.stringify({ level: 50, time: Date.now(), msg: message, ...fields })));
  diagnosticsTo(warn);
  const load = sdkRequire();
  const { NodeSDK } = load('@opentelemetry/sdk-node') as typeof SdkModule;
  const { OTLPTraceExporter } = load('@opentelemetry/exporter-trace-otlp-http') as typeof ExporterModule;
  const instrumentations = createInstrumentations();
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${options.endpoint}/v1/traces` }),
    instrumentations,
    // Traces only (module docs): no metric readers, no log processors from the OTEL_* defaults.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  patchLoadedModules();
  return {
    async shutdown(timeoutMs = 2000) {
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        timer.unref();
      });
      await Promise.race([sdk.shutdown().catch((error: unknown) => warn({ err: error }, 'traces not flushed')), bound]);
      clearTimeout(timer);
    },
  };
}
