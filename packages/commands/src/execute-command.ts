/**
 * The one write path of every command: the command API's handlers and the
 * operators' tools run their commands through `executeCommand`, which owns
 *
 * 1. the repeat check of the command id (docs/decisions/0007): a command handled before appends nothing and answers
 *    the position of the first run's last event (priorCommand, lastPositionOf, repeats.ts);
 * 2. reading each stream the command needs, once per attempt;
 * 3. the pure decision over what was read (CommandSpec.decide: the domain's deciders);
 * 4. ONE atomic append of every stream's events (`appendToStreams`), each stream with the
 *    revision it was read at; a stream that was read but gets no events is part of the append as
 *    a revision check with zero events, so a decision is never made on a state that changed
 *    before its append; event ids run `<commandId>:0…n-1` across the streams, in the decision's
 *    order (eventIdFor);
 * 5. ONE retry loop: a WrongExpectedRevisionError (another command wrote a stream meanwhile) is
 *    retried from a fresh read and a fresh decision, at most MAX_ATTEMPTS times in all, then
 *    refused with DomainError('CONCURRENCY_CONFLICT');
 * 6. after-commit hooks (CommandSpec.afterCommit), once, after the commit of an append that wrote
 *    something — never after a refusal, a repeat or an empty decision. Waking the projectors is
 *    the store's own after-commit hook (withAfterCommit, after-commit.ts), not the command's.
 */
import { DomainError, SCHEMA_VERSIONS, isPrivileged, type Decider, type DecisionContext, type DomainEventType } from '@sinilill/domain';
import {
  WrongExpectedRevisionError,
  type AppendRequest,
  type EventData,
  type EventMetadata,
  type EventSelector,
  type EventStore,
  type ExpectedRevision,
  type RecordedEvent,
} from '@sinilill/event-store';
import { eventIdFor, eventMetadataOf, foldStream, type CommandMetadata } from './metadata';
import { assertSameRequest, confirmOwnAppend, lastPositionOf, priorCommand } from './repeats';
import type { SettingsCache } from './settings/settings-cache';

/** How many times a command is decided and appended before CONCURRENCY_CONFLICT (first try included). */
export const MAX_ATTEMPTS = 4;

/** An event as a decider returns it. */
export interface DecidedEvent {
  type: DomainEventType;
  data: unknown;
}

/** One stream's part of a decision: its new events (possibly none), in order. */
export interface StreamWrite {
  stream: string;
  events: readonly DecidedEvent[];
}

/** What one attempt read: the recorded events of every stream the command named. */
export class StreamReads {
  /**
   * @param recorded every stream read, the named ones first, in the order named
   * @param found the streams found by CommandSpec.streamsOf and not named, in stream name order
   */
  constructor(private readonly recorded: ReadonlyMap<string, readonly RecordedEvent[]>, readonly found: readonly string[] = []) {}

  /** The stream's events in revision order. @throws Error for a stream the command did not name. */
  events(stream: string): readonly RecordedEvent[] {
    const events = this.recorded.get(stream);
    if (!events) throw new Error(`executeCommand: stream ${stream} was not read (name it in CommandSpec.streams)`);
    return events;
  }

  /** The stream's state as `decider` folds it. */
  fold<State, Event>(stream: string, decider: Pick<Decider<unknown, Event, State, unknown>, 'initialState' | 'evolve'>): State {
    return foldStream(decider, this.events(stream));
  }

  /** The revision the stream was read at: its last event's, or 'no_stream'. */
  revision(stream: string): ExpectedRevision {
    return this.events(stream).at(-1)?.revision ?? 'no_stream';
  }

  /** The global position of the stream's last event as read (0: the stream is empty). */
  lastPosition(stream: string): number {
    return this.events(stream).at(-1)?.globalPosition ?? 0;
  }

  /** The streams read, in the order named, then those found by CommandSpec.streamsOf. */
  get streams(): string[] {
    return [...this.recorded.keys()];
  }
}

