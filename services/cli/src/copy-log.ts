/**
 * Moving the event log from one store to another (`npm run copy-log`,
 * copy-log-command.ts; docs/event-store-engines.md, "Moving a log from one engine to the other").
 *
 * **Through the EventStore interface only.** The source is read with `readAll` in global order,
 * with metadata; the target is written with `appendToStreams` (or `appendToStream`, per stream).
 * Nothing here knows the engine, so PostgreSQL → PostgreSQL runs the very code that moves the log
 * to KurrentDB. Both stores are the *raw* ones, never withPersonalDataProtection: personal fields
 * travel encrypted as stored (`pii:v1:…`), and the keys stay in the vault's PostgreSQL
 * (copySubjectKeys copies them when the target is another PostgreSQL database).
 *
 * **Same streams, revisions, ids.** Consecutive events of one stream go in one append request
 * whose expected revision is the first event's revision − 1 ('no_stream' for revision 0), so the
 * target's revisions equal the source's, and an append that finds its stream elsewhere than
 * expected fails (someone else writes the target) instead of shuffling the log. Requests of
 * different streams share one `appendToStreams` call (the events keep their order: a call's
 * positions are handed out in request order) until a stream would appear twice; `perStream`
 * makes one `appendToStream` per run instead, for a store whose multi-stream append is missing or
 * does not keep the order.
 *
 * **Kept, and what is added.** Ids, types, schema versions, data and metadata are kept. The
 * recorded time cannot be set on append (PostgreSQL's default, KurrentDB's commit time), so the
 * target records its own; the original time and position travel in `metadata.copiedFrom`
 * (COPIED_FROM), added once: an event that already carries one (copied before) keeps it, so it
 * always names the log the event was first written to. The log's checksum leaves `copiedFrom` out,
 * which is why a copy's checksum equals its source's. Projections do not read metadata (a replay
 * reads without it); the audit history could show `copiedFrom.recordedAt` for such events.
 *
 * **Resumable.** The target must be empty or hold a prefix of the source (the same events, in
 * the same order, as the checksum's records compare them); anything else is refused before a
 * single append (TargetNotPrefixError). A copy that was interrupted is run again: it checks the
 * prefix and goes on after it. An append that reached the target but whose answer was lost is
 * part of that prefix; and were it sent again, the store's idempotent repeat (same event ids)
 * would write nothing.
 *
 * **Checksum.** sha256 over the log's records in global order, one line per event: the canonical
 * JSON (keys sorted) of [stream, revision, id, type, schemaVersion, data, metadata without
 * copiedFrom]. Global positions and recorded times are left out (they are the store's own).
 * Computed by reading each store with readAll, the same function for both.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { OMITTED_METADATA, type AppendRequest, type EventData, type EventMetadata, type EventStore, type RecordedEvent } from '@sinilill/event-store';

/** The metadata field that carries where and when a copied event was first recorded. */
export const COPIED_FROM = 'copiedFrom';

/** `metadata.copiedFrom` of a copied event: its global position and recorded time in the log it was first written to. */
export interface CopyOrigin {
  globalPosition: number;
  /** ISO 8601, UTC. */
  recordedAt: string;
}

/** Events read per readAll (and at most appended per call). */
export const DEFAULT_COPY_BATCH = 1000;

/** The target holds events that are not the source's first ones: nothing was copied. */
export class TargetNotPrefixError extends Error {
  override readonly name = 'TargetNotPrefixError';
}

/** A subject has a live key in both databases, and the two differ: no key was copied. */
export class SubjectKeyConflictError extends Error {
  override readonly name = 'SubjectKeyConflictError';
}

/** A log's checksum: how many events, and the sha256 (hex) of their records. */
export interface LogChecksum {
  events: number;
  sha256: string;
  /** Global position (in that store) of the last event counted; 0 when none. */
  lastPosition: number;
}

/** Progress of a copy: the phase, and the source position reached of the source's head (positions, not counts). */
export interface CopyProgress {
  phase: 'checking target' | 'copying' | 'checksums';
  position: number;
  head: number;
  /** Events appended by this run so far. */
  copied: number;
}

export interface CopyLogOptions {
  source: EventStore;
  target: EventStore;
  /** Events per read (default DEFAULT_COPY_BATCH). */
  batch?: number;
  /** One appendToStream per run of a stream instead of multi-stream appends. */
  perStream?: boolean;
  onProgress?: (progress: CopyProgress) => void;
}

