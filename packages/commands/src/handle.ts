/**
 * The command-handling loop shared by the command API and the operators' importer:
 * read the stream → fold its state → decide (pure) → append with the expected revision.
 *
 * - Optimistic concurrency: a conflicting append (someone wrote to the stream meanwhile) is
 *   retried from a fresh read a few times, then answered with CONCURRENCY_CONFLICT.
 * - Idempotency (D7): event ids derive from the command id (a UUID made from
 *   "<commandId>:<index>"), so a repeated command (client retry, importer run twice) finds its
 *   first event stored and returns the original position without deciding again. A command that
 *   came with an Idempotency-Key also carries the fingerprint of its request
 *   (`requestFingerprint`, idempotency.ts) in its events' metadata; a repeat whose fingerprint
 *   differs is refused with IDEMPOTENCY_KEY_REUSED rather than answered with another request's
 *   result.
 */
import { createHash } from 'node:crypto';
import { DomainError, SCHEMA_VERSIONS, type Decider, type DecisionContext, type DomainEventType } from '@sinilill/domain';
import {
  DuplicateEventIdError,
  WrongExpectedRevisionError,
  type AppendRequest,
  type AppendResult,
  type EventData,
  type EventMetadata,
  type EventStore,
  type RecordedEvent,
} from '@sinilill/event-store';
import { canonicalJson, fingerprintOf } from './idempotency';

// Re-exported so that the package's index (which exports this module) exports them too.
export * from './idempotency';

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

/**
 * The first event of a command that was handled before (the one with id `<commandId>:0`), or
 * null. This is the repeat check every command makes before deciding.
 * @throws DomainError('IDEMPOTENCY_KEY_REUSED') when that event was recorded for another
 *   request: both carry a request fingerprint and they differ (another body, path or route under
 *   the same Idempotency-Key). An event without a fingerprint (imported, or recorded before
 *   fingerprints existed), or a command without one, is taken as a repeat as before.
 */
export async function priorCommand(
  store: EventStore,
  metadata: Pick<CommandMetadata, 'commandId' | 'requestFingerprint'>,
): Promise<RecordedEvent | null> {
  const first = await store.findEvent(eventIdFor(metadata.commandId, 0));
  if (first) assertSameRequest(first.metadata, metadata);
  return first;
}

/** IDEMPOTENCY_KEY_REUSED unless the stored command's fingerprint is the request's (or either has none). */
function assertSameRequest(stored: EventMetadata, metadata: Pick<CommandMetadata, 'commandId' | 'requestFingerprint'>): void {
  const storedFingerprint = fingerprintOf(stored);
  if (storedFingerprint === undefined || metadata.requestFingerprint === undefined) return;
  if (storedFingerprint !== metadata.requestFingerprint) {
    throw new DomainError('IDEMPOTENCY_KEY_REUSED', `command ${metadata.commandId} was recorded for another request`);
  }
}

/** Events read by the first and at most by any batch while looking for the end of a command's append. */
const COMMAND_SCAN_FIRST = 4;
const COMMAND_SCAN_MAX = 256;

/**
 * The global position of the last event of the command whose first event is `first`: what the
 * command answered the first time (the position of its last event, for read-your-writes). A
 * command's events are one append, and one append's positions are contiguous (D1), so the command
 * ends where the events after `first` stop carrying its command id. Reads in growing batches
 * (4, 8, … 256 events): one small read for the usual one-event command.
 */
export async function lastPositionOf(store: EventStore, first: RecordedEvent): Promise<number> {
  const commandId = first.metadata.commandId;
  let last = first.globalPosition;
  if (commandId === undefined) return last;
  for (let size = COMMAND_SCAN_FIRST; ; size = Math.min(size * 2, COMMAND_SCAN_MAX)) {
    const batch = await store.readAll({ after: last, maxCount: size });
    for (const event of batch) {
      if (event.metadata.commandId !== commandId) return last;
      last = event.globalPosition;
    }
    if (batch.length < size) return last;
  }
}

