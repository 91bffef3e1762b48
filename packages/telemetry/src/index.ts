/**
 * Traces: OpenTelemetry, on when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 *
 * - startTelemetry (./sdk.ts): the SDK, exporting over OTLP/HTTP, with the http, Fastify, pg and
 *   ioredis instrumentations; each service's server.ts starts it first thing when the endpoint is
 *   configured. The SDK is required only then: with traces off it is never loaded.
 * - The trace context across the wake-up queue (./context.ts), through @opentelemetry/api only,
 *   which is a no-op costing next to nothing while no SDK is registered.
 * - Tests: `@sinilill/telemetry/testing` records spans in memory (./testing.ts).
 */
export { startTelemetry, isProbePath, type Telemetry, type TelemetryOptions } from './sdk';
export {
  activeTraceId,
  asTraceCarrier,
  contextFromCarrier,
  inSpan,
  linkFromCarrier,
  traceCarrier,
  tracer,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanRole,
  type TraceCarrier,
} from './context';