export interface CopyLogResult {
  /** Events the target already held (a resumed copy), found to be the source's first ones. */
  alreadyThere: number;
  /** Events appended by this run. */
  copied: number;
  /** Append calls made. */
  appends: number;
  /** The source up to the last event copied (or found), and the target, read back afterwards. */
  source: LogChecksum;
  target: LogChecksum;
  match: boolean;
  /** True when the source holds events past those copied (writers were not stopped): run again. */
  sourceGrew: boolean;
  /** Time of the copy itself and of the two checksums (read in parallel), ms. */
  copyMs: number;
  checksumMs: number;
}

/** JSON with object keys sorted at every level (undefined members left out, as JSON.stringify does). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (member === null || typeof member !== 'object' || Array.isArray(member)) return member;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(member).sort()) sorted[key] = (member as Record<string, unknown>)[key];
    return sorted;
  });
}

/** The metadata the checksum covers: the event's metadata without copiedFrom. */
function checkedMetadata(metadata: EventMetadata): Record<string, unknown> {
  const { [COPIED_FROM]: _origin, ...rest } = metadata as EventMetadata & Record<string, unknown>;
  return rest;
}

/** One event's line of the checksum (see the module docs); equal lines = the same event for the copy. */
export function checksumRecord(event: RecordedEvent): string {
  return canonicalJson([event.stream, event.revision, event.id.toLowerCase(), event.type, event.schemaVersion, event.data, checkedMetadata(event.metadata)]);
}

/** The event as it is appended to the target: the same id, type, schema version, data; metadata with its origin. */
export function copiedEventData(event: RecordedEvent): EventData {
  if (event.metadata === OMITTED_METADATA) throw new Error(`event ${event.id} was read without its metadata: a copy must read it`);
  const metadata = event.metadata as EventMetadata & Record<string, unknown>;
  const origin: CopyOrigin = { globalPosition: event.globalPosition, recordedAt: event.recordedAt.toISOString() };
  return {
    id: event.id,
    type: event.type,
    schemaVersion: event.schemaVersion,
    data: event.data,
    metadata: (COPIED_FROM in metadata ? metadata : { ...metadata, [COPIED_FROM]: origin }) as EventMetadata,
  };
}

/**
 * The append calls that write `events` (read in global order) with their streams' revisions:
 * runs of one stream become requests (expected revision = first revision − 1, or 'no_stream'),
 * and requests share a call until a stream would appear twice in it (perStream: one request per
 * call). Pure.
 */
export function appendCalls(events: readonly RecordedEvent[], perStream = false): AppendRequest[][] {
  const calls: AppendRequest[][] = [];
  let call: AppendRequest[] = [];
  let streams = new Set<string>();
  let run: { request: AppendRequest; lastRevision: number } | null = null;
  for (const event of events) {
    if (run && run.request.stream === event.stream && run.lastRevision + 1 === event.revision) {
      run.request.events.push(copiedEventData(event));
      run.lastRevision = event.revision;
      continue;
    }
    if (perStream || streams.has(event.stream)) {
      if (call.length > 0) calls.push(call);
      call = [];
      streams = new Set();
    }
    const request: AppendRequest = {
      stream: event.stream,
      events: [copiedEventData(event)],
      expectedRevision: event.revision === 0 ? 'no_stream' : event.revision - 1,
    };
    run = { request, lastRevision: event.revision };
    call.push(request);
    streams.add(event.stream);
  }
  if (call.length > 0) calls.push(call);
  return calls;
}

/** The events of `store` after `after`, one by one, read in batches in global order (with metadata). */
async function* eventsOf(store: EventStore, batch: number, after = 0): AsyncGenerator<RecordedEvent> {
  let position = after;
  for (;;) {
    const events = await store.readAll({ after: position, maxCount: batch });
    if (events.length === 0) return;
    yield* events;
    position = events[events.length - 1]!.globalPosition;
  }
}

/**
 * The checksum of `store`'s log (see the module docs): every event in global order, or those up to
 * the global position `upTo` (inclusive).
 * @param onEvents called after each batch with the position reached.
 */
export async function logChecksum(
  store: EventStore,
  options: { batch?: number; upTo?: number; onEvents?: (position: number) => void } = {},
): Promise<LogChecksum> {
  const batch = options.batch ?? DEFAULT_COPY_BATCH;
  const hash = createHash('sha256');
  let events = 0;
  let lastPosition = 0;
  for (;;) {
    const read = await store.readAll({ after: lastPosition, maxCount: batch });
    const counted = options.upTo === undefined ? read : read.filter((e) => e.globalPosition <= options.upTo!);
    for (const event of counted) hash.update(checksumRecord(event) + '\n');
    events += counted.length;
    if (counted.length > 0) lastPosition = counted[counted.length - 1]!.globalPosition;
    options.onEvents?.(lastPosition);
    if (counted.length < read.length || read.length === 0) break;
  }
  return { events, sha256: hash.digest('hex'), lastPosition };
}

