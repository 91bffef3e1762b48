/**
 * An in-memory stand-in of the KurrentDB client (@kurrent/kurrentdb-client's KurrentDBClient) as
 * far as KurrentDbEventStore uses it, so that the adapter, the contract suite and the services'
 * integration tests run on "KurrentDB" without a server (none can be installed here; CI runs the
 * contract suite on a real one):
 *
 * - `multiStreamAppend`: every request's expected state checked, then all written or none;
 * - `appendRecords` with stream-state consistency checks (AppendConsistencyViolationError);
 * - `readStream` forwards from a revision or backwards from the end (StreamNotFoundError);
 * - `readAll` forwards or backwards from a position, with the server's event-type regex filter;
 * - `subscribeToAll`: a catch-up subscription to `$all` (the events after a position, then each
 *   new one as it is written), with the event-type regex filter;
 * - commit positions that grow by 100 per event (gaps, as a real server's byte positions have),
 *   and the recording time from the machine's clock.
 *
 * Test-only (exported through `@sinilill/event-store/testing`, never from the package's index).
 * Not modelled: stream metadata, deletion, system events, a server's timing.
 */
import { EventEmitter } from 'node:events';
import {
  AppendConsistencyViolationError,
  BACKWARDS,
  NO_STREAM,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AppendRecordInput,
  type AppendStreamRequest,
  type AppendStreamState,
  type ConsistencyCheck,
  type KurrentDBClient,
  type MultiAppendResult,
  type RecordedEvent as KurrentRecordedEvent,
  type ResolvedEvent,
} from '@kurrent/kurrentdb-client';
import { KurrentDbEventStore } from '../kurrentdb-event-store';

/** One event to write: the stream and the client's event data. */
type Write = { streamName: string; event: { id: string; type: string; data: unknown; metadata?: unknown } };

/** The in-memory KurrentDB client (see the module's comment). */
export class KurrentDbStandIn {
  /** Every event in commit order ($all). */
  readonly all: KurrentRecordedEvent[] = [];
  private readonly streams = new Map<string, KurrentRecordedEvent[]>();
  private position = 0n;
  private readonly subscriptions = new Set<(event: KurrentRecordedEvent) => void>();
  /** The next append commits, then its answer is lost (a dropped connection). */
  loseNextAnswer = false;
  /** The server predates multi-stream append (every append answers UNIMPLEMENTED). */
  old = false;

  /** The stream's current state: its last revision, or NO_STREAM. */
  private stateOf(stream: string): bigint | typeof NO_STREAM {
    const current = this.streams.get(stream);
    return current ? BigInt(current.length - 1) : NO_STREAM;
  }

  private holds(stream: string, expected: AppendStreamState): boolean {
    const actual = this.stateOf(stream);
    if (expected === 'any') return true;
    if (expected === 'no_stream') return actual === NO_STREAM;
    if (expected === 'stream_exists') return actual !== NO_STREAM;
    return actual === expected;
  }

