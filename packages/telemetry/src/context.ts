/**
 * Trace context across the wake-up queue, through @opentelemetry/api only: with
 * no SDK registered (OTEL_EXPORTER_OTLP_ENDPOINT unset) every call here is a no-op that costs a
 * property read or two — no carrier is made, no span records.
 *
 * The carrier is the W3C trace context (`traceparent`, and `tracestate` when there is one) as a
 * plain object of strings, so it travels in a BullMQ job's JSON data.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Context, type Link, type Span, type Tracer } from '@opentelemetry/api';

export type { Attributes, Context, Link, Span } from '@opentelemetry/api';

/** W3C trace context headers as a plain object: `{ traceparent: '00-<trace id>-<span id>-01' }`. */
export type TraceCarrier = Record<string, string>;

/** The name our own spans are recorded under (the instrumentation scope). */
const SCOPE = 'sinilill';

/** The tracer of our own spans (a no-op one until an SDK registers; a proxy follows it then). */
export function tracer(): Tracer {
  return trace.getTracer(SCOPE);
}

/**
 * The trace context of `from` (default: the active one, e.g. a request's span) as a carrier to
 * put into a message; undefined when there is no span in it (tracing off, or outside any trace).
 */
export function traceCarrier(from: Context = context.active()): TraceCarrier | undefined {
  if (trace.getSpanContext(from) === undefined) return undefined;
  const carrier: TraceCarrier = {};
  propagation.inject(from, carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/**
 * The carrier of a message read back, checked: an object whose `traceparent` (and `tracestate`,
 * if any) are strings; anything else (an older message without one, a damaged one) is undefined.
 */
export function asTraceCarrier(value: unknown): TraceCarrier | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { traceparent, tracestate } = value as Record<string, unknown>;
  if (typeof traceparent !== 'string' || traceparent.length > 128) return undefined;
  if (tracestate !== undefined && (typeof tracestate !== 'string' || tracestate.length > 512)) return undefined;
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}

/** The context a carrier names (a remote parent for a new span); the root context without one. */
export function contextFromCarrier(carrier: TraceCarrier | undefined): Context {
  return carrier === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, carrier);
}

/** A span link to the span a carrier names; undefined without a valid one. */
export function linkFromCarrier(carrier: TraceCarrier | undefined): Link | undefined {
  const spanContext = trace.getSpanContext(contextFromCarrier(carrier));
  return spanContext === undefined ? undefined : { context: spanContext };
}

/** The trace id of the active span (for a log line), undefined outside a recorded trace. */
export function activeTraceId(): string | undefined {
  const span = trace.getActiveSpan();
  return span?.isRecording() ? span.spanContext().traceId : undefined;
}

/** How a span made by inSpan relates to its parent (OpenTelemetry's span kinds we use). */
export type SpanRole = 'internal' | 'consumer';

/**
 * Runs `work` under a new active span `name` (so that the pg and ioredis spans of its queries are
 * its children), a child of `parent` (default: the active context) with `links` to other traces;
 * an error thrown is recorded on the span (status ERROR) and rethrown; the span ends however
 * `work` ends. With tracing off the span is a no-op one (`span.isRecording()` false).
 */
export function inSpan<T>(
  name: string,
  options: { parent?: Context; links?: Link[]; role?: SpanRole; attributes?: Attributes },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const kind = options.role === 'consumer' ? SpanKind.CONSUMER : SpanKind.INTERNAL;
  return tracer().startActiveSpan(name, { kind, links: options.links ?? [], attributes: options.attributes ?? {} }, options.parent ?? context.active(), async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}
