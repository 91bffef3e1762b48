/**
 * Administrators' decisions about events a projection parked: skip or retry, each an
 * event in stream `operations` decided by the domain's parkedEventDecider. The projection runner
 * (packages/read-models) acts on them when it reaches them in the log; this side only checks
 * that the position names an event of the log and records the decision with that event's id and
 * type. AccountService.skipParkedEvent / retryParkedEvent call these with the request's context.
 */
import { DomainError, parkedEventDecider, streams, type DecisionContext } from '@sinilill/domain';
import type { EventStore, RecordedEvent } from '@sinilill/event-store';
import { handleCommand, type CommandMetadata } from './handle';

/** What an administrator decides about the event at `position`. */
export type ParkedEventDecision =
  | { kind: 'skip'; position: number; projection: string | null; reason: string }
  | { kind: 'retry'; position: number; projection: string | null };

/**
 * The event at global position `position`, or null when the log has none there (never
 * appended, or a rolled-back append's gap).
 */
export async function eventAtPosition(store: EventStore, position: number): Promise<RecordedEvent | null> {
  if (!Number.isSafeInteger(position) || position < 1) return null;
  const [event] = await store.readAll({ after: position - 1, maxCount: 1 });
  return event && event.globalPosition === position ? event : null;
}

/**
 * Records the decision (ProjectionEventSkipped or ProjectionEventRetryRequested) in stream
 * `operations`. Idempotent by command id like every command (docs/decisions/0007).
 * @returns the global position of the recorded event (send it back as x-min-position: once the
 *   projections are there, the park is resolved, or shows the retry's new error).
 * @throws DomainError NOT_FOUND (no event at `position`), FORBIDDEN, INVALID_REQUEST,
 *   VALUE_TOO_LONG (parkedEventDecider), CONCURRENCY_CONFLICT.
 */
export async function decideAboutParkedEvent(
  store: EventStore,
  decision: ParkedEventDecision,
  context: DecisionContext,
  metadata: CommandMetadata,
): Promise<{ position: number }> {
  const event = await eventAtPosition(store, decision.position);
  if (!event) throw new DomainError('NOT_FOUND', `no event at position ${decision.position}`);
  const ref = { projection: decision.projection, position: decision.position, eventId: event.id, eventType: event.type };
  const command = decision.kind === 'skip'
    ? { type: 'SkipParkedEvent' as const, data: { ...ref, reason: decision.reason } }
    : { type: 'RetryParkedEvent' as const, data: ref };
  const result = await handleCommand(store, streams.operations(), parkedEventDecider, command, context, metadata);
  return { position: result.position };
}
