/**
 * Traces in tests: a tracer provider that keeps every finished span in memory,
 * registered globally with the AsyncLocalStorage context manager and the W3C propagator, and the
 * services' instrumentations (createInstrumentations: http, @fastify/otel, pg, ioredis) enabled and
 * applied to the modules this process loaded already. Fastify instances made after the start get
 * the Fastify spans. One at a time per process: start it before building the apps, shut it down
 * after closing them.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { createInstrumentations, patchLoadedModules } from './sdk';

export type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

export interface InMemoryTracing {
  exporter: InMemorySpanExporter;
  /** Every span finished so far, in the order they ended. */
  spans(): ReadableSpan[];
  /** Forgets the spans kept so far. */
  reset(): void;
  /** Disables the instrumentations (unpatching what they patched) and unregisters the provider, context manager and propagator. */
  shutdown(): Promise<void>;
}

/** Starts recording every span of this process in memory (module docs). */
export async function startInMemoryTracing(): Promise<InMemoryTracing> {
  const exporter = new InMemorySpanExporter();
  // Finished spans go to the exporter synchronously (no batching): a test reads them at once.
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  // Enabled as they are made; the modules this process loaded already are patched here.
  const instrumentations = createInstrumentations();
  patchLoadedModules();
  return {
    exporter,
    spans: () => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
    async shutdown() {
      for (const instrumentation of instrumentations) instrumentation.disable();
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