/** A command for executeCommand: what to read, how to decide, and what runs around it. */
export interface CommandSpec {
  /** The streams the decision reads (and may write), read once per attempt, in this order. */
  streams: readonly string[];
  /**
   * Streams found by what they hold: every stream with an event this selector picks is read with
   * `streams` in each attempt (the same round trip where the store's readStreams takes
   * `streamsOf`), is in the attempt's reads (StreamReads.found, those not named) and joins the
   * append as a revision check, as a named stream does. One the selector picks only after the
   * read is not seen by that attempt.
   */
  streamsOf?: EventSelector;
  /**
   * Pure: the decision over what was read, per stream, in append order (a stream may appear once;
   * only streams named in `streams`). Streams with no events are revision checks. Throws
   * DomainError to refuse (nothing is appended).
   */
  decide(read: StreamReads, context: DecisionContext): readonly StreamWrite[];
  context: DecisionContext;
  metadata: CommandMetadata;
  /** The repeat check as the caller already made it (priorCommand; null: not a repeat). Default: made here. */
  prior?: RecordedEvent | null;
  /** Streams the caller has just read for its own checks: the first attempt uses them instead of reading again. */
  known?: ReadonlyMap<string, readonly RecordedEvent[]>;
  /**
   * Runs the attempts (read, decide, append, retries) inside something that commits only if they
   * succeed — an AccountDirectory transaction around the reservations of the command. Default: as
   * they are.
   */
  within?: (attempts: () => Promise<CommandOutcome>) => Promise<CommandOutcome>;
  /** Inside `within`, after each decision that appends and before its append (reservations of what was decided). */
  beforeAppend?: (events: readonly DecidedEvent[], read: StreamReads) => Promise<void>;
  /** After the commit (after `within` returned) of a run that appended; not for a refusal or a repeat. */
  afterCommit?: (outcome: CommandOutcome) => Promise<void> | void;
  /**
   * The switches' cache: each attempt brings it up to date in the same round
   * trip as its streams and decides with its entry-insertion switch (for an actor it binds).
   */
  settings?: SettingsCache;
  /**
   * A condition on the rest of the log, checked with the append (the store's appendToStreamsIf):
   * when it fails nothing is written and executeCommand throws AppendConditionFailedError (the
   * caller reads and decides again).
   */
  condition?: AppendCondition;
}

/** The condition of CommandSpec.condition: no event the selectors pick after a position (EventStore.appendToStreamsIf). */
export type AppendCondition = Parameters<EventStore['appendToStreamsIf']>[1];

/** What executeCommand answers. */
export interface CommandOutcome {
  /** The events this run appended, in order (empty for a repeat or an empty decision). */
  events: DecidedEvent[];
  /**
   * Global position of the command's last event: this run's, or the first run's for a repeat;
   * 0 when nothing was decided.
   */
  position: number;
  /** True when the command had been handled before (or by a twin meanwhile) and nothing was appended. */
  repeated: boolean;
  /** For a repeat: the first run's event 0 (what the caller may answer from). Else null. */
  prior: RecordedEvent | null;
  /** What the last attempt read (null for a repeat found before reading). */
  read: StreamReads | null;
  /** The streams this run wrote events to, in append order. */
  written: string[];
}

/**
 * Runs one command through the write path (see the module's comment).
 * @returns the outcome; `repeated` when the command id was handled before.
 * @throws DomainError from the decision; DomainError('CONCURRENCY_CONFLICT') after MAX_ATTEMPTS
 *   conflicting appends; DomainError('IDEMPOTENCY_KEY_REUSED') when the command id was recorded for
 *   another request; DuplicateEventIdError when a concurrent twin of the command (another process,
 *   same command id) was stored first with other data: nothing of this run was appended.
 */
export async function executeCommand(store: EventStore, spec: CommandSpec): Promise<CommandOutcome> {
  let prior = spec.prior;
  let firstRead: StreamReads | undefined;
  if (prior === undefined && store.readStreams) {
    // The repeat check and the first attempt's reads in one round trip.
    const read = await readStreams(store, spec, spec.known, eventIdFor(spec.metadata.commandId, 0));
    prior = read.event;
    if (prior) assertSameRequest(prior.metadata, spec.metadata);
    firstRead = read.reads;
  } else if (prior === undefined) {
    prior = await priorCommand(store, spec.metadata);
  }
  if (prior) return repeatOf(store, prior);
  const attempts = () => attemptAll(store, spec, firstRead);
  const outcome = spec.within ? await spec.within(attempts) : await attempts();
  if (!outcome.repeated && outcome.events.length > 0) await spec.afterCommit?.(outcome);
  return outcome;
}

