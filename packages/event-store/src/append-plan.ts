/**
 * Pure preparation of an append: validates the requests and turns them into the parameters of
 * the `es.append_batch` SQL function (migrations/0002-append-batch.ts). No I/O, so it is unit-tested on its own.
 */
import type { AppendRequest, ExpectedRevision } from './types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One event as `es.append_batch` takes it inside `p_events` (ids lower-case). */
export interface PlannedEvent {
  /** 1-based index of its request (within the append; the batcher shifts it within a batch). */
  s: number;
  /** 1-based index of the event in its request (its revision is the stream's + k). */
  k: number;
  id: string;
  type: string;
  v: number;
  data: unknown;
  metadata: unknown;
}

/** The parameters of one append, as `es.append_batch` takes them for one group. */
export interface AppendParameters {
  streams: string[];
  /** 'any' | 'no_stream' | 'stream_exists' | a revision as decimal text. */
  expected: string[];
  counts: number[];
  /** Every event, in request order. */
  rows: PlannedEvent[];
}

/**
 * Validates `requests` and builds the `es.append` parameters.
 * @throws TypeError on an empty request list, an empty or repeated stream name, an invalid
 *   expected revision (not 'any'/'no_stream'/'stream_exists'/a safe integer >= 0), an event id
 *   that is not a UUID or appears twice, an empty type or a schemaVersion that is not an integer >= 1.
 */
export function planAppend(requests: readonly AppendRequest[]): AppendParameters {
  if (requests.length === 0) throw new TypeError('append: no streams given');
  const streams: string[] = [];
  const expected: string[] = [];
  const counts: number[] = [];
  const rows: PlannedEvent[] = [];
  const seenStreams = new Set<string>();
  const seenIds = new Set<string>();
  requests.forEach((request, index) => {
    const { stream } = request;
    if (typeof stream !== 'string' || stream.length === 0) throw new TypeError('append: empty stream name');
    if (seenStreams.has(stream)) throw new TypeError(`append: stream ${stream} appears twice in one append`);
    seenStreams.add(stream);
    streams.push(stream);
    expected.push(expectedRevisionText(request.expectedRevision));
    counts.push(request.events.length);
    let k = 0;
    for (const event of request.events) {
      k++;
      if (typeof event.id !== 'string' || !UUID.test(event.id)) throw new TypeError(`append: event id ${String(event.id)} is not a UUID`);
      const id = event.id.toLowerCase();
      if (seenIds.has(id)) throw new TypeError(`append: event id ${id} appears twice in one append`);
      seenIds.add(id);
      if (typeof event.type !== 'string' || event.type.length === 0) throw new TypeError(`append: event ${id} has no type`);
      if (!Number.isInteger(event.schemaVersion) || event.schemaVersion < 1) {
        throw new TypeError(`append: event ${id} has schemaVersion ${String(event.schemaVersion)} (an integer >= 1 expected)`);
      }
      rows.push({ s: index + 1, k, id, type: event.type, v: event.schemaVersion, data: event.data, metadata: event.metadata });
    }
  });
  return { streams, expected, counts, rows };
}

/** The text form of an expected revision for SQL; throws TypeError when it is not one. */
export function expectedRevisionText(expected: ExpectedRevision): string {
  if (expected === 'any' || expected === 'no_stream' || expected === 'stream_exists') return expected;
  if (typeof expected === 'number' && Number.isSafeInteger(expected) && expected >= 0) return String(expected);
  throw new TypeError(`append: invalid expected revision ${String(expected)}`);
}