/**
 * After an append of a command that came with an Idempotency-Key (its events carry a request
 * fingerprint; `first` is its event 0 as appended): makes sure the stored first
 * event is this request's own. The store takes an append whose ids are all stored already in the
 * same stream as a repeat and returns the stored result, so a racing request from another process
 * with the same key could otherwise pass as if it had appended.
 * @throws DomainError('IDEMPOTENCY_KEY_REUSED') when the stored command came from another request;
 *   DuplicateEventIdError when it came from the same request but decided other data (a racing
 *   twin from another process: nothing of this run was stored; CommandService.idempotent answers
 *   with the stored result). Callers inside a transaction roll it back.
 */
async function confirmOwnAppend(store: EventStore, first: EventData): Promise<void> {
  const requestFingerprint = fingerprintOf(first.metadata);
  if (requestFingerprint === undefined) return;
  const stored = await store.findEvent(first.id);
  if (!stored) return;
  assertSameRequest(stored.metadata, { commandId: first.metadata.commandId ?? first.id, requestFingerprint });
  if (canonicalJson(stored.data) !== canonicalJson(first.data)) throw new DuplicateEventIdError(first.id);
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

/** The answer of handleCommand for a command handled before. */
async function repeatOf<Event>(store: EventStore, first: RecordedEvent): Promise<HandleResult<Event>> {
  return { events: [], position: await lastPositionOf(store, first), repeated: true, stream: first.stream };
}

/**
 * Handles one command against one stream.
 * `known.previous`: the command's first event as the caller already looked it up with
 * priorCommand (null: none), so that the repeat check is not made twice.
 * A repeat answers the position of the first run's last event and `repeated: true`.
 * @throws DomainError from the decider; DomainError('CONCURRENCY_CONFLICT') after repeated
 *   conflicts; DomainError('IDEMPOTENCY_KEY_REUSED') when the command id was recorded for another
 *   request (priorCommand); DuplicateEventIdError when a concurrent twin of the command (another
 *   process, same command id) was stored first: nothing of this run was appended.
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
  const previous = known ? known.previous : await priorCommand(store, metadata);
  if (previous) return repeatOf(store, previous);
  for (let attempt = 1; ; attempt++) {
    const recorded = await store.readStream(stream);
    const state = foldStream(decider, recorded);
    const events = decider.decide(command, state, context);
    if (events.length === 0) {
      // Nothing to do may mean a twin of this request (another process) has just done it.
      const twin = metadata.requestFingerprint !== undefined ? await priorCommand(store, metadata) : null;
      if (twin) return repeatOf(store, twin);
      return { events, position: recorded.at(-1)?.globalPosition ?? 0, repeated: false, stream };
    }
    const data = toEventData(events, eventMetadataOf(context, metadata), metadata.commandId);
    const last = recorded.at(-1);
    let position: number;
    try {
      ({ position } = await store.appendToStream(stream, data, {
        expectedRevision: last ? last.revision : 'no_stream',
      }));
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new DomainError('CONCURRENCY_CONFLICT', stream);
      continue;
    }
    await confirmOwnAppend(store, data[0]!);
    return { events, position, repeated: false, stream };
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
 * @throws DomainError('CONCURRENCY_CONFLICT') when a stream moved since it was read;
 *   DomainError('IDEMPOTENCY_KEY_REUSED') / DuplicateEventIdError when a concurrent request with
 *   the same command id was stored first (see handleCommand).
 */
export async function appendDecided(store: EventStore, decided: DecidedCommand): Promise<number> {
  if (decided.requests.length === 0) return 0;
  let results: AppendResult[];
  try {
    results = await store.appendToStreams(decided.requests);
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) throw new DomainError('CONCURRENCY_CONFLICT', error.stream);
    throw error;
  }
  // The first decided event is the command's event 0 (ids run across the streams in order).
  const first = decided.requests[0]!.events[0]!;
  await confirmOwnAppend(store, first);
  return Math.max(...results.map((result) => result.position));
}
