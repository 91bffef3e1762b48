/**
 * The EventStore on KurrentDB, with @kurrent/kurrentdb-client. Requires KurrentDB
 * 25.1 or later (multi-stream append); see docs/event-store-engines.md for when to choose it.
 *
 * **Appends.** Every append is ONE `multiStreamAppend` (atomic across streams: all or none, on
 * the server), also for a single stream, because it carries, beside the events, the event-id
 * index: one pointer event per appended event in stream `event-id-<id>` with expected state
 * NO_STREAM, saying where the event lives (`{ stream, revision }`). A request with no events
 * (a revision check only, as the command handler sends for streams it read but does not write)
 * needs a check without a write: then the append goes through `appendRecords` with consistency
 * checks (a newer server API; a server without it answers UNIMPLEMENTED, reported as such).
 * Nothing is ever written in two steps, so there is no half-done command to recover: a failed
 * or interrupted append wrote nothing, and its retry (same event ids) either writes everything or
 * is recognised as a repeat.
 *
 * **Idempotency.** KurrentDB has no lookup by event id and its own duplicate check covers only a
 * retry into the same stream at the same expected revision. The index streams make every reuse
 * of an id conflict (NO_STREAM on its pointer stream) inside the atomic append; on any conflict the
 * adapter reads the pointers of the request's ids: all stored in the request's stream → an
 * idempotent repeat (the original result, `repeated: true`), judged by the ids alone as PostgreSQL
 * does (the personal-data decorator encrypts a retried event anew, so its stored bytes differ);
 * some stored, or in another stream → DuplicateEventIdError; none → WrongExpectedRevisionError.
 * Cost: one small pointer event (and stream) per event.
 *
 * **Positions.** globalPosition is the commit position of the event's $all position (bytes; see
 * kurrentdb-mapping.ts), so checkpoints, `x-min-position` and read-your-writes work unchanged.
 * readAll never ends a batch between two events of equal position (were the server to give the
 * events of one transaction one commit position, a checkpoint between them would skip the rest).
 *
 * **Filtered reads** (readEvents, countEvents) read `$all` filtered on the server by event type
 * (or the named streams, when the selector names them) and apply the rest of the selector here
 * (event-selector.ts): the cost is the events of those types in the range, not the whole log.
 *
 * **Payload indexes.** For the events of PAYLOAD_INDEXES (a team's members by `teamId`, a
 * participant's entries by `participantId`), the same atomic append also writes a pointer event
 * (`sinilill.index`, `{ stream, revision }`) into `sinilill-index-<field>-<value>` (expected state
 * ANY). readAll and subscriptions never return them; readEvents reads a covered selector (a
 * team's members, a participant's entries) through them instead of scanning `$all` by type.
 *
 * **Conditional appends** (appendToStreamsIf) read the revisions of the index streams that cover
 * the condition's selectors, check the condition with a filtered read of what was committed after
 * its position, then append atomically with those index streams' revisions as consistency checks:
 * a covered event committed after the read moves its index stream and the append fails, as
 * PostgreSQL's lock would make it wait and fail. A selector no index covers is checked by the read
 * alone: an event committed within that round trip is not seen (docs/event-store-engines.md,
 * decision 0071).
 */