  /**
   * Writes `writes` (all checks done), answering the last revision of each stream written and the
   * position of the append: the adapter's pointers (event-id and payload indexes) first, so that
   * the answered position (the last written) is that of the append's last event, as a real
   * server's commit position of the transaction is.
   */
  private write(writes: Write[]): MultiAppendResult {
    const revisions = new Map<string, bigint>();
    const isPointer = (w: Write) => w.streamName.startsWith('event-id-') || w.streamName.startsWith('sinilill-index-');
    const pointersFirst = [...writes.filter(isPointer), ...writes.filter((w) => !isPointer(w))];
    for (const { streamName, event } of pointersFirst) {
      const stream = this.streams.get(streamName) ?? [];
      this.streams.set(streamName, stream);
      this.position += 100n;
      const recorded = {
        streamId: streamName,
        id: event.id,
        isJson: true,
        revision: BigInt(stream.length),
        type: event.type,
        created: new Date(),
        data: JSON.parse(JSON.stringify(event.data)) as unknown,
        metadata: event.metadata,
        position: { commit: this.position, prepare: this.position },
      } as KurrentRecordedEvent;
      stream.push(recorded);
      this.all.push(recorded);
      revisions.set(streamName, recorded.revision);
    }
    const written = this.all.slice(this.all.length - pointersFirst.length);
    for (const tell of this.subscriptions) for (const recorded of written) tell(recorded);
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false;
      throw new Error('14 UNAVAILABLE: connection dropped');
    }
    return { position: this.position, responses: [...revisions].map(([streamName, revision]) => ({ streamName, revision })) } as MultiAppendResult;
  }

  private refuseIfOld(): void {
    if (this.old) throw Object.assign(new Error('12 UNIMPLEMENTED: unknown service'), { code: 12 });
  }

  /** KurrentDBClient.multiStreamAppend: all requests' expected states hold, or WrongExpectedVersionError and nothing written. */
  async multiStreamAppend(requests: AppendStreamRequest[]): Promise<MultiAppendResult> {
    this.refuseIfOld();
    for (const r of requests) {
      if (!this.holds(r.streamName, r.expectedState)) {
        throw new WrongExpectedVersionError(undefined as never, { streamName: r.streamName, expected: r.expectedState, current: this.stateOf(r.streamName) });
      }
    }
    return this.write(requests.flatMap((r) => r.events.map((event) => ({ streamName: r.streamName, event }))));
  }

  /** KurrentDBClient.appendRecords: every check holds, or AppendConsistencyViolationError naming the failed ones and nothing written. */
  async appendRecords(records: AppendRecordInput[], checks: ConsistencyCheck[] = []): Promise<MultiAppendResult> {
    this.refuseIfOld();
    const violations = checks.flatMap((check, checkIndex) => (this.holds(check.streamName, check.expectedState)
      ? []
      : [{ checkIndex, streamName: check.streamName, expectedState: check.expectedState, actualState: this.stateOf(check.streamName) }]));
    if (violations.length > 0) {
      throw Object.assign(Object.create(AppendConsistencyViolationError.prototype) as AppendConsistencyViolationError, {
        name: 'AppendConsistencyViolationError', message: 'consistency checks failed', violations,
      });
    }
    return this.write(records.map((r) => ({ streamName: r.streamName, event: r.record })));
  }

  /** KurrentDBClient.readStream: forwards from a revision (or the start), or backwards from the end. */
  async *readStream(name: string, options: { fromRevision?: unknown; maxCount?: number | bigint; direction?: string } = {}): AsyncIterableIterator<ResolvedEvent> {
    const stream = this.streams.get(name);
    if (!stream) throw new StreamNotFoundError(undefined as never, name);
    const backwards = options.direction === BACKWARDS;
    const from = options.fromRevision;
    let events = backwards
      ? [...stream].reverse().filter((e) => typeof from !== 'bigint' || e.revision <= from)
      : stream.filter((e) => typeof from !== 'bigint' || e.revision >= from);
    if (options.maxCount !== undefined) events = events.slice(0, Number(options.maxCount));
    for (const event of events) yield { event } as ResolvedEvent;
  }

  /** KurrentDBClient.readAll: from a position (inclusive) or START/END, forwards or backwards, with the event-type regex filter. */
  async *readAll(options: { fromPosition?: unknown; direction?: string; maxCount?: number | bigint; filter?: { regex?: string } } = {}): AsyncIterableIterator<AllStreamResolvedEvent> {
    const match = new RegExp(options.filter?.regex ?? '');
    const from = typeof options.fromPosition === 'object' && options.fromPosition !== null ? (options.fromPosition as { commit: bigint }).commit : null;
    const backwards = options.direction === BACKWARDS;
    let events = backwards
      ? [...this.all].reverse().filter((e) => match.test(e.type) && (from === null || e.position!.commit <= from))
      : this.all.filter((e) => match.test(e.type) && (from === null || e.position!.commit >= from));
    if (options.maxCount !== undefined) events = events.slice(0, Number(options.maxCount));
    for (const event of events) yield { event } as AllStreamResolvedEvent;
  }

  /**
   * KurrentDBClient.subscribeToAll: emits `data` ({ event }) for every event after `fromPosition`
   * (inclusive, as the server) whose type the filter's regex matches, then for each one written
   * later, until `unsubscribe()`.
   */
  subscribeToAll(options: { fromPosition?: unknown; filter?: { regex?: string } } = {}): EventEmitter & { unsubscribe(): Promise<void> } {
    const match = new RegExp(options.filter?.regex ?? '');
    const from = typeof options.fromPosition === 'object' && options.fromPosition !== null ? (options.fromPosition as { commit: bigint }).commit : null;
    const emitter = new EventEmitter();
    const tell = (event: KurrentRecordedEvent) => {
      if (match.test(event.type) && (from === null || event.position!.commit >= from)) emitter.emit('data', { event });
    };
    // As a server's answer: the stored events arrive after the caller has attached its listeners;
    // catching up and going live happen in one turn, so no event falls between them.
    setImmediate(() => {
      for (const event of [...this.all]) tell(event);
      this.subscriptions.add(tell);
    });
    return Object.assign(emitter, { unsubscribe: async () => { this.subscriptions.delete(tell); } });
  }

  /** The types of a stream's events, in order (for assertions). */
  typesOf(stream: string): string[] {
    return (this.streams.get(stream) ?? []).map((e) => e.type);
  }

  /** This stand-in as the client type KurrentDbEventStore takes. */
  asClient(): KurrentDBClient {
    return this as unknown as KurrentDBClient;
  }

  /** Nothing to release. */
  async dispose(): Promise<void> {}
}

/** A KurrentDbEventStore on a fresh stand-in, and the stand-in (to inspect it or inject faults). */
export function kurrentDbStandInStore(): { store: KurrentDbEventStore; standIn: KurrentDbStandIn } {
  const standIn = new KurrentDbStandIn();
  return { store: new KurrentDbEventStore({ client: standIn.asClient() }), standIn };
}
