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
  type AppendRequest,
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

/** The metadata every event of a command carries (actor, correlation, command id, `imported`). */
export function eventMetadataOf(context: DecisionContext, metadata: CommandMetadata): EventMetadata {
  return {
    actor: { userId: context.actor.userId, role: context.actor.role },
    correlationId: metadata.correlationId,
    causationId: metadata.causationId,
    commandId: metadata.commandId,
    ...(metadata.imported ? { imported: true } : {}),
  };
}

/** Decided events as the store takes them; ids `<commandId>:<firstIndex + i>`. */
function toEventData(
  events: readonly { type: DomainEventType; data: unknown }[],
  metadata: EventMetadata,
  commandId: string,
  firstIndex = 0,
): EventData[] {
  return events.map((event, index) => ({
    id: eventIdFor(commandId, firstIndex + index),
    type: event.type,
    schemaVersion: SCHEMA_VERSIONS[event.type],
    data: event.data,
    metadata,
  }));
}

/**
 * Handles one command against one stream.
 * `known.previous`: the command's first event as the caller already looked it up (null: none),
 * so that the repeat check is not made twice.
 * @throws DomainError from the decider; DomainError('CONCURRENCY_CONFLICT') after repeated conflicts.
 */
export async function handleCommand<Command, Event extends { type: DomainEventType; data: unknown }, State>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, Event, State, DecisionContext>,
  command: Command,
  context: DecisionContext,
  metadata: CommandMetadata,
  known?: { previous: RecordedEvent | null },
): Promise<HandleResult<Event>> {
  const previous = known ? known.previous : await store.findEvent(eventIdFor(metadata.commandId, 0));
  if (previous) return { events: [], position: previous.globalPosition, repeated: true, stream: previous.stream };
  for (let attempt = 1; ; attempt++) {
    const recorded = await store.readStream(stream);
    const state = foldStream(decider, recorded);
    const events = decider.decide(command, state, context);
    if (events.length === 0) {
      return { events, position: recorded.at(-1)?.globalPosition ?? 0, repeated: false, stream };
    }
    const data = toEventData(events, eventMetadataOf(context, metadata), metadata.commandId);
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

/** One stream's part of a command that spans several streams (see decideAcrossStreams). */
export interface StreamDecision {
  stream: string;
  /** Folds the stream's recorded events and decides (pure); throws DomainError when refused. */
  decide(recorded: readonly RecordedEvent[], context: DecisionContext): { type: DomainEventType; data: unknown }[];
}

/** Binds a decider and a command to a stream, for decideAcrossStreams. */
export function streamDecision<Command, Event extends { type: DomainEventType; data: unknown }, State>(
  stream: string,
  decider: Decider<Command, Event, State, DecisionContext>,
  command: Command,
): StreamDecision {
  return { stream, decide: (recorded, context) => decider.decide(command, foldStream(decider, recorded), context) };
}

/** Decided, not yet appended: what appendDecided writes, all or nothing. */
export interface DecidedCommand {
  requests: AppendRequest[];
  /** Every decided event, in append order. */
  events: { type: DomainEventType; data: unknown }[];
}

/**
 * Reads every stream and decides every part of a command that spans streams (registration: the
 * team, the participant and the account), without appending. A refusal of any part refuses the
 * whole. Event ids run `<commandId>:0…n-1` across the streams, in order.
 */
export async function decideAcrossStreams(
  store: EventStore,
  decisions: readonly StreamDecision[],
  context: DecisionContext,
  metadata: CommandMetadata,
): Promise<DecidedCommand> {
  const eventMetadata = eventMetadataOf(context, metadata);
  const requests: AppendRequest[] = [];
  const all: { type: DomainEventType; data: unknown }[] = [];
  for (const decision of decisions) {
    const recorded = await store.readStream(decision.stream);
    const events = decision.decide(recorded, context);
    const last = recorded.at(-1);
    requests.push({
      stream: decision.stream,
      events: toEventData(events, eventMetadata, metadata.commandId, all.length),
      expectedRevision: last ? last.revision : 'no_stream',
    });
    all.push(...events);
  }
  return { requests: requests.filter((request) => request.events.length > 0), events: all };
}

/**
 * Appends what decideAcrossStreams decided, atomically (all streams or none).
 * @returns the global position of the last event (0 when nothing was decided).
 * @throws DomainError('CONCURRENCY_CONFLICT') when a stream moved since it was read.
 */
export async function appendDecided(store: EventStore, decided: DecidedCommand): Promise<number> {
  if (decided.requests.length === 0) return 0;
  try {
    const results = await store.appendToStreams(decided.requests);
    return Math.max(...results.map((result) => result.position));
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) throw new DomainError('CONCURRENCY_CONFLICT', error.stream);
    throw error;
  }
}
