/**
 * Group commit for PostgresEventStore (docs/decisions/0029).
 *
 * Appends that arrive while an earlier batch is in flight wait in a queue; when the batch
 * returns, everything queued goes to PostgreSQL as the next batch: ONE call of `es.append_batch`
 * (migrations/0002-append-batch.ts), one transaction, one WAL flush, one hold of the append lock.
 * A lone append (nothing in flight) goes at once, so one writer waits for nobody.
 *
 * - Each append (a *group*: one call of appendToStreams, one or more streams) is checked and
 *   answered on its own: a refused group writes nothing and rejects only its caller.
 * - A batch never holds two groups that share a stream or an event id (the SQL function's
 *   precondition): such a group waits for the next batch, in arrival order.
 * - A batch that fails as a whole (a PostgreSQL error such as a value jsonb refuses, or a lost
 *   unique race with another process, a killed connection) is split: each group is sent again
 *   alone, so one bad append cannot fail its neighbours. A lone group whose connection was lost
 *   is sent once more (isConnectionError); any other error of a lone group goes to its caller.
 * - Limits: at most MAX_GROUPS groups and about MAX_EVENTS events per batch (one large append
 *   still goes alone, whatever its size).
 */
import type pg from 'pg';
import type { AppendParameters, PlannedEvent } from './append-plan';
import { DuplicateEventIdError, WrongExpectedRevisionError, type AppendRequest, type AppendResult } from './types';

/** A row of `es.append_batch`, bigints as pg returns them (text). */
export interface BatchRow {
  request_index: number;
  outcome: 'ok' | 'repeat' | 'wer' | 'dup';
  next_expected_revision: string | null;
  last_position: string | null;
  detail: string | null;
}

/** One append as the batcher holds it. */
export interface Group {
  requests: readonly AppendRequest[];
  plan: AppendParameters;
  /** Its parameters as batchValues([group]) gives them, made ahead (used when it goes alone). */
  values?: unknown[];
}

interface Pending extends Group {
  resolve(results: AppendResult[]): void;
  reject(error: unknown): void;
}

const MAX_GROUPS = 1000;
const MAX_EVENTS = 10_000;

/**
 * A PostgreSQL array literal of `values` (text[], uuid[] or int[] input), every element quoted,
 * quotes and backslashes escaped. node-postgres turns a JS array into the same text, but element by
 * element through its general value conversion and two regular expressions: ~30 ms of the
 * importer's 5 000-stream batch on the 2-core machine, spent while PostgreSQL waits for the batch.
 * Here one scan finds whether anything needs escaping (stream names almost never do).
 */
export function arrayLiteral(values: readonly (string | number)[]): string {
  if (values.length === 0) return '{}';
  const plain = values.join(',');
  if (!plain.includes('"') && !plain.includes('\\')) return `{"${values.join('","')}"}`;
  return `{${values.map((value) => `"${String(value).replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
}

/** The six parameters of `es.append_batch` for `groups`, in order (arrays as array literals). */
export function batchValues(groups: readonly Group[]): unknown[] {
  const groupOf: number[] = [];
  const streams: string[] = [];
  const expected: string[] = [];
  const counts: number[] = [];
  const rows: PlannedEvent[] = [];
  groups.forEach((group, index) => {
    const offset = streams.length;
    for (let i = 0; i < group.plan.streams.length; i++) groupOf.push(index);
    streams.push(...group.plan.streams);
    expected.push(...group.plan.expected);
    counts.push(...group.plan.counts);
    for (const row of group.plan.rows) rows.push(offset === 0 ? row : { ...row, s: row.s + offset });
  });
  return [arrayLiteral(groupOf), arrayLiteral(streams), arrayLiteral(expected), arrayLiteral(counts), JSON.stringify(rows), arrayLiteral(rows.map((row) => row.id))];
}

/**
 * One group's answer from its rows of a batch (`rows` = exactly the group's rows, in order):
 * the results in request order, or the error its caller gets.
 */
