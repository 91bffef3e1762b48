/**
 * The event store's interface, shaped after EventStoreDB/KurrentDB concepts so that a
 * KurrentDB-backed implementation can stand in for the PostgreSQL one:
 *
 * - a *stream* is a named, ordered sequence of events (`team-12`, `entry-4031`);
 * - each event has a *revision* inside its stream (0-based, gap-free) and a *global position*
 *   across all streams (>= 1, strictly increasing in commit order, gaps allowed);
 * - appends carry an *expected revision* (optimistic concurrency);
 * - every event has a client-chosen *event id* (UUID) that makes appends idempotent.
 *
 * Revisions and positions are JavaScript numbers (safe to 2^53), not bigint, so that they
 * travel through JSON (HTTP headers, BullMQ jobs) unchanged.
 */

/** Who caused an event: a user (with role), or the system itself (import, replay, clock). */
export interface Actor {
  /** The acting user's id, or null for the system. */
  userId: string | null;
  /** USER and ADMIN are spec §3 roles; SYSTEM marks operator tools and the importer. */
  role: 'USER' | 'ADMIN' | 'SYSTEM';
}

/** Metadata every event carries (audit trail, correlation of a command's consequences). */
export interface EventMetadata {
  actor: Actor;
  /** Id shared by every event that one user action or import run caused. */
  correlationId: string;
  /** Id of the command (or event) that directly caused this event; null when unknown. */
  causationId: string | null;
  /** True when the event was written by the importer from the old system's export. */
  imported?: boolean;
  /** The command id the event was decided from (command-level idempotency). */
  commandId?: string;
}

/** An event about to be appended. */
export interface EventData<Type extends string = string, Data = unknown> {
  /** UUID chosen by the writer; appending the same id twice stores it once. */
  id: string;
  type: Type;
  /** Version of the payload's schema, starting at 1 (upcasters lift older versions). */
  schemaVersion: number;
  data: Data;
  metadata: EventMetadata;
}

/** An event as stored: its data plus where and when it was recorded. */
export interface RecordedEvent<Type extends string = string, Data = unknown>
  extends EventData<Type, Data> {
  stream: string;
  /** 0-based position inside its stream. */
  revision: number;
  /** Position in the global log ($all), >= 1; strictly increasing in commit order. */
  globalPosition: number;
  /** When the store recorded it (UTC). */
  recordedAt: Date;
}

/**
 * What the stream must look like for an append to succeed, as in KurrentDB:
 * 'any' (no check), 'no_stream' (must not exist), 'stream_exists' (must exist),
 * or the revision of the stream's last event.
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export interface AppendResult {
  /** Revision of the stream's last event after the append (use as the next expectedRevision). */
  nextExpectedRevision: number;
  /** Global position of the last event appended (or already stored, for an idempotent repeat). */
  position: number;
  /**
   * True when every event was stored already (an idempotent repeat: nothing was written), false
   * when this append wrote them (or only checked a revision); undefined from a store that cannot tell.
   */
  repeated?: boolean;
}

export interface AppendRequest {
  stream: string;
  events: EventData[];
  expectedRevision: ExpectedRevision;
}

export interface ReadStreamOptions {
  /** First revision to read (inclusive); default 0. */
  fromRevision?: number;
  /** At most this many events; default all. */
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Read events with a global position strictly greater than this (a checkpoint); 0 = from the start. */
  after: number;
  /** Batch size. */
  maxCount: number;
  /** When given, only events of these types (the position still advances past others). */
  types?: readonly string[];
  /**
   * False when the caller never reads the events' metadata (a replay's projections):
   * the store may then leave it out of the read and return OMITTED_METADATA instead (a fifth of a
   * replay's reading time is parsing metadata). Default true.
   */
  metadata?: boolean;
}

/**
 * The metadata of events read with `metadata: false`: no actor, no ids. Frozen; never to be
 * written back or shown.
 */
export const OMITTED_METADATA: EventMetadata = Object.freeze({
  actor: Object.freeze({ userId: null, role: 'SYSTEM' }),
  correlationId: '',
  causationId: null,
}) as EventMetadata;

/**
 * Which events a read of the log picks (EventStore.readEvents, countEvents, appendToStreamsIf):
 * every criterion given must hold (AND); an absent one picks everything.
 */
