/**
 * The command-handling loop shared by the command API and the operators' importer:
 * read the stream → fold its state → decide (pure) → append with the expected revision.
 *
 * - Optimistic concurrency: a conflicting append (someone wrote to the stream meanwhile) is
 *   retried from a fresh read a few times, then answered with CONCURRENCY_CONFLICT.
 * - Idempotency: event ids derive from the command id (a UUID made from "<commandId>:<index>"),
 *   so a repeated command (client retry, importer run twice) finds its first event stored and
 *   returns the original position without deciding again.
 */
import { createHash } from 'node:crypto';
import { DomainError, SCHEMA_VERSIONS, type Decider, type DecisionContext, type DomainEventType } from '@sinilill/domain';
import {
  WrongExpectedRevisionError,
  type EventData,
  type EventMetadata,
  type EventStore,
  type RecordedEvent,
} from '@sinilill/event-store';

/** Metadata of one command: who, why, and the ids that tie its events together. */
export interface CommandMetadata {
  /** Unique per command; repeated commands with the same id are applied once. */
  commandId: string;
  correlationId: string;
  causationId: string | null;
  imported?: boolean;
}

/** A UUID (version-5 layout) derived from a name: the same name always gives the same id. */
export function deterministicUuid(name: string): string {
  const hash = createHash('sha1').update(`sinilill:${name}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id of the `index`-th event a command produces. */
export function eventIdFor(commandId: string, index: number): string {
  return deterministicUuid(`${commandId}:${index}`);
}

export interface HandleResult<Event> {
  /** The events this command appended (empty when it was a repeat). */
  events: Event[];
  /** Global position of the command's last event (of the original run, for a repeat). */
  position: number;
  /** True when the command had been handled before and nothing was appended. */
  repeated: boolean;
  /** The stream written (for a repeat: the stream the original run wrote). */
  stream: string;
}

/** The numeric id at the end of a stream name (`team-12` → 12). */
export function idOfStream(stream: string): number {
  return Number(stream.slice(stream.lastIndexOf('-') + 1));
}

/** Folds a stream's recorded events into a decider's state. */
export function foldStream<State, Event>(
  decider: Pick<Decider<unknown, Event, State, unknown>, 'initialState' | 'evolve'>,
  events: readonly RecordedEvent[],
): State {
  let state = decider.initialState();
  for (const event of events) state = decider.evolve(state, { type: event.type, data: event.data } as Event);
  return state;
}

const MAX_ATTEMPTS = 4;

/**
 * Handles one command against one stream.
 * @throws DomainError from the decider; DomainError('CONCURRENCY_CONFLICT') after repeated conflicts.
 */
export async function handleCommand<Command, Event extends { type: DomainEventType; data: unknown }, State>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, Event, State, DecisionContext>,
  command: Command,
  context: DecisionContext,
  metadata: CommandMetadata,
): Promise<HandleResult<Event>> {
  const previous = await store.findEvent(eventIdFor(metadata.commandId, 0));
  if (previous) return { events: [], position: previous.globalPosition, repeated: true, stream: previous.stream };
  for (let attempt = 1; ; attempt++) {
    const recorded = await store.readStream(stream);
    const state = foldStream(decider, recorded);
    const events = decider.decide(command, state, context);
    if (events.length === 0) {
      return { events, position: recorded.at(-1)?.globalPosition ?? 0, repeated: false, stream };
    }
    const eventMetadata: EventMetadata = {
      actor: { userId: context.actor.userId, role: context.actor.role },
      correlationId: metadata.correlationId,
      causationId: metadata.causationId,
      commandId: metadata.commandId,
      ...(metadata.imported ? { imported: true } : {}),
    };
    const data: EventData[] = events.map((event, index) => ({
      id: eventIdFor(metadata.commandId, index),
      type: event.type,
      schemaVersion: SCHEMA_VERSIONS[event.type],
      data: event.data,
      metadata: eventMetadata,
    }));
    const last = recorded.at(-1);
    try {
      const result = await store.appendToStream(stream, data, {
        expectedRevision: last ? last.revision : 'no_stream',
      });
      return { events, position: result.position, repeated: false, stream };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new DomainError('CONCURRENCY_CONFLICT', stream);
    }
  }
}