/** The outcome of a command handled before: nothing appended, the first run's last position. */
async function repeatOf(store: EventStore, prior: RecordedEvent): Promise<CommandOutcome> {
  return { events: [], position: await lastPositionOf(store, prior), repeated: true, prior, read: null, written: [] };
}

/** The retry loop: read, decide, append; a conflict starts again from a fresh read. */
async function attemptAll(store: EventStore, spec: CommandSpec, firstRead: StreamReads | undefined): Promise<CommandOutcome> {
  const eventMetadata = eventMetadataOf(spec.context, spec.metadata);
  for (let attempt = 1; ; attempt++) {
    const read = attempt === 1 && firstRead ? firstRead : (await readStreams(store, spec, attempt === 1 ? spec.known : undefined)).reads;
    const writes = spec.decide(read, contextOf(spec));
    const plan = appendPlan(read, writes, eventMetadata, spec.metadata.commandId);
    if (plan.events.length === 0) {
      // Nothing to do may mean a twin of this request (another process) has just done it.
      const twin = spec.metadata.requestFingerprint !== undefined ? await priorCommand(store, spec.metadata) : null;
      if (twin) return repeatOf(store, twin);
      return { events: [], position: 0, repeated: false, prior: null, read, written: [] };
    }
    await spec.beforeAppend?.(plan.events, read);
    try {
      const results = spec.condition
        ? await store.appendToStreamsIf(plan.requests, spec.condition)
        : await store.appendToStreams(plan.requests);
      // A store that says nothing was a repeat spares the look-up (one round trip).
      if (results.some((result) => result.repeated !== false)) await confirmOwnAppend(store, plan.requests[0]!.events[0]!);
      const position = Math.max(...results.slice(0, plan.written.length).map((result) => result.position));
      return { events: plan.events, position, repeated: false, prior: null, read, written: plan.written };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new DomainError('CONCURRENCY_CONFLICT', error.stream);
      // A twin of this request (another process) may be what moved the stream.
      const twin = await priorCommand(store, spec.metadata);
      if (twin) return repeatOf(store, twin);
    }
  }
}

/**
 * Every named stream's events (each read once; `known` ones taken as given), the switches' tail
 * when the spec has a SettingsCache, and with `eventId` the stored event of that id: in ONE round
 * trip where the store has readStreams, else stream by stream.
 */
async function readStreams(
  store: EventStore,
  spec: Pick<CommandSpec, 'streams' | 'settings' | 'streamsOf'>,
  known: ReadonlyMap<string, readonly RecordedEvent[]> | undefined,
  eventId?: string,
): Promise<{ reads: StreamReads; event: RecordedEvent | null }> {
  const recorded = new Map<string, readonly RecordedEvent[]>();
  const wanted = [...new Set(spec.streams)].filter((stream) => {
    const given = known?.get(stream);
    if (given) recorded.set(stream, given);
    return !given;
  });
  const tail = spec.settings?.tail();
  const requests = [...wanted.map((stream) => ({ stream })), ...(tail ? [tail] : [])];
  let event: RecordedEvent | null = null;
  let found: RecordedEvent[][] = [];
  const { streamsOf } = spec;
  if (store.readStreams) {
    const read = await store.readStreams(requests, { ...(eventId !== undefined ? { eventId } : {}), ...(streamsOf ? { streamsOf } : {}) });
    wanted.forEach((stream, index) => recorded.set(stream, read.streams[index]!));
    if (tail) spec.settings!.apply(read.streams[wanted.length]!);
    event = read.event;
    found = read.found ?? [];
  } else {
    for (const stream of wanted) recorded.set(stream, await store.readStream(stream));
    if (tail) spec.settings!.apply(await store.readStream(tail.stream, { fromRevision: tail.fromRevision }));
    if (eventId !== undefined) event = await store.findEvent(eventId);
    if (streamsOf) {
      const names = [...new Set((await store.readEvents(streamsOf)).map((e) => e.stream))].sort();
      found = await Promise.all(names.map((name) => store.readStream(name)));
    }
  }
  // In the order named, then the streams found that were not named (a named one is read as named).
  const named = new Set(spec.streams);
  const extra = found.filter((events) => events.length > 0 && !named.has(events[0]!.stream));
  const reads = new Map<string, readonly RecordedEvent[]>(spec.streams.map((stream) => [stream, recorded.get(stream)!]));
  for (const events of extra) reads.set(events[0]!.stream, events);
  return { reads: new StreamReads(reads, extra.map((events) => events[0]!.stream)), event };
}