export function settleGroup(requests: readonly AppendRequest[], rows: readonly BatchRow[]): AppendResult[] | Error {
  const first = rows[0];
  if (!first) return new Error('es.append_batch answered no row for an append');
  if (first.outcome === 'wer') {
    const { index, actual } = JSON.parse(first.detail ?? '{}') as { index: number; actual: number };
    const request = requests[index]!;
    return new WrongExpectedRevisionError(request.stream, request.expectedRevision, actual < 0 ? null : actual);
  }
  if (first.outcome === 'dup') return new DuplicateEventIdError(first.detail ?? 'unknown');
  return rows.map((row) => ({
    nextExpectedRevision: Number(row.next_expected_revision),
    position: Number(row.last_position),
    repeated: row.outcome === 'repeat',
  }));
}

/**
 * A failure of the connection rather than of the statement: no SQLSTATE (the client saw the
 * connection end), class 08 (connection exception) or 57P01–57P03 (the server terminated it).
 */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error instanceof Error;
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03';
}

/** The queue and the one batch in flight of a PostgresEventStore (see the module docs). */
export class AppendBatcher {
  private queue: Pending[] = [];
  private inFlight = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly sql: string,
    private readonly translate: (error: unknown) => unknown,
  ) {}

  /**
   * Appends one group with the next batch; resolves with its results or rejects with its error.
   * `values`: the group's batchValues, encoded ahead, for when it goes alone.
   */
  append(requests: readonly AppendRequest[], plan: AppendParameters, values?: unknown[]): Promise<AppendResult[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ requests, plan, ...(values ? { values } : {}), resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.inFlight || this.queue.length === 0) return;
    const batch = this.take();
    this.inFlight = true;
    // The next batch leaves once the answered callers have run on (their next appends join the
    // queue: they go with it, not in a batch of their own ahead of it).
    void this.send(batch).finally(() => setImmediate(() => {
      this.inFlight = false;
      this.pump();
    }));
  }

  /** The next batch: queued groups in order, skipping (for later) any that would share a stream or id. */
  private take(): Pending[] {
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    const streams = new Set<string>();
    const ids = new Set<string>();
    let events = 0;
    for (const pending of this.queue) {
      const size = pending.plan.rows.length;
      const fits = batch.length === 0 || (batch.length < MAX_GROUPS && events + size <= MAX_EVENTS
        && !pending.plan.streams.some((s) => streams.has(s)) && !pending.plan.rows.some((r) => ids.has(r.id)));
      if (!fits) {
        rest.push(pending);
        continue;
      }
      batch.push(pending);
      events += size;
      for (const s of pending.plan.streams) streams.add(s);
      for (const r of pending.plan.rows) ids.add(r.id);
    }
    this.queue = rest;
    return batch;
  }

  private async send(batch: Pending[], retried = false): Promise<void> {
    let rows: BatchRow[];
    try {
      const values = batch.length === 1 && batch[0]!.values ? batch[0]!.values : batchValues(batch);
      ({ rows } = await this.pool.query<BatchRow>({ name: 'es.appendBatch', text: this.sql, values }));
    } catch (error) {
      if (batch.length === 1) {
        // A lost connection (a killed backend, a network cut) is tried once more on another: the
        // batch either rolled back (written now) or committed before its answer was lost
        // (answered now as a repeat: the ids are stored).
        if (!retried && isConnectionError(error)) return this.send(batch, true);
        batch[0]!.reject(this.translate(error));
        return;
      }
      // One group may be the cause: each goes again alone (the others were not written).
      await Promise.all(batch.map((pending) => this.send([pending])));
      return;
    }
    let offset = 0;
    for (const pending of batch) {
      const count = pending.requests.length;
      const settled = settleGroup(pending.requests, rows.slice(offset, offset + count));
      offset += count;
      if (settled instanceof Error) pending.reject(settled);
      else pending.resolve(settled);
    }
  }
}