/** Short description of an event for messages. */
const describe = (e: RecordedEvent) => `${e.type} ${e.id} (stream ${e.stream}, revision ${e.revision})`;

/**
 * Where a copy goes on: `events` of the source are in the target; read the source after
 * `resumeAfter` and leave out the first `skip` events read. Not simply "after the last one's
 * position": a store may give the events of one transaction one position (KurrentDB's commit
 * position), and a copy interrupted between two appends can hold only part of such a group.
 */
interface TargetPrefix { events: number; resumeAfter: number; skip: number }

/**
 * Compares the target's events with the source's first ones.
 * @returns how many there are and where to go on (all 0 when the target is empty).
 * @throws TargetNotPrefixError at the first event that differs, or when the target holds more.
 */
async function targetPrefix(source: EventStore, target: EventStore, batch: number, report: (position: number) => void): Promise<TargetPrefix> {
  const sourceEvents = eventsOf(source, batch);
  let events = 0;
  let sourcePosition = 0;
  let resumeAfter = 0;
  let skip = 0;
  try {
    for await (const found of eventsOf(target, batch)) {
      const next = await sourceEvents.next();
      if (next.done) {
        throw new TargetNotPrefixError(`the target holds more events than the source (${events} match, then ${describe(found)}): ` +
          'it is not a copy of this log in progress; copy into an empty store');
      }
      if (checksumRecord(next.value) !== checksumRecord(found)) {
        throw new TargetNotPrefixError(`the target's event ${events + 1}, ${describe(found)}, is not the source's ` +
          `${describe(next.value)}: the target holds another log; copy into an empty store`);
      }
      events += 1;
      if (next.value.globalPosition === sourcePosition) {
        skip += 1;
      } else {
        resumeAfter = sourcePosition;
        sourcePosition = next.value.globalPosition;
        skip = 1;
      }
      if (events % batch === 0) report(sourcePosition);
    }
  } finally {
    await sourceEvents.return(undefined);
  }
  return { events, resumeAfter, skip };
}

/**
 * Copies `source`'s log to `target` (see the module docs): checks that the target is empty or a
 * prefix of the source, appends the rest in global order, then reads both back and compares their
 * checksums (the source up to the last event copied).
 * @throws TargetNotPrefixError (nothing appended); WrongExpectedRevisionError or
 *   DuplicateEventIdError when something else writes the target meanwhile; the stores' errors.
 *   A checksum mismatch is not thrown: `match` is false.
 */
export async function copyLog(options: CopyLogOptions): Promise<CopyLogResult> {
  const { source, target } = options;
  const batch = options.batch ?? DEFAULT_COPY_BATCH;
  if (!Number.isSafeInteger(batch) || batch < 1) throw new TypeError(`copyLog: invalid batch ${String(batch)}`);
  const progress = options.onProgress ?? (() => undefined);
  const started = performance.now();
  let head = await source.headPosition();
  let copied = 0;
  let appends = 0;

  const prefix = await targetPrefix(source, target, batch, (position) => progress({ phase: 'checking target', position, head, copied }));
  let after = prefix.resumeAfter;
  let skip = prefix.skip;
  progress({ phase: 'copying', position: after, head, copied });
  for (;;) {
    const read = await source.readAll({ after, maxCount: batch });
    if (read.length === 0) break;
    const events = skip > 0 ? read.slice(skip) : read;
    skip = Math.max(0, skip - read.length);
    after = read[read.length - 1]!.globalPosition;
    if (events.length === 0) continue;
    for (const call of appendCalls(events, options.perStream)) {
      if (call.length === 1) {
        const [request] = call as [AppendRequest];
        await target.appendToStream(request.stream, request.events, { expectedRevision: request.expectedRevision });
      } else {
        await target.appendToStreams(call);
      }
      appends += 1;
    }
    copied += events.length;
    head = Math.max(head, after);
    progress({ phase: 'copying', position: after, head, copied });
  }
  const copyMs = performance.now() - started;

  const checking = performance.now();
  const [sourceSum, targetSum] = await Promise.all([
    logChecksum(source, { batch, upTo: after, onEvents: (position) => progress({ phase: 'checksums', position, head: after, copied }) }),
    logChecksum(target, { batch }),
  ]);
  const sourceGrew = (await source.headPosition()) > after;
  return {
    alreadyThere: prefix.events,
    copied,
    appends,
    source: sourceSum,
    target: targetSum,
    match: sourceSum.events === targetSum.events && sourceSum.sha256 === targetSum.sha256,
    sourceGrew,
    copyMs,
    checksumMs: performance.now() - checking,
  };
}