/** The spec's decision context, with the entry-insertion switch as the settings cache has it now. */
function contextOf(spec: CommandSpec): DecisionContext {
  if (!spec.settings || isPrivileged(spec.context.actor)) return spec.context;
  return { ...spec.context, entryInsertionEnabled: spec.settings.current().entryInsertionEnabled };
}

/** The append of a decision: streams with events first (in the decision's order), then the revision checks. */
function appendPlan(
  read: StreamReads,
  writes: readonly StreamWrite[],
  metadata: EventMetadata,
  commandId: string,
): { requests: AppendRequest[]; events: DecidedEvent[]; written: string[] } {
  const requests: AppendRequest[] = [];
  const events: DecidedEvent[] = [];
  const seen = new Set<string>();
  for (const write of writes) {
    if (seen.has(write.stream)) throw new Error(`executeCommand: stream ${write.stream} decided twice`);
    seen.add(write.stream);
    const expectedRevision = read.revision(write.stream);
    if (write.events.length === 0) continue;
    requests.push({ stream: write.stream, events: toEventData(write.events, metadata, commandId, events.length), expectedRevision });
    events.push(...write.events);
  }
  const written = requests.map((request) => request.stream);
  for (const stream of read.streams) {
    if (!written.includes(stream)) requests.push({ stream, events: [], expectedRevision: read.revision(stream) });
  }
  return { requests, events, written };
}

/** Decided events as the store takes them; ids `<commandId>:<firstIndex + i>`. */
function toEventData(events: readonly DecidedEvent[], metadata: EventMetadata, commandId: string, firstIndex: number): EventData[] {
  return events.map((event, index) => ({
    id: eventIdFor(commandId, firstIndex + index),
    type: event.type,
    schemaVersion: SCHEMA_VERSIONS[event.type],
    data: event.data,
    metadata,
  }));
}

/** What handleCommand answers (one stream). */
export interface HandleResult<Event> {
  /** The events this command appended (empty when it was a repeat or nothing was decided). */
  events: Event[];
  /**
   * Global position of the command's last event (of the original run, for a repeat); when
   * nothing was decided, the position of the stream's last event as read.
   */
  position: number;
  /** True when the command had been handled before and nothing was appended. */
  repeated: boolean;
  /** The stream written (for a repeat: the stream the original run wrote). */
  stream: string;
}

/**
 * One decider's command on one stream, through executeCommand (the common case; the importer's
 * and the tests' helpers use it too). `known.previous`: the repeat check as the caller already
 * made it (priorCommand; null: none).
 * @throws as executeCommand.
 */
export async function handleCommand<Command, Event extends DecidedEvent, State>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, Event, State, DecisionContext>,
  command: Command,
  context: DecisionContext,
  metadata: CommandMetadata,
  known?: { previous: RecordedEvent | null },
): Promise<HandleResult<Event>> {
  const outcome = await executeCommand(store, {
    streams: [stream], context, metadata, ...(known ? { prior: known.previous } : {}),
    decide: (read, ctx) => [{ stream, events: decider.decide(command, read.fold(stream, decider), ctx) }],
  });
  const decided = outcome.repeated || outcome.events.length > 0;
  return {
    events: outcome.events as Event[],
    position: decided ? outcome.position : outcome.read!.lastPosition(stream),
    repeated: outcome.repeated,
    stream: outcome.prior?.stream ?? stream,
  };
}
