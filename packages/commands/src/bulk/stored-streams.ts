/**
 * Bulk reads of whole streams for the bulk importer (issue 15 item 6): the events of many named
 * streams in a few queries, instead of one readStream round trip per stream (17 000 of them for
 * the 2025 export, a million for a synthetic edition).
 *
 * - With the event store's pool: `SELECT … FROM es.events WHERE stream = ANY($1)` per
 *   STREAMS_PER_READ names (one index probe per name: ~7 ms per 5 000 names on a log of a million
 *   events), personal fields revealed as the store's reads reveal them (revealPersonalData).
 *   Read-only, like the query API's history reads of es.events; appends still go through the
 *   store. A store that holds sealed values but cannot reveal them (a decorator around the
 *   protected store) is read through the store instead.
 * - Without it: the store's readStreams (optional in the EventStore interface; measured ~300–500 ms
 *   per 5 000 names on the same log, its plan is made for a command's few streams), else
 *   readStream, READS_IN_FLIGHT at a time.
 */
import type pg from 'pg';
import {
  EVENT_COLUMNS,
  isSealedValue,
  revealPersonalData,
  toRecordedEvent,
  type EventRow,
  type EventStore,
  type RecordedEvent,
} from '@sinilill/event-store';

/** Streams per query: bounded so that one query's array parameter stays small (~100 kB). */
const STREAMS_PER_READ = 5000;
/** Concurrent readStream calls for a store without readStreams. */
const READS_IN_FLIGHT = 8;

/**
 * The recorded events of `names` (distinct stream names), by stream, in revision order; a stream
 * without events is absent from the map.
 * @param pool the event store's database (schema `es`), for the fast path; optional.
 * @throws whatever the reads throw (connection errors; Error for a tampered protected value).
 */
export async function readStreams(store: EventStore, names: readonly string[], pool?: pg.Pool): Promise<Map<string, RecordedEvent[]>> {
  const byStream = new Map<string, RecordedEvent[]>();
  for (let start = 0; start < names.length; start += STREAMS_PER_READ) {
    const slice = names.slice(start, start + STREAMS_PER_READ);
    if (pool) {
      const { rows } = await pool.query<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM es.events WHERE stream = ANY($1::text[]) ORDER BY stream, revision`,
        [slice],
      );
      if (rows.length === 0) continue;
      const revealed = await reveal(store, rows.map(toRecordedEvent));
      if (revealed) {
        for (const event of revealed) {
          const list = byStream.get(event.stream);
          if (list) list.push(event);
          else byStream.set(event.stream, [event]);
        }
        continue;
      }
      // Sealed values this store cannot reveal here: read the streams that exist through it.
      await readThroughStore(store, [...new Set(rows.map((row) => row.stream))], byStream);
    } else {
      await readThroughStore(store, slice, byStream);
    }
  }
  return byStream;
}

/** Reads `names` through the store's own reads into `byStream` (streams with events only). */
async function readThroughStore(store: EventStore, names: readonly string[], byStream: Map<string, RecordedEvent[]>): Promise<void> {
  const keep = (name: string, events: RecordedEvent[]) => {
    if (events.length > 0) byStream.set(name, events);
  };
  if (store.readStreams) {
    const { streams } = await store.readStreams(names.map((stream) => ({ stream })));
    names.forEach((name, index) => keep(name, streams[index] ?? []));
    return;
  }
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, names.length) }, async () => {
    while (next < names.length) {
      const name = names[next++]!;
      keep(name, await store.readStream(name));
    }
  }));
}

/**
 * The events with their personal fields revealed as `store` reveals them; the events as stored
 * when the store is not protected and they hold no sealed value; null when they hold sealed
 * values the store cannot reveal this way.
 */
async function reveal(store: EventStore, events: RecordedEvent[]): Promise<RecordedEvent[] | null> {
  try {
    return await revealPersonalData(store, events);
  } catch (error) {
    if (!(error instanceof TypeError && error.message.startsWith('revealPersonalData:'))) throw error;
    const sealed = events.some((event) => typeof event.data === 'object' && event.data !== null
      && Object.values(event.data as Record<string, unknown>).some(isSealedValue));
    return sealed ? null : events;
  }
}
