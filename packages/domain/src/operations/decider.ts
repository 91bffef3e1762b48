/**
 * Administrators' decisions about events a projection parked: skip one for good, or
 * ask the projections to apply it again after a fix. Both are facts in stream `operations`
 * (ProjectionEventSkipped, ProjectionEventRetryRequested), read by the projection runner
 * (packages/read-models), which resolves the park in the same transaction as its checkpoint.
 *
 * The decider checks who decides and the shape of the decision; whether the event is parked is a
 * read-model fact the runner settles (a decision about an event that is not parked, or no longer,
 * changes nothing there). The command side fills in the event's id and type from the log.
 */
import { match } from 'ts-pattern';
import { isPrivileged } from '../actors';
import type { Decider, DecisionContext } from '../decider';
import { DomainError } from '../errors';
import type { OperationsEvent, ProjectionEventRetryRequested, ProjectionEventSkipped } from '../events';
import { requireId, textLength } from '../validation';

/** Longest reason of a skip, characters. */
export const SKIP_REASON_MAX = 500;

/** A projection's name as the runner keys checkpoints and parks (`team-directory`). */
export const PROJECTION_NAME_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;

/** What names the parked event: the projection (null: every projection that parked it) and the event. */
interface ParkedEventRef {
  projection: string | null;
  /** Global position of the parked event. */
  position: number;
  eventId: string;
  eventType: string;
}

/** Skip the parked event for good: the projection stays without it. */
export interface SkipParkedEvent {
  type: 'SkipParkedEvent';
  data: ParkedEventRef & { reason: string };
}
/** Apply the parked event again (after its cause was fixed). */
export interface RetryParkedEvent {
  type: 'RetryParkedEvent';
  data: ParkedEventRef;
}
export type ParkedEventCommand = SkipParkedEvent | RetryParkedEvent;

/** The decisions need no state of the stream: each stands on its own. */
export type OperationsState = null;

function checkRef(ref: ParkedEventRef, ctx: DecisionContext): void {
  if (!isPrivileged(ctx.actor)) throw new DomainError('FORBIDDEN', 'only an administrator decides about parked events');
  requireId(ref.position, 'position');
  if (ref.projection !== null && (typeof ref.projection !== 'string' || !PROJECTION_NAME_PATTERN.test(ref.projection))) {
    throw new DomainError('INVALID_REQUEST', 'projection must be a projection name or null');
  }
  if (typeof ref.eventId !== 'string' || ref.eventId === '' || typeof ref.eventType !== 'string' || ref.eventType === '') {
    throw new DomainError('INVALID_REQUEST', 'the parked event must be named by id and type');
  }
}

function skip(command: SkipParkedEvent, ctx: DecisionContext): ProjectionEventSkipped[] {
  checkRef(command.data, ctx);
  if (typeof command.data.reason !== 'string') throw new DomainError('INVALID_REQUEST', 'reason must be a text');
  const reason = command.data.reason.trim();
  if (textLength(reason) > SKIP_REASON_MAX) throw new DomainError('VALUE_TOO_LONG', `reason over ${SKIP_REASON_MAX} characters`);
  const { projection, position, eventId, eventType } = command.data;
  return [{ type: 'ProjectionEventSkipped', data: { projection, position, eventId, eventType, reason, skippedAt: ctx.now } }];
}

function retry(command: RetryParkedEvent, ctx: DecisionContext): ProjectionEventRetryRequested[] {
  checkRef(command.data, ctx);
  const { projection, position, eventId, eventType } = command.data;
  return [{ type: 'ProjectionEventRetryRequested', data: { projection, position, eventId, eventType, requestedAt: ctx.now } }];
}

/**
 * SkipParkedEvent → [ProjectionEventSkipped]; RetryParkedEvent → [ProjectionEventRetryRequested].
 * ADMIN or SYSTEM only (FORBIDDEN); a position that is not a positive integer, a malformed
 * projection name or event reference → INVALID_REQUEST; a reason over SKIP_REASON_MAX characters
 * (trimmed) → VALUE_TOO_LONG. Stream `operations`; its other events (ReadModelsReplayed) change
 * nothing here.
 */
export const parkedEventDecider: Decider<ParkedEventCommand, OperationsEvent, OperationsState> = {
  initialState: () => null,
  decide: (command, _state, ctx) =>
    match(command)
      .with({ type: 'SkipParkedEvent' }, (c) => skip(c, ctx))
      .with({ type: 'RetryParkedEvent' }, (c) => retry(c, ctx))
      .exhaustive(),
  evolve: (state) => state,
};