export interface EventSelector {
  /** Only events of these streams (exact names). */
  streams?: readonly string[];
  /** Only streams of this category, named `<category>-…` (KurrentDB's `$ce-<category>`). */
  category?: string;
  /** Only events of these types. */
  types?: readonly string[];
  /**
   * Only events whose payload's top-level `field` equals one of `values`, for every condition of
   * the list, compared as text (ids are JSON numbers: 12 and '12' both pick `"teamId": 12`).
   * `field` is a plain name (/^[A-Za-z_][A-Za-z0-9_]*$/; TypeError otherwise). Ids are never
   * personal data, so this works on encrypted events (personal-data.ts).
   */
  data?: readonly DataCondition[];
  /** Only events caused by this user (metadata.actor.userId). */
  actorUserId?: string;
  /** Only events recorded at or after this instant. */
  recordedFrom?: Date;
  /** Only events recorded strictly after this instant. */
  recordedAfter?: Date;
  /** Only events recorded strictly before this instant. */
  recordedBefore?: Date;
  /** Only events with a global position strictly greater than this. */
  after?: number;
  /** Only events with a global position strictly smaller than this. */
  before?: number;
  /** Only events with a global position at most this (a read's fixed end). */
  until?: number;
}

/** A condition on one payload field (EventSelector.data): its text is one of `values`. */
export interface DataCondition {
  field: string;
  values: readonly (string | number)[];
}

/** How EventStore.readEvents answers. */
export interface ReadEventsOptions {
  /** 'forwards' (default): oldest first; 'backwards': newest first. */
  direction?: 'forwards' | 'backwards';
  /** At most this many events (an integer >= 1); default all. */
  maxCount?: number;
  /** Leave out the first this many matching events (numbered pages); default 0. */
  skip?: number;
}

/**
 * The condition of EventStore.appendToStreamsIf: no event picked by any of `selectors` has a
 * global position after `noneAfter` (a position the caller read at, e.g. headPosition()).
 */
export interface AppendCondition {
  noneAfter: number;
  selectors: readonly EventSelector[];
}

/** What EventStore.subscribe follows. */
export interface SubscribeOptions {
  /** Events after this global position (0: from the start). */
  after: number;
  /** Only events of these types (all of ours when absent). */
  types?: readonly string[];
  /** Each event's global position, in order; must not throw. */
  onEvent: (position: number) => void;
  /** The subscription failed and ended. */
  onError?: (error: unknown) => void;
}

/** A running subscription (EventStore.subscribe). */
export interface Subscription {
  close(): Promise<void>;
}

/** Options of EventStore.readStreams. */
export interface ReadStreamsOptions {
  /** The stored event with this id is answered as `event` (null when none). */
  eventId?: string;
  /** Every stream holding an event this selector picks is answered whole in `found`. */
  streamsOf?: EventSelector;
}

/** What EventStore.readStreams answers. */
export interface ReadStreamsResult {
  /** Each request's events, in request order. */
  streams: RecordedEvent[][];
  /** The event of `eventId`, or null. */
  event: RecordedEvent | null;
  /** With `streamsOf`: the streams it found, each whole and non-empty, in stream name order. */
  found?: RecordedEvent[][];
}

