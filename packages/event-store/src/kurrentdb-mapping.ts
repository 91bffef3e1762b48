/**
 * Pure mapping between the EventStore interface (types.ts) and @kurrent/kurrentdb-client's
 * shapes, for the KurrentDB adapter (kurrentdb-event-store.ts). No I/O: unit-tested on its own
 * (kurrentdb-mapping.test.ts), so that the adapter's translation is checked without a server.
 *
 * How an event is stored in KurrentDB:
 * - id, type: the event's id and type; content type application/json; data: our `data` as is
 *   (other KurrentDB tools see the domain payload, not an envelope);
 * - metadata: a flat object of strings (multiStreamAppend accepts nothing else):
 *   `schema-version` (decimal), `sinilill-metadata` (our EventMetadata as JSON) and KurrentDB's
 *   conventional `$correlationId` / `$causationId` (so that its projections and UI can follow them).
 *
 * Positions: an event's globalPosition is `Number(position.commit)` of its $all position (bytes
 * into the transaction log: strictly increasing in commit order, with gaps, safe below 2^53 bytes
 * of log). Reading after a global position starts at `{ commit: after, prepare: after }`.
 */
import { ANY, NO_STREAM, STREAM_EXISTS, WrongExpectedVersionError, jsonEvent } from '@kurrent/kurrentdb-client';
import type { AppendStreamState, CurrentStreamState, EventData as KurrentEventData, Position, RecordedEvent as KurrentRecordedEvent } from '@kurrent/kurrentdb-client';
import { OMITTED_METADATA, WrongExpectedRevisionError, type EventData, type EventMetadata, type ExpectedRevision, type RecordedEvent } from './types';
import { upcastEvent } from './upcasters';

/** The metadata keys this adapter writes (all values strings). */
export const METADATA_KEYS = { schemaVersion: 'schema-version', metadata: 'sinilill-metadata' } as const;

/** Type of the pointer events of the event-id index (one per stored event; never read by projections). */
export const EVENT_ID_INDEX_TYPE = 'sinilill.event-id';

/** Prefix of the event-id index streams: `event-id-<uuid, lower case>` holds one pointer event. */
export const EVENT_ID_INDEX_PREFIX = 'event-id-';

/** Type of the pointer events of the payload indexes (one per indexed event; never read by projections). */
export const PAYLOAD_INDEX_TYPE = 'sinilill.index';

/** Prefix of the payload index streams: `sinilill-index-<field>-<value>` (see payloadIndexStream). */
export const PAYLOAD_INDEX_PREFIX = 'sinilill-index-';

/**
 * A payload index of the KurrentDB adapter: every event of one of `types` whose data has `field`
 * gets a pointer in `sinilill-index-<field>-<value>`, in the same atomic append.
 */
export interface PayloadIndex {
  field: string;
  types: readonly string[];
}

/** The stream of the payload index `field` for `value` (the value as text, as selectors compare it). */
export function payloadIndexStream(field: string, value: string): string {
  return `${PAYLOAD_INDEX_PREFIX}${field}-${value}`;
}

/** The pointer event of a payload index for the event at `pointer` (its own id is fresh: `pointerId`). */
export function toIndexPointerEvent(pointerId: string, pointer: EventIdPointer): KurrentEventData {
  return jsonEvent({ id: pointerId, type: PAYLOAD_INDEX_TYPE, data: { stream: pointer.stream, revision: pointer.revision } });
}

/** The stream of the pointer event that records where the event with this id is stored. */
export function eventIdIndexStream(eventId: string): string {
  return `${EVENT_ID_INDEX_PREFIX}${eventId.toLowerCase()}`;
}

/** What a pointer event says: the stream of the event, and its revision when known at write time. */
export interface EventIdPointer {
  stream: string;
  /** The event's revision; null when the append used 'any' or 'stream_exists' (then searched by id). */
  revision: number | null;
}

/** Our expected revision as the client's stream state: 'any'→ANY, 'no_stream'→NO_STREAM, 'stream_exists'→STREAM_EXISTS, n→BigInt(n). */
export function toStreamState(expected: ExpectedRevision): AppendStreamState {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      if (!Number.isSafeInteger(expected) || expected < 0) throw new TypeError(`append: invalid expected revision ${String(expected)}`);
      return BigInt(expected);
  }
}

/** The client's stream state as our expected revision (the inverse of toStreamState). */
export function fromStreamState(state: AppendStreamState): ExpectedRevision {
  if (typeof state === 'bigint') return Number(state);
  return state;
}

/** The client's current stream state as our "actual revision": null for no stream (and for deleted, -5n/-6n). */
export function actualRevision(state: CurrentStreamState | undefined): number | null {
  if (state === undefined || state === NO_STREAM) return null;
  return state < 0n ? null : Number(state);
}

/**
 * The client's WrongExpectedVersionError as the interface's WrongExpectedRevisionError (stream,
 * expected, actual); anything else unchanged.
 */
export function translateWrongExpectedVersion(error: unknown): unknown {
  if (!(error instanceof WrongExpectedVersionError)) return error;
  return new WrongExpectedRevisionError(error.streamName, fromStreamState(error.expectedState), actualRevision(error.actualState));
}

/**
 * The revisions an append with this expected revision will give its `count` events, when they can
 * be known before the append (a numeric revision n: n+1…; 'no_stream': 0…); null otherwise.
 */
