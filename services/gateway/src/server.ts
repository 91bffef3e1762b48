/**
 * Wires the gateway from configuration and listens on PORT.
 *
 * Shutdown (close-with-grace): on SIGTERM or SIGINT /health/ready answers 503, the proxied live
 * streams end, the server stops accepting, the proxied requests in flight finish and the process
 * exits 0, within SHUTDOWN_DELAY_MS (else exit 1). An uncaught error is logged (pino, `err`) and
 * exits 1 after the same close (@sinilill/http installShutdown, bound SHUTDOWN_DELAY_MS).
 */
import { loadConfig } from '@sinilill/config';
import { createMetricsRegistry, installShutdown } from '@sinilill/http';
import { startTelemetry } from '@sinilill/telemetry';
import { buildGateway } from './app';

const config = loadConfig();
// Traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set: started before the Fastify
// instance (@sinilill/telemetry); the proxied requests carry the trace on (app.ts).
const telemetry = config.otelEndpoint === null ? null : await startTelemetry({ serviceName: 'gateway', endpoint: config.otelEndpoint });
const app = buildGateway({
  // COMMAND_API_URLS, QUERY_API_URLS (default: one of each on 127.0.0.1), balanced.
  queryApiUrls: config.queryApiUrls,
  commandApiUrls: config.commandApiUrls,
  webRoot: config.webRoot,
  // TRUST_PROXY: a proxy in front (Caddy, an ingress) whose X-Forwarded-For is believed, so that
  // the address forwarded to the APIs is the client's, not the proxy's (docs/decisions/0024).
  trustProxy: config.trustProxy,
  logger: { level: config.logLevel === 'info' ? 'warn' : config.logLevel },
  // GET /metrics with the process metrics; readiness is only "not closing" (app.ts).
  metrics: createMetricsRegistry('gateway'),
});
// Spans buffered are exported once the server has closed.
app.addHook('onClose', async () => { await telemetry?.shutdown(); });
installShutdown(app);
await app.listen({ host: config.host, port: config.port });