import { randomUUID } from 'node:crypto';
import {
  ANY,
  AppendConsistencyViolationError,
  BACKWARDS,
  END,
  FORWARDS,
  KurrentDBClient,
  NO_STREAM,
  START,
  STREAM_STATE,
  StreamNotFoundError,
  WrongExpectedVersionError,
  eventTypeFilter,
} from '@kurrent/kurrentdb-client';
import type {
  AllStreamResolvedEvent,
  AppendRecordInput,
  AppendStreamRequest,
  ConsistencyCheck,
  MultiAppendResult,
  ResolvedEvent,
} from '@kurrent/kurrentdb-client';
import { planAppend } from './append-plan';
import { checkSelector, dataText, matchesSelector } from './event-selector';
import {
  actualRevision,
  eventIdIndexStream,
  eventTypeRegex,
  payloadIndexStream,
  toIndexPointerEvent,
  type EventIdPointer,
  type PayloadIndex,
  fromGlobalPosition,
  fromStreamState,
  isHidden,
  plannedRevisions,
  readPointer,
  toKurrentEvent,
  toPointerEvent,
  toRecordedEvent,
  toStreamState,
  translateWrongExpectedVersion,
} from './kurrentdb-mapping';
import {
  AppendConditionFailedError,
  DuplicateEventIdError,
  WrongExpectedRevisionError,
  type AppendCondition,
  type AppendRequest,
  type AppendResult,
  type EventData,
  type EventSelector,
  type EventStore,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadEventsOptions,
  type ReadStreamOptions,
  type ReadStreamsOptions,
  type ReadStreamsResult,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './types';

/**
 * How to reach KurrentDB: a connection string (the store owns and disposes the client), or a
 * client the caller owns; and the payload indexes to keep (default PAYLOAD_INDEXES).
 */
export type KurrentDbEventStoreOptions = ({ connectionString: string } | { client: KurrentDBClient }) & { indexes?: readonly PayloadIndex[] };

/**
 * The payload indexes the adapter keeps by default: a team's members (`teamId` of
 * ParticipantRegistered) and a participant's entries (`participantId` of EntryAdded and
 * EntryEdited) — what the deletions' condition watches (packages/commands stream-index.ts), the
 * same fields as PostgreSQL's partial indexes (migrations/0003-payload-indexes.ts).
 */
export const PAYLOAD_INDEXES: readonly PayloadIndex[] = [
  { field: 'teamId', types: ['ParticipantRegistered'] },
  { field: 'participantId', types: ['EntryAdded', 'EntryEdited'] },
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** gRPC status UNIMPLEMENTED: the server predates the API (multi-stream append: KurrentDB 25.1). */
const GRPC_UNIMPLEMENTED = 12;

/** A server too old for an API this adapter needs. */
export class KurrentDbVersionError extends Error {
  override readonly name = 'KurrentDbVersionError';
  constructor(readonly api: string, cause: unknown) {
    super(`KurrentDB does not implement ${api}: the event store needs KurrentDB 25.1 or later (multi-stream append)`, { cause });
  }
}

/** What a conflict's look-up of the ids found for one request. */
type RequestStatus = { kind: 'fresh' } | { kind: 'repeat'; last: RecordedEvent };

/**
 * EventStore backed by KurrentDB. Errors: WrongExpectedRevisionError / DuplicateEventIdError from
 * appends (see the interface), TypeError for malformed requests (planAppend, as PostgreSQL),
 * KurrentDbVersionError for a server without multi-stream append, the client's errors otherwise.
 */
export class KurrentDbEventStore implements EventStore {
  private readonly client: KurrentDBClient;
  private readonly ownsClient: boolean;
  private readonly indexes: readonly PayloadIndex[];
  private closed = false;

  constructor(options: KurrentDbEventStoreOptions) {
    this.indexes = options.indexes ?? PAYLOAD_INDEXES;
    if ('client' in options) {
      this.client = options.client;
      this.ownsClient = false;
    } else {
      this.client = KurrentDBClient.connectionString(options.connectionString);
      this.ownsClient = true;
    }
  }

  /** See EventStore.appendToStream. */
  async appendToStream(stream: string, events: EventData[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    const [result] = await this.appendToStreams([{ stream, events, expectedRevision: options.expectedRevision }]);
    return result!;
  }

  /**
   * See EventStore.appendToStreams and the module's comment. Each request is idempotent on its
   * own (its expected revision is checked only when it is not a repeat). A request's `position`
   * is that of its own last event (one extra read per stream when several are written).
   */
  async appendToStreams(requests: AppendRequest[]): Promise<AppendResult[]> {
    this.assertOpen();
    planAppend(requests); // the same validation (TypeError) as PostgreSQL
    return this.appendOnce(requests, true);
  }

  /**
   * See EventStore.appendToStreamsIf. First the revisions of the payload index streams the
   * selectors are covered by (a selector whose types a PayloadIndex lists and which names its
   * field), then each selector read for one event after `noneAfter`, then one atomic append that
   * also checks those index streams are still at the revisions read. An event a covered selector
   * picks is either committed before the index was read (the read sees it) or moves its index
   * stream (the append fails): no window. For a selector no index covers, an event committed
   * between its read and the append is not seen (module docs).
   * @throws AppendConditionFailedError when a selector picks an event after `noneAfter`, or an
   *   index stream moved before the append.
   */
  async appendToStreamsIf(requests: AppendRequest[], condition: AppendCondition): Promise<AppendResult[]> {
    this.assertOpen();
    planAppend(requests);
    if (!Number.isSafeInteger(condition.noneAfter) || condition.noneAfter < 0) throw new TypeError(`appendToStreamsIf: invalid noneAfter ${String(condition.noneAfter)}`);
    for (const selector of condition.selectors) checkSelector(selector);
    const failed = () => new AppendConditionFailedError(requests.map((r) => r.stream));
    const guards = [...new Set(condition.selectors.flatMap((selector) => this.indexStreamsCovering(selector)))];
    const checks: ConsistencyCheck[] = await Promise.all(guards.map(async (streamName) => {
      const last = await this.lastEvent(streamName);
      return { type: STREAM_STATE, streamName, expectedState: last ? BigInt(last.revision) : NO_STREAM };
    }));
    for (const selector of condition.selectors) {
      const after = Math.max(selector.after ?? 0, condition.noneAfter);
      const [found] = await this.readEvents({ ...selector, after }, { maxCount: 1 });
      if (found) throw failed();
    }
    if (checks.length === 0) return this.appendOnce(requests, true);
    let response: MultiAppendResult;
    try {
      response = await this.appendWithChecks(requests, checks);
    } catch (error) {
      if (isUnimplemented(error)) throw new KurrentDbVersionError('appendRecords', error);
      if (!(error instanceof AppendConsistencyViolationError)) throw error;
      if (error.violations.some((v) => guards.includes(v.streamName))) throw failed();
      return this.afterConflict(requests, error, false);
    }
    return this.resultsOf(requests, response);
  }

  /**
   * The events the pointers of these payload index streams point at: each read at its revision
   * (one event), or, for a pointer without one (an append with 'any'), its stream read whole.
   */
  private async indexedEvents(indexStreams: readonly string[]): Promise<RecordedEvent[]> {
    const pointers = (await Promise.all(indexStreams.map(async (stream) => {
      const found: EventIdPointer[] = [];
      try {
        for await (const resolved of this.client.readStream(stream)) {
          const pointer = readPointer(resolved.event);
          if (pointer) found.push(pointer);
        }
      } catch (error) {
        if (!(error instanceof StreamNotFoundError)) throw error;
      }
      return found;
    }))).flat();
    const whole = [...new Set(pointers.filter((p) => p.revision === null).map((p) => p.stream))];
    const [exact, streams] = await Promise.all([
      Promise.all(pointers.filter((p) => p.revision !== null && !whole.includes(p.stream))
        .map((p) => this.readStream(p.stream, { fromRevision: p.revision!, maxCount: 1 }))),
      Promise.all(whole.map((stream) => this.readStream(stream))),
    ]);
    const byId = new Map<string, RecordedEvent>();
    for (const event of [...exact.flat(), ...streams.flat()]) byId.set(event.id, event);
    return [...byId.values()];
  }

  /** The payload index streams that hold every event `selector` can pick (none when no index covers it). */
  private indexStreamsCovering(selector: EventSelector): string[] {
    const types = selector.types;
    if (!types || types.length === 0) return [];
    for (const index of this.indexes) {
      if (!types.every((type) => index.types.includes(type))) continue;
      const condition = selector.data?.find((d) => d.field === index.field);
      if (condition) return [...new Set(condition.values.map((value) => payloadIndexStream(index.field, String(value))))];
    }
    return [];
  }

  private async appendOnce(requests: AppendRequest[], mayRetry: boolean): Promise<AppendResult[]> {
    const written = requests.filter((r) => r.events.length > 0);
    if (written.length === 0) return Promise.all(requests.map((r) => this.checkOnly(r)));
    let response: MultiAppendResult;
    try {
      response = requests.length === written.length ? await this.multiAppend(written) : await this.appendWithChecks(requests);
    } catch (error) {
      if (isUnimplemented(error)) throw new KurrentDbVersionError(requests.length === written.length ? 'multiStreamAppend' : 'appendRecords', error);
      if (!(error instanceof WrongExpectedVersionError) && !(error instanceof AppendConsistencyViolationError)) throw error;
      return this.afterConflict(requests, error, mayRetry);
    }
    return this.resultsOf(requests, response);
  }

  /** Each request's result from the server's answer to the append (a revision check only: read). */
  private resultsOf(requests: AppendRequest[], response: MultiAppendResult): Promise<AppendResult[]> {
    const written = requests.filter((r) => r.events.length > 0);
    const revisions = new Map(response.responses.map((r) => [r.streamName, Number(r.revision)]));
    const position = Number(response.position);
    return Promise.all(requests.map(async (request) => {
      if (request.events.length === 0) return this.checkOnly(request);
      const revision = revisions.get(request.stream);
      if (revision === undefined) throw new Error(`KurrentDB answered no revision for stream ${request.stream}`);
      if (written.length === 1) return { nextExpectedRevision: revision, position, repeated: false };
      // Several streams: each request answers the position of its own last event (read by its revision).
      const [last] = await this.readStream(request.stream, { fromRevision: revision, maxCount: 1 });
      return { nextExpectedRevision: revision, position: last?.globalPosition ?? position, repeated: false };
    }));
  }

  /** The append's streams plus one pointer stream per event, in one multiStreamAppend. */
  private multiAppend(written: AppendRequest[]): Promise<MultiAppendResult> {
    const appends: AppendStreamRequest[] = [];
    for (const request of written) {
      appends.push({ streamName: request.stream, events: request.events.map(toKurrentEvent), expectedState: toStreamState(request.expectedRevision) });
    }
    for (const pointer of this.pointersOf(written)) appends.push({ streamName: pointer.stream, events: [pointer.event], expectedState: NO_STREAM });
    const byIndex = new Map<string, ReturnType<typeof toIndexPointerEvent>[]>();
    for (const pointer of this.indexPointersOf(written)) byIndex.set(pointer.stream, [...(byIndex.get(pointer.stream) ?? []), pointer.event]);
    for (const [streamName, events] of byIndex) appends.push({ streamName, events, expectedState: ANY });
    return this.client.multiStreamAppend(appends);
  }

  /**
   * Writes and revision-only checks together: appendRecords with a stream-state check per request
   * and per event-id pointer stream, the payload index pointers, and `extra` checks.
   */
  private appendWithChecks(requests: AppendRequest[], extra: readonly ConsistencyCheck[] = []): Promise<MultiAppendResult> {
    const records: AppendRecordInput[] = [];
    const checks: ConsistencyCheck[] = requests.map((r) => ({ type: STREAM_STATE, streamName: r.stream, expectedState: toStreamState(r.expectedRevision) }));
    for (const request of requests) for (const event of request.events) records.push({ streamName: request.stream, record: toKurrentEvent(event) });
    for (const pointer of this.pointersOf(requests)) {
      records.push({ streamName: pointer.stream, record: pointer.event });
      checks.push({ type: STREAM_STATE, streamName: pointer.stream, expectedState: NO_STREAM });
    }
    for (const pointer of this.indexPointersOf(requests)) records.push({ streamName: pointer.stream, record: pointer.event });
    checks.push(...extra);
    return this.client.appendRecords(records, checks);
  }

  /** The payload indexes' pointer events of these requests' events (module docs). */
  private indexPointersOf(requests: AppendRequest[]): { stream: string; event: ReturnType<typeof toIndexPointerEvent> }[] {
    return requests.flatMap((request) => {
      const revisions = plannedRevisions(request.expectedRevision, request.events.length);
      return request.events.flatMap((event, k) => this.indexes.flatMap((index) => {
        if (!index.types.includes(event.type)) return [];
        const value = dataText(event.data, index.field);
        if (value === null) return [];
        return [{ stream: payloadIndexStream(index.field, value), event: toIndexPointerEvent(randomUUID(), { stream: request.stream, revision: revisions?.[k] ?? null }) }];
      }));
    });
  }

  /** The event-id index's pointer events of these requests' events. */
  private pointersOf(requests: AppendRequest[]): { stream: string; event: ReturnType<typeof toPointerEvent> }[] {
    return requests.flatMap((request) => {
      const revisions = plannedRevisions(request.expectedRevision, request.events.length);
      return request.events.map((event, k) => ({
        stream: eventIdIndexStream(event.id),
        event: toPointerEvent(randomUUID(), { stream: request.stream, revision: revisions?.[k] ?? null }),
      }));
    });
  }

  /**
   * After a refused append: repeats, reused ids or a plain conflict (see the module's comment).
   * When some requests are repeats and others are not, the others are appended once more alone.
   */
  private async afterConflict(requests: AppendRequest[], error: unknown, mayRetry: boolean): Promise<AppendResult[]> {
    const statuses = await Promise.all(requests.map((r) => this.statusOf(r)));
    if (statuses.every((s) => s.kind === 'fresh')) throw this.conflictError(error);
    const fresh = requests.filter((_, i) => statuses[i]!.kind === 'fresh');
    if (fresh.length > 0 && !mayRetry) throw this.conflictError(error);
    const freshResults = fresh.length > 0 ? await this.appendOnce(fresh, false) : [];
    let next = 0;
    // A repeat answers the stream's current revision (it may have moved on) and its own last event's position, as PostgreSQL does.
    const current = await Promise.all(requests.map((r, i) => (statuses[i]!.kind === 'repeat' ? this.lastEvent(r.stream) : Promise.resolve(null))));
    return statuses.map((status, i) => {
      if (status.kind === 'fresh') return freshResults[next++]!;
      return { nextExpectedRevision: current[i]?.revision ?? status.last.revision, position: status.last.globalPosition, repeated: true };
    });
  }

  /** The conflict as the interface's error: a wrong revision, or (on a pointer stream) a reused id. */
  private conflictError(error: unknown): unknown {
    if (error instanceof AppendConsistencyViolationError) {
      const violation = error.violations[0];
      if (!violation) return error;
      if (violation.streamName.startsWith('event-id-')) return new DuplicateEventIdError(violation.streamName.slice('event-id-'.length));
      return new WrongExpectedRevisionError(violation.streamName, fromStreamState(violation.expectedState), actualRevision(violation.actualState));
    }
    if (error instanceof WrongExpectedVersionError && error.streamName.startsWith('event-id-')) {
      return new DuplicateEventIdError(error.streamName.slice('event-id-'.length));
    }
    return translateWrongExpectedVersion(error);
  }

  /**
   * Whether a request's events are stored already: none ('fresh'), all in its stream ('repeat', with
   * the last of them; by ids, as PostgreSQL); anything else throws DuplicateEventIdError.
   */
  private async statusOf(request: AppendRequest): Promise<RequestStatus> {
    if (request.events.length === 0) return { kind: 'fresh' };
    const stored = await Promise.all(request.events.map((e) => this.findEvent(e.id)));
    if (stored.every((s) => s === null)) return { kind: 'fresh' };
    // Name a stored id, as PostgreSQL does: one stored elsewhere first, else one of those stored here.
    const elsewhere = stored.find((found) => found !== null && found.stream !== request.stream);
    if (elsewhere) throw new DuplicateEventIdError(elsewhere.id);
    if (stored.some((found) => found === null)) throw new DuplicateEventIdError(stored.find((found) => found !== null)!.id);
    return { kind: 'repeat', last: stored.reduce((a, b) => (b!.revision > a!.revision ? b : a))! };
  }

  /** A revision check without events: the stream's state read and compared (nothing is written, so no atomicity is at stake). */
  private async checkOnly(request: AppendRequest): Promise<AppendResult> {
    const last = await this.lastEvent(request.stream);
    const actual = last ? last.revision : null;
    const expected = request.expectedRevision;
    const holds = expected === 'any' || (expected === 'no_stream' ? actual === null : expected === 'stream_exists' ? actual !== null : actual === expected);
    if (!holds) throw new WrongExpectedRevisionError(request.stream, expected, actual);
    return { nextExpectedRevision: actual ?? -1, position: last?.globalPosition ?? 0, repeated: false };
  }

  /** The last event of a stream, or null. */
  private async lastEvent(stream: string): Promise<RecordedEvent | null> {
    const events = await this.collect(this.client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 }));
    return events[0] ?? null;
  }

  /** Every event of a stream read (none when it does not exist). */
  private async collect(read: AsyncIterableIterator<ResolvedEvent>): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of read) if (resolved.event) events.push(toRecordedEvent(resolved.event));
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  /** See EventStore.readStream. */
  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const from = options.fromRevision ?? 0;
    if (options.maxCount === 0) return [];
    return this.collect(this.client.readStream(stream, {
      fromRevision: from === 0 ? START : BigInt(from),
      direction: FORWARDS,
      ...(options.maxCount !== undefined ? { maxCount: options.maxCount } : {}),
    }));
  }

  /**
   * See EventStore.readStreams: the streams and the look-up by id read concurrently (one round
   * trip's latency, not one request); `streamsOf`'s streams found with readEvents, then read whole
   * (a second round trip's latency; not one snapshot with the others).
   */
  async readStreams(
    requests: readonly { stream: string; fromRevision?: number }[],
    options: ReadStreamsOptions = {},
  ): Promise<ReadStreamsResult> {
    this.assertOpen();
    const { streamsOf } = options;
    const [streams, event, found] = await Promise.all([
      Promise.all(requests.map((r) => this.readStream(r.stream, r.fromRevision !== undefined ? { fromRevision: r.fromRevision } : {}))),
      options.eventId !== undefined ? this.findEvent(options.eventId) : Promise.resolve(null),
      streamsOf ? this.readEvents(streamsOf).then((events) => {
        const names = [...new Set(events.map((e) => e.stream))].sort();
        return Promise.all(names.map((name) => this.readStream(name)));
      }).then((read) => read.filter((events) => events.length > 0)) : Promise.resolve(undefined),
    ]);
    return { streams, event, ...(found ? { found } : {}) };
  }

  /**
   * See EventStore.readAll: events after `after` (a commit position), filtered on the server by
   * event type (only `types`, or all but system events and the event-id index), at most `maxCount`
   * except that a batch never ends between two events of the same position.
   */
  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    this.assertOpen();
    const { after, maxCount, types, metadata = true } = options;
    if (!Number.isSafeInteger(after) || after < 0) throw new TypeError(`readAll: invalid after ${String(after)}`);
    if (!Number.isSafeInteger(maxCount) || maxCount < 1) throw new TypeError(`readAll: invalid maxCount ${String(maxCount)}`);
    if (types && types.length === 0) return [];
    const read = this.client.readAll({
      fromPosition: after === 0 ? START : fromGlobalPosition(after),
      direction: FORWARDS,
      filter: eventTypeFilter({ regex: eventTypeRegex(types) }),
    });
    return takeBatch(read, after, maxCount, metadata);
  }

  /**
   * See EventStore.readEvents: the named streams read whole, or the events a payload index
   * points at when one covers the selector, or else `$all` read from the selector's bound
   * (forwards from `after`, backwards from `before`) with the type filter on the server; the rest
   * of the selector applied here. Stops reading once the page is full or the read has
   * passed the selector's other bound.
   */
  async readEvents(selector: EventSelector, options: ReadEventsOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    checkSelector(selector, options);
    const events: RecordedEvent[] = [];
    let skip = options.skip ?? 0;
    const maxCount = options.maxCount ?? Number.POSITIVE_INFINITY;
    for await (const event of this.candidates(selector, options.direction ?? 'forwards')) {
      if (!matchesSelector(event, selector)) continue;
      if (skip > 0) {
        skip -= 1;
        continue;
      }
      events.push(event);
      if (events.length >= maxCount) break;
    }
    return events;
  }

  /** See EventStore.countEvents: readEvents' scan, counted (KurrentDB has no count). */
  async countEvents(selector: EventSelector): Promise<number> {
    this.assertOpen();
    checkSelector(selector);
    let count = 0;
    for await (const event of this.candidates(selector, 'forwards')) if (matchesSelector(event, selector)) count += 1;
    return count;
  }

  /**
   * The events readEvents filters, in position order of `direction`: the named streams' events
   * merged, or `$all` filtered by type on the server, ending once past the selector's far bound.
   */
  private async *candidates(selector: EventSelector, direction: 'forwards' | 'backwards'): AsyncGenerator<RecordedEvent> {
    if (selector.types && selector.types.length === 0) return;
    const forwards = direction === 'forwards';
    const order = (events: RecordedEvent[]) => events.sort((a, b) => (forwards ? a.globalPosition - b.globalPosition : b.globalPosition - a.globalPosition));
    if (selector.streams) {
      yield* order((await Promise.all([...new Set(selector.streams)].map((stream) => this.readStream(stream)))).flat());
      return;
    }
    const indexStreams = this.indexStreamsCovering(selector);
    if (indexStreams.length > 0) {
      yield* order(await this.indexedEvents(indexStreams));
      return;
    }
    const start = forwards
      ? (selector.after ?? 0) > 0 ? fromGlobalPosition(selector.after!) : START
      : selector.before !== undefined ? fromGlobalPosition(selector.before) : END;
    const read = this.client.readAll({
      fromPosition: start,
      direction: forwards ? FORWARDS : BACKWARDS,
      filter: eventTypeFilter({ regex: eventTypeRegex(selector.types) }),
    });
    for await (const resolved of read) {
      const stored = resolved.event;
      if (!stored || isHidden(stored)) continue;
      const event = toRecordedEvent(stored);
      const position = event.globalPosition;
      if (forwards && ((selector.until !== undefined && position > selector.until) || (selector.before !== undefined && position >= selector.before))) break;
      if (!forwards && selector.after !== undefined && position <= selector.after) break;
      yield event;
    }
  }

  /** See EventStore.headPosition: the position of the last event readAll can return (0 when none). */
  async headPosition(): Promise<number> {
    this.assertOpen();
    const read = this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1, filter: eventTypeFilter({ regex: eventTypeRegex() }) });
    for await (const resolved of read) {
      if (resolved.event && !isHidden(resolved.event)) return toRecordedEvent(resolved.event, { metadata: false }).globalPosition;
    }
    return 0;
  }

  /**
   * See EventStore.findEvent: the pointer of the event-id index, then the event at its revision
   * (or, for an append that used 'any'/'stream_exists', searched backwards in its stream).
   * Null also for a string that is not a UUID.
   */
  async findEvent(eventId: string): Promise<RecordedEvent | null> {
    this.assertOpen();
    if (!UUID.test(eventId)) return null;
    const id = eventId.toLowerCase();
    let pointer = null;
    try {
      for await (const resolved of this.client.readStream(eventIdIndexStream(id), { maxCount: 1 })) pointer = readPointer(resolved.event);
    } catch (error) {
      if (error instanceof StreamNotFoundError) return null;
      throw error;
    }
    if (!pointer) return null;
    if (pointer.revision !== null) {
      const [event] = await this.readStream(pointer.stream, { fromRevision: pointer.revision, maxCount: 1 });
      if (event?.id.toLowerCase() === id) return event;
    }
    const events = await this.collect(this.client.readStream(pointer.stream, { direction: BACKWARDS, fromRevision: END }));
    return events.find((e) => e.id.toLowerCase() === id) ?? null;
  }

  /**
   * Calls `onEvent` with the position of every new event (of `types`, or every non-system one)
   * after `after`, from KurrentDB's catch-up subscription to $all (filtered on the server). A
   * wake-up source for the projector in place of polling: the runner still reads and applies in
   * batches. Not yet wired into the projector (see docs/event-store-engines.md).
   */
  subscribe(options: SubscribeOptions): Subscription {
    this.assertOpen();
    const subscription = this.client.subscribeToAll({
      fromPosition: options.after === 0 ? START : fromGlobalPosition(options.after),
      filter: eventTypeFilter({ regex: eventTypeRegex(options.types) }),
    });
    subscription.on('data', (resolved: AllStreamResolvedEvent) => {
      if (!resolved.event || isHidden(resolved.event)) return;
      const position = Number(resolved.event.position.commit);
      if (position > options.after) options.onEvent(position);
    });
    subscription.on('error', (error) => options.onError?.(error));
    return { close: () => subscription.unsubscribe() };
  }

  /** Marks the store closed; disposes the client only when the store created it (connectionString). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsClient) await this.client.dispose();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

/**
 * The batch of a readAll: the events after `after` (the server's start is inclusive), at most
 * `maxCount`, extended to the end of a run of equal positions; stops the read when done.
 */
export async function takeBatch(
  read: AsyncIterable<AllStreamResolvedEvent>,
  after: number,
  maxCount: number,
  metadata: boolean,
): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for await (const resolved of read) {
    const stored = resolved.event;
    if (!stored || isHidden(stored)) continue;
    const position = Number(stored.position.commit);
    if (position <= after) continue;
    if (events.length >= maxCount && position !== events[events.length - 1]!.globalPosition) break;
    events.push(toRecordedEvent(stored, { metadata }));
  }
  return events;
}

/** True for the gRPC status UNIMPLEMENTED, however the client wrapped it. */
function isUnimplemented(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === GRPC_UNIMPLEMENTED || (typeof message === 'string' && /\bUNIMPLEMENTED\b|unimplemented/i.test(message));
}