export function plannedRevisions(expected: ExpectedRevision, count: number): number[] | null {
  const first = expected === 'no_stream' ? 0 : typeof expected === 'number' ? expected + 1 : null;
  if (first === null) return null;
  return Array.from({ length: count }, (_, k) => first + k);
}

/** One of our events as the client's JSON event (see the module's comment for the metadata). */
export function toKurrentEvent(event: EventData): KurrentEventData {
  const metadata: Record<string, string> = {
    [METADATA_KEYS.schemaVersion]: String(event.schemaVersion),
    [METADATA_KEYS.metadata]: JSON.stringify(event.metadata),
    $correlationId: event.metadata.correlationId,
  };
  if (event.metadata.causationId !== null) metadata.$causationId = event.metadata.causationId;
  // The client's JSONType excludes numbers, booleans and null at the top level; our payloads are
  // JSON objects, and the client only JSON.stringifies them, so the cast loses nothing.
  return jsonEvent({ id: event.id.toLowerCase(), type: event.type, data: event.data as Record<string, unknown>, metadata });
}

/** The pointer event of the event-id index for `event` (its own id is fresh: `pointerId`). */
export function toPointerEvent(pointerId: string, pointer: EventIdPointer): KurrentEventData {
  return jsonEvent({ id: pointerId, type: EVENT_ID_INDEX_TYPE, data: { stream: pointer.stream, revision: pointer.revision } });
}

/** A pointer event's data (of the event-id index, or of a payload index), or null when it is not one. */
export function readPointer(event: KurrentRecordedEvent | undefined): EventIdPointer | null {
  if (!event || (event.type !== EVENT_ID_INDEX_TYPE && event.type !== PAYLOAD_INDEX_TYPE) || !event.isJson) return null;
  const data = event.data as { stream?: unknown; revision?: unknown };
  if (typeof data.stream !== 'string') return null;
  return { stream: data.stream, revision: typeof data.revision === 'number' ? data.revision : null };
}

/** A KurrentDB $all position as our global position: its commit position as a number. */
export function toGlobalPosition(position: Position | undefined): number {
  if (!position) throw new Error('KurrentDB returned an event without its $all position (server older than 22.6?)');
  return Number(position.commit);
}

/** Where to start reading $all to see the events after global position `after` (inclusive: skip `after` itself). */
export function fromGlobalPosition(after: number): Position {
  return { commit: BigInt(after), prepare: BigInt(after) };
}

/** Decodes the stored metadata (a parsed JSON object, or bytes when the server did not mark it JSON). */
function metadataObject(raw: unknown): Record<string, unknown> | null {
  if (raw instanceof Uint8Array) {
    try {
      return metadataObject(JSON.parse(Buffer.from(raw).toString('utf8')));
    } catch {
      return null;
    }
  }
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
}

/** Our EventMetadata from the stored metadata; OMITTED_METADATA for an event another tool wrote. */
function eventMetadataOf(raw: Record<string, unknown> | null): EventMetadata {
  const text = raw?.[METADATA_KEYS.metadata];
  if (typeof text === 'string') return JSON.parse(text) as EventMetadata;
  // A server that stores properties as typed values may hand the object back parsed.
  if (text !== null && typeof text === 'object') return text as EventMetadata;
  return OMITTED_METADATA;
}

/** The schema version from the stored metadata (1 when absent). */
function schemaVersionOf(raw: Record<string, unknown> | null): number {
  const value = Number(raw?.[METADATA_KEYS.schemaVersion] ?? 1);
  return Number.isInteger(value) && value >= 1 ? value : 1;
}

/**
 * A recorded KurrentDB event as the interface's RecordedEvent: stream, revision (bigint → number),
 * globalPosition (commit position), recordedAt (the server's `created`). With `metadata: false`
 * the metadata is not parsed (OMITTED_METADATA, as ReadAllOptions.metadata asks). Upcast to the
 * type's current schema version (upcasters.ts).
 */
export function toRecordedEvent(event: KurrentRecordedEvent, options: { metadata?: boolean } = {}): RecordedEvent {
  const raw = metadataObject(event.metadata);
  return upcastEvent({
    id: event.id,
    type: event.type,
    schemaVersion: schemaVersionOf(raw),
    data: event.isJson ? event.data : Buffer.from(event.data as Uint8Array).toString('utf8'),
    metadata: options.metadata === false ? OMITTED_METADATA : eventMetadataOf(raw),
    stream: event.streamId,
    revision: Number(event.revision),
    globalPosition: toGlobalPosition(event.position),
    recordedAt: event.created,
  });
}

/** True for events readAll and headPosition never return: system events (`$` types or streams) and the adapter's index pointers. */
export function isHidden(event: { type: string; streamId: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$') || event.type === EVENT_ID_INDEX_TYPE || event.type === PAYLOAD_INDEX_TYPE;
}

/** Escapes a string for a .NET regular expression (the server evaluates the filter). */
function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\#\s-]/g, '\\$&');
}

/**
 * The server-side event-type filter of a readAll or subscription: exactly `types` when given,
 * else every type except system ones (`$…`) and the adapter's index pointers.
 */
export function eventTypeRegex(types?: readonly string[]): string {
  if (types) return `^(?:${[...new Set(types)].map(escapeRegex).join('|')})$`;
  return `^(?!\\$)(?!(?:${escapeRegex(EVENT_ID_INDEX_TYPE)}|${escapeRegex(PAYLOAD_INDEX_TYPE)})$)`;
}