/** What copySubjectKeys did. */
export interface SubjectKeysCopy {
  /** Rows the source holds (live keys and erasure markers). */
  subjects: number;
  /** Rows inserted into the target. */
  inserted: number;
  /** Live keys in the target erased now because the source has erased them. */
  erasedNow: number;
  /** Subjects the target had already erased but the source had not: they stay erased (an erasure is never undone). */
  erasedOnlyInTarget: string[];
}

interface KeyRow { subject: string; key: Buffer | null; created_at: Date; erased_at: Date | null }

/**
 * Copies `es.subject_keys` (the personal-data vault: live keys and erasure markers) from one
 * PostgreSQL database to another, in pages of `batch` subjects, so that the copied log's personal
 * fields decrypt there. Rows the target lacks are inserted; a subject erased in the source is
 * erased in the target; a subject erased only in the target stays erased. Run it with the writers
 * stopped (a key made meanwhile in the source would be missed; run it again: it is idempotent).
 * @param from the source database's pool; @param to the target's (migrated); neither is ended.
 * @throws SubjectKeyConflictError when a subject has different live keys in the two databases
 *   (the target's vault belongs to another site): that page is not written.
 */
export async function copySubjectKeys(from: pg.Pool, to: pg.Pool, options: { batch?: number } = {}): Promise<SubjectKeysCopy> {
  const batch = options.batch ?? 1000;
  const result: SubjectKeysCopy = { subjects: 0, inserted: 0, erasedNow: 0, erasedOnlyInTarget: [] };
  let last = '';
  for (;;) {
    const { rows } = await from.query<KeyRow>(
      'SELECT subject, key, created_at, erased_at FROM es.subject_keys WHERE subject > $1 ORDER BY subject LIMIT $2', [last, batch]);
    if (rows.length === 0) break;
    last = rows[rows.length - 1]!.subject;
    result.subjects += rows.length;
    const values = [rows.map((r) => r.subject), rows.map((r) => r.key), rows.map((r) => r.created_at), rows.map((r) => r.erased_at)];
    const page = 'unnest($1::text[], $2::bytea[], $3::timestamptz[], $4::timestamptz[]) AS s(subject, key, created_at, erased_at)';
    const client = await to.connect();
    try {
      await client.query('BEGIN');
      const existing = await client.query<{ subject: string; conflict: boolean; erased_only_here: boolean }>(
        `SELECT s.subject, (s.key IS NOT NULL AND k.key IS NOT NULL AND s.key <> k.key) AS conflict,
                (s.key IS NOT NULL AND k.key IS NULL) AS erased_only_here
         FROM ${page} JOIN es.subject_keys k ON k.subject = s.subject FOR UPDATE OF k`, values);
      const conflicts = existing.rows.filter((r) => r.conflict).map((r) => r.subject);
      if (conflicts.length > 0) {
        throw new SubjectKeyConflictError(`the target's vault holds other keys for ${conflicts.length} subjects ` +
          `(${conflicts.slice(0, 5).join(', ')}${conflicts.length > 5 ? ', …' : ''}): it belongs to another site; no key was copied from this page`);
      }
      result.erasedOnlyInTarget.push(...existing.rows.filter((r) => r.erased_only_here).map((r) => r.subject));
      const inserted = await client.query(
        `INSERT INTO es.subject_keys (subject, key, created_at, erased_at) SELECT * FROM ${page} ON CONFLICT (subject) DO NOTHING`, values);
      result.inserted += inserted.rowCount ?? 0;
      const erased = await client.query(
        `UPDATE es.subject_keys k SET key = NULL, erased_at = s.erased_at FROM ${page}
         WHERE k.subject = s.subject AND s.key IS NULL AND k.key IS NOT NULL`, values);
      result.erasedNow += erased.rowCount ?? 0;
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
  return result;
}

/**
 * Whether two pools reach the same database (then a copy between them is refused, and keys need
 * no copying): the cluster's system identifier and the database's name, or, where
 * pg_control_system() may not be read, the server's address and port and the database's name.
 */
export async function sameDatabase(a: pg.Pool, b: pg.Pool): Promise<boolean> {
  const identify = async (pool: pg.Pool) => {
    const where = (await pool.query<{ db: string; addr: string | null; port: number | null }>(
      'SELECT current_database() AS db, host(inet_server_addr()) AS addr, inet_server_port() AS port')).rows[0]!;
    const cluster = await pool.query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()')
      .then((r) => r.rows[0]?.id ?? null, () => null);
    return cluster !== null ? `${cluster}/${where.db}` : `${where.addr ?? 'socket'}:${where.port ?? ''}/${where.db}`;
  };
  const [x, y] = await Promise.all([identify(a), identify(b)]);
  return x === y;
}
