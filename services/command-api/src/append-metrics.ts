/**
 * Append metrics: an EventStore decorator that measures every append the
 * command side makes, whichever command made it. Wired outermost in server.ts, so the latency is
 * the one a command waits for: personal-data sealing, the group commit's wait for its batch
 * (docs/decisions/0029) and the commit itself.
 *
 * Into the given prom-client registry (the process's, served at /metrics):
 * - `sinilill_appends_total{outcome}`: append calls, outcome `ok` (written, or an idempotent
 *   repeat), `conflict` (refused: WrongExpectedRevisionError, or AppendConditionFailedError of
 *   appendToStreamsIf) or `error` (anything else: a database that is down, a duplicate event id);
 * - `sinilill_appended_events_total`: events written (a repeat the store reports as `repeated`
 *   writes none);
 * - `sinilill_append_duration_seconds`: histogram of every call's duration, whatever its outcome;
 * - `sinilill_append_conflicts_total{reason}`: the conflicts again, reason `revision` or
 *   `condition` (the panel of optimistic-concurrency retries).
 *
 * A multi-stream append (appendToStreams, appendToStreamsIf) is one call, however many streams.
 * Reads pass through unmeasured.
 */
import { AppendConditionFailedError, WrongExpectedRevisionError, aroundAppends, type AppendRequest, type AppendResult, type EventStore } from '@sinilill/event-store';
import { Counter, Histogram, registeredMetric, type Registry } from '@sinilill/http';

/** Buckets of sinilill_append_duration_seconds, seconds (a group-committed append: a few ms). */
export const APPEND_DURATION_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

type Outcome = 'ok' | 'conflict' | 'error';

/** The append metrics in `registry` (made once per registry). */
function appendMetrics(registry: Registry) {
  return {
    appends: registeredMetric(registry, 'sinilill_appends_total', () => new Counter({
      name: 'sinilill_appends_total', help: 'Append calls to the event store, by outcome (ok, conflict, error)',
      labelNames: ['outcome'] as const, registers: [registry],
    })) as Counter<'outcome'>,
    events: registeredMetric(registry, 'sinilill_appended_events_total', () => new Counter({
      name: 'sinilill_appended_events_total', help: 'Events written to the event store (idempotent repeats excluded)', registers: [registry],
    })),
    duration: registeredMetric(registry, 'sinilill_append_duration_seconds', () => new Histogram({
      name: 'sinilill_append_duration_seconds', help: 'Duration of an append call as the command waits for it, seconds',
      buckets: [...APPEND_DURATION_BUCKETS], registers: [registry],
    })),
    conflicts: registeredMetric(registry, 'sinilill_append_conflicts_total', () => new Counter({
      name: 'sinilill_append_conflicts_total', help: 'Appends refused by optimistic concurrency, by reason (revision, condition)',
      labelNames: ['reason'] as const, registers: [registry],
    })) as Counter<'reason'>,
  };
}

/** The events an answered append wrote: all of a request's unless the store calls it a repeat. */
function written(requests: readonly AppendRequest[], results: readonly AppendResult[]): number {
  return requests.reduce((sum, request, index) => sum + (results[index]?.repeated === true ? 0 : request.events.length), 0);
}

/**
 * `store` with its appends measured into `registry` (module docs); the answers and errors are the
 * store's own, unchanged. appendToStreamsIf and readStreams exist exactly when `store` has them.
 */
export function withAppendMetrics(store: EventStore, registry: Registry): EventStore {
  const metrics = appendMetrics(registry);
  return aroundAppends(store, async (requests, append) => {
    const started = performance.now();
    let outcome: Outcome = 'error';
    try {
      const result = await append();
      outcome = 'ok';
      metrics.events.inc(written(requests, Array.isArray(result) ? result : [result]));
      return result;
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError || error instanceof AppendConditionFailedError) {
        outcome = 'conflict';
        metrics.conflicts.inc({ reason: error instanceof WrongExpectedRevisionError ? 'revision' : 'condition' });
      }
      throw error;
    } finally {
      metrics.appends.inc({ outcome });
      metrics.duration.observe((performance.now() - started) / 1000);
    }
  });
}
