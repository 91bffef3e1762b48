/**
 * What every command carries and what its events are named by (docs/decisions/0007): the command's metadata, the
 * metadata of its events, and the event ids derived from the command id. Shared by the command
 * API's handlers and the operators' importer (services/cli), which decides with the pure deciders
 * of @sinilill/domain and names its events with `eventIdFor` and `eventMetadataOf`.
 */
import { createHash } from 'node:crypto';
import type { ActingUser, Decider, DecisionContext } from '@sinilill/domain';
import type { EventMetadata, RecordedEvent } from '@sinilill/event-store';

/** Metadata of one command: who, why, and the ids that tie its events together. */
export interface CommandMetadata {
  /** Unique per command; repeated commands with the same id are applied once. */
  commandId: string;
  correlationId: string;
  causationId: string | null;
  imported?: boolean;
  /**
   * The fingerprint of the request the command came from (requestFingerprint(): SHA-256 hex of
   * route and validated input), set when the request carried an Idempotency-Key. Recorded in the
   * metadata of every event of the command; a repeat of the command id with another fingerprint
   * is refused (IDEMPOTENCY_KEY_REUSED). Undefined for commands without a key (a fresh id each
   * time) and for the importer's (its ids name the old rows).
   */
  requestFingerprint?: string;
}

/** The metadata of a command's events: the store's EventMetadata plus the request fingerprint. */
export interface CommandEventMetadata extends EventMetadata {
  requestFingerprint?: string;
}

/** Who asks, when, and the command's ids. */
export interface CommandRequest {
  actor: ActingUser;
  metadata: CommandMetadata;
  /** The decision's instant; default the service's clock (the importer passes the original time). */
  now?: Date;
}

/** A UUID (version-5 layout) derived from a name: the same name always gives the same id. */
export function deterministicUuid(name: string): string {
  const hash = createHash('sha1').update(`sinilill:${name}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The id of the `index`-th event a command produces (`<commandId>:<index>`, 0-based). A command
 * that writes several streams numbers its events across them, in append order (docs/decisions/0007).
 */
export function eventIdFor(commandId: string, index: number): string {
  return deterministicUuid(`${commandId}:${index}`);
}

/**
 * The metadata every event of a command carries (actor, correlation, command id, `imported`, and
 * `requestFingerprint` for a command that came with an Idempotency-Key).
 */
export function eventMetadataOf(context: DecisionContext, metadata: CommandMetadata): CommandEventMetadata {
  return {
    actor: { userId: context.actor.userId, role: context.actor.role },
    correlationId: metadata.correlationId,
    causationId: metadata.causationId,
    commandId: metadata.commandId,
    ...(metadata.imported ? { imported: true } : {}),
    ...(metadata.requestFingerprint !== undefined ? { requestFingerprint: metadata.requestFingerprint } : {}),
  };
}

/** The numeric id at the end of a stream name (`team-12` → 12). */
export function idOfStream(stream: string): number {
  return Number(stream.slice(stream.lastIndexOf('-') + 1));
}

/** Folds a stream's recorded events into a decider's state (initialState, then evolve in revision order). */
export function foldStream<State, Event>(
  decider: Pick<Decider<unknown, Event, State, unknown>, 'initialState' | 'evolve'>,
  events: readonly RecordedEvent[],
): State {
  let state = decider.initialState();
  for (const event of events) state = decider.evolve(state, { type: event.type, data: event.data } as Event);
  return state;
}