/** The event store. Implementations: PostgreSQL (default) and KurrentDB (docs/decisions/0042). */
export interface EventStore {
  /**
   * Appends events to one stream if its revision matches `expectedRevision`.
   * Idempotent: if every event id is already stored in this stream, nothing is written and
   * the original result is returned.
   * @throws WrongExpectedRevisionError when the stream's revision differs.
   */
  appendToStream(
    stream: string,
    events: EventData[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult>;

  /**
   * Appends to several streams in one atomic step (all or none), each with its own expected
   * revision (KurrentDB's multi-stream append). Results are in request order.
   * @throws WrongExpectedRevisionError when any stream's revision differs.
   */
  appendToStreams(requests: AppendRequest[]): Promise<AppendResult[]>;

  /** Events of one stream in revision order; an empty array when the stream does not exist. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;

  /**
   * Several streams at once (one round trip where the store can): the events
   * of each request's stream from its `fromRevision` (default 0), in revision order, in request
   * order (an empty array for a missing stream); with `eventId`, also the stored event with that
   * id (findEvent; null when none), in the same round trip. With `streamsOf`, also every stream
   * that holds an event the selector picks, read whole (`found`: one array per stream, in stream
   * name order; the requested streams included when they match), in the same round trip and, on
   * PostgreSQL, the same snapshot (the write path's moderation reads a participant's entries so).
   * Optional: without it, callers read stream by stream.
   */
  readStreams?(
    requests: readonly { stream: string; fromRevision?: number }[],
    options?: ReadStreamsOptions,
  ): Promise<ReadStreamsResult>;

  /**
   * Appends like appendToStreams if `condition` holds at the append: no event matching any of
   * its selectors has a global position after `condition.noneAfter`. For decisions that depend on
   * more than the streams they write, e.g. "no member or entry of this team appeared since I read
   * them" (a deletion found through readEvents). Never part of a group commit.
   *
   * Guarantee per engine (docs/event-store-engines.md): PostgreSQL checks it inside the append's
   * transaction after every stream lock and the global-order lock are held, so nothing can slip
   * in between. KurrentDB checks it with a read just before the atomic append, which also checks
   * the revisions of the adapter's payload index streams: for a selector such an index covers
   * (the deletions' members and entries) nothing slips in either; for any other selector an event
   * committed within that one round trip is not seen.
   * @throws AppendConditionFailedError when the condition does not hold (nothing was written);
   *   the append's own errors.
   */
  appendToStreamsIf(requests: AppendRequest[], condition: AppendCondition): Promise<AppendResult[]>;

  /**
   * The events `selector` picks, in global-position order (or the reverse with `direction:
   * 'backwards'`), skipping the first `skip`, at most `maxCount` (default all). What KurrentDB
   * calls a filtered read of `$all` (by type, by stream prefix) plus filters the adapter applies;
   * PostgreSQL answers it in one statement. Personal fields come back as stored (encrypted) from
   * an engine, decrypted through withPersonalDataProtection.
   * @throws TypeError for a malformed selector (a data field that is not a plain name, a bad bound).
   */
  readEvents(selector: EventSelector, options?: ReadEventsOptions): Promise<RecordedEvent[]>;

  /** How many events `selector` picks (see readEvents). */
  countEvents(selector: EventSelector): Promise<number>;

  /**
   * Events of all streams after a global position, in global-position order, at most `maxCount`.
   * Never skips an event: an event becomes readable only once every event with a lower position
   * is either readable or will never exist.
   */
  readAll(options: ReadAllOptions): Promise<RecordedEvent[]>;

  /** The global position of the last readable event (0 when the log is empty). */
  headPosition(): Promise<number>;

  /**
   * A live feed of the log (KurrentDB's catch-up subscription to `$all`, filtered by
   * type): calls `onEvent` with the global position of each event after `after` (of `types`
   * when given) as it is committed, and `onError` when the subscription fails (it is then over;
   * subscribe again from the last position seen). Optional: a store without it (PostgreSQL) is
   * followed through the wake-ups its writers publish. A wrapper (the personal-data decorator,
   * after-commit, metrics) does not pass it on: the projector takes it from the engine's store.
   */
  subscribe?(options: SubscribeOptions): Subscription;

  /** The stored event with this id, or null. */
  findEvent(eventId: string): Promise<RecordedEvent | null>;

  close(): Promise<void>;
}

/** A conflicting append: the stream was not at the expected revision. */
export class WrongExpectedRevisionError extends Error {
  override readonly name = 'WrongExpectedRevisionError';
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    /** The stream's actual last revision, or null when it does not exist. */
    readonly actual: number | null,
  ) {
    super(`stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}

/** An append that reuses some (not all) already-stored event ids, or reuses ids in another stream. */
export class DuplicateEventIdError extends Error {
  override readonly name = 'DuplicateEventIdError';
  constructor(readonly eventId: string) {
    super(`event id ${eventId} is already stored with different content or in another stream`);
  }
}

/** The condition of appendToStreamsIf did not hold: nothing was written (read again and decide again). */
export class AppendConditionFailedError extends Error {
  override readonly name = 'AppendConditionFailedError';
  constructor(readonly streams: readonly string[]) {
    super(`append to ${streams.join(', ')}: its condition no longer holds`);
  }
}
