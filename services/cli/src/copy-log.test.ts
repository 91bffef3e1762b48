/**
 * copy-log.ts without a database: the checksum's records, the grouping of appends, and copyLog
 * between two small in-memory stores (a prefix resumed, another log refused, an interrupted copy
 * finished), plus the CLI's arguments.
 */
import { describe, expect, test } from 'vitest';
import {
  WrongExpectedRevisionError,
  type AppendRequest,
  type AppendResult,
  type EventData,
  type EventStore,
  type ExpectedRevision,
  type ReadAllOptions,
  type RecordedEvent,
} from '@sinilill/event-store';
import { appendCalls, canonicalJson, checksumRecord, copyLog, logChecksum, TargetNotPrefixError } from './copy-log';
import { parseCopyLogArgs } from './copy-log-command';

/** Just enough of an EventStore: revisions checked, ids idempotent per request, positions from `firstPosition`. */
class MemoryStore implements EventStore {
  readonly events: RecordedEvent[] = [];
  appendCalls = 0;
  constructor(
    private readonly firstPosition = 1,
    private readonly clock = () => new Date('2026-01-01T00:00:00Z'),
    /** Every event of one call at one position (as KurrentDB's commit position can be). */
    private readonly onePositionPerCall = false,
  ) {}

  async appendToStream(stream: string, events: EventData[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    const [result] = await this.appendToStreams([{ stream, events, expectedRevision: options.expectedRevision }]);
    return result!;
  }

  async appendToStreams(requests: AppendRequest[]): Promise<AppendResult[]> {
    this.appendCalls += 1;
    for (const r of requests) {
      if (r.events.every((e) => this.events.some((s) => s.id === e.id))) continue;
      const actual = this.revisionOf(r.stream);
      const ok = r.expectedRevision === 'any' || (r.expectedRevision === 'no_stream' ? actual === null : actual === r.expectedRevision);
      if (!ok) throw new WrongExpectedRevisionError(r.stream, r.expectedRevision, actual);
    }
    const callPosition = (this.events.at(-1)?.globalPosition ?? this.firstPosition - 1) + 1;
    return requests.map((r) => {
      if (r.events.every((e) => this.events.some((s) => s.id === e.id))) return { nextExpectedRevision: this.revisionOf(r.stream)!, position: 0, repeated: true };
      for (const e of r.events) {
        const last = this.events.at(-1)?.globalPosition ?? this.firstPosition - 1;
        const globalPosition = this.onePositionPerCall ? callPosition : last + 1;
        this.events.push({ ...structuredClone(e), stream: r.stream, revision: (this.revisionOf(r.stream) ?? -1) + 1, globalPosition, recordedAt: this.clock() });
      }
      return { nextExpectedRevision: this.revisionOf(r.stream)!, position: this.events.at(-1)!.globalPosition };
    });
  }

  // Not used by copyLog: a test double need not filter or condition.
  appendToStreamsIf(): Promise<AppendResult[]> {
    throw new Error('MemoryStore: appendToStreamsIf is not used by copyLog');
  }

  readEvents(): Promise<RecordedEvent[]> {
    throw new Error('MemoryStore: readEvents is not used by copyLog');
  }

  countEvents(): Promise<number> {
    throw new Error('MemoryStore: countEvents is not used by copyLog');
  }

  private revisionOf(stream: string): number | null {
    const mine = this.events.filter((e) => e.stream === stream);
    return mine.length === 0 ? null : mine.at(-1)!.revision;
  }

  async readStream(stream: string): Promise<RecordedEvent[]> { return this.events.filter((e) => e.stream === stream); }
  async readAll({ after, maxCount }: ReadAllOptions): Promise<RecordedEvent[]> {
    const rest = this.events.filter((e) => e.globalPosition > after);
    let end = Math.min(maxCount, rest.length);
    // Never between two events of one position (as KurrentDbEventStore's readAll).
    while (end < rest.length && rest[end]!.globalPosition === rest[end - 1]!.globalPosition) end += 1;
    return structuredClone(rest.slice(0, end));
  }
  async headPosition(): Promise<number> { return this.events.at(-1)?.globalPosition ?? 0; }
  async findEvent(id: string): Promise<RecordedEvent | null> { return this.events.find((e) => e.id === id) ?? null; }
  async close(): Promise<void> {}
}

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const meta = { actor: { userId: null, role: 'SYSTEM' as const }, correlationId: 'c-1', causationId: null, imported: true };

/** A source of `n` events over three streams, interleaved (a, a, b, a, c, b, …). */
async function sourceOf(n: number): Promise<MemoryStore> {
  const store = new MemoryStore(100, () => new Date('2025-04-01T08:00:00Z'));
  const pattern = ['a', 'a', 'b', 'a', 'c', 'b'];
  for (let i = 0; i < n; i += 1) {
    await store.appendToStream(`s-${pattern[i % pattern.length]!}`, [{ id: id(i), type: 'Thing', schemaVersion: 1, data: { i, z: 1, a: [2, 1] }, metadata: meta }], { expectedRevision: 'any' });
  }
  return store;
}

describe('the checksum record', () => {
  test('sorts keys at every level and leaves copiedFrom out', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ y: 1, x: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"x":2,"y":1}]},"b":1}');
    const event: RecordedEvent = { id: id(1).toUpperCase(), type: 'T', schemaVersion: 2, data: { b: 1, a: 2 }, metadata: meta, stream: 's', revision: 3, globalPosition: 9, recordedAt: new Date() };
    const copied = { ...event, id: id(1), globalPosition: 1, data: { a: 2, b: 1 }, metadata: { ...meta, copiedFrom: { globalPosition: 9, recordedAt: 'x' } } };
    expect(checksumRecord(copied)).toBe(checksumRecord(event));
    expect(checksumRecord({ ...event, revision: 4 })).not.toBe(checksumRecord(event));
  });
});

describe('appendCalls', () => {
  test('runs of a stream share a request with the revision before them; a call never names a stream twice', async () => {
    const source = await sourceOf(6);
    const calls = appendCalls(await source.readAll({ after: 0, maxCount: 10 }));
    expect(calls.map((c) => c.map((r) => [r.stream, r.events.length, r.expectedRevision]))).toEqual([
      [['s-a', 2, 'no_stream'], ['s-b', 1, 'no_stream']],
      [['s-a', 1, 1], ['s-c', 1, 'no_stream'], ['s-b', 1, 0]],
    ]);
    expect(calls[0]![0]!.events[0]!.metadata).toMatchObject({ ...meta, copiedFrom: { globalPosition: 100, recordedAt: '2025-04-01T08:00:00.000Z' } });
    expect(appendCalls(await source.readAll({ after: 0, maxCount: 10 }), true).map((c) => c.length)).toEqual([1, 1, 1, 1, 1]);
  });
});

describe('copyLog', () => {
  test('copies in order with ids, revisions and metadata; the checksums match', async () => {
    const source = await sourceOf(25);
    const target = new MemoryStore();
    const result = await copyLog({ source, target, batch: 4 });
    expect(result).toMatchObject({ alreadyThere: 0, copied: 25, match: true, sourceGrew: false });
    expect(target.events.map((e) => [e.id, e.stream, e.revision])).toEqual(source.events.map((e) => [e.id, e.stream, e.revision]));
    expect((await logChecksum(target)).sha256).toBe((await logChecksum(source)).sha256);
    // A copy of a copy keeps the first origin.
    const again = new MemoryStore();
    await copyLog({ source: target, target: again });
    expect(again.events[0]!.metadata).toMatchObject({ copiedFrom: { globalPosition: 100 } });
  });

  test('an interrupted copy resumes after what the target holds, nothing twice', async () => {
    const source = await sourceOf(30);
    const target = new MemoryStore();
    let calls = 0;
    const crashing: EventStore = Object.assign(Object.create(target) as EventStore, {
      appendToStreams: async (requests: AppendRequest[]) => {
        calls += 1;
        const results = await target.appendToStreams(requests);
        // The third call reaches the store, but its answer is lost.
        if (calls === 3) throw new Error('connection lost');
        return results;
      },
    });
    await expect(copyLog({ source, target: crashing, batch: 5 })).rejects.toThrow(/connection lost/);
    const held = target.events.length;
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThan(30);
    const result = await copyLog({ source, target, batch: 5 });
    expect(result).toMatchObject({ alreadyThere: held, copied: 30 - held, match: true });
    expect(new Set(target.events.map((e) => e.id)).size).toBe(30);
  });

  test('a resumed copy from a store that gives a transaction one position copies the rest of a half-copied group', async () => {
    const source = new MemoryStore(1, undefined, true);
    await source.appendToStreams(['a', 'b', 'c', 'd'].map((s, i) => ({ stream: s, expectedRevision: 'no_stream', events: [{ id: id(i), type: 'T', schemaVersion: 1, data: {}, metadata: meta }] })));
    await source.appendToStream('a', [{ id: id(9), type: 'T', schemaVersion: 1, data: {}, metadata: meta }], { expectedRevision: 0 });
    expect(new Set(source.events.map((e) => e.globalPosition)).size).toBe(2);
    const target = new MemoryStore();
    // The first two events of the one-position group are in the target already.
    for (const event of source.events.slice(0, 2)) await target.appendToStream(event.stream, appendCalls([event])[0]![0]!.events, { expectedRevision: 'no_stream' });
    const result = await copyLog({ source, target, batch: 1 });
    expect(result).toMatchObject({ alreadyThere: 2, copied: 3, match: true });
    expect(target.events.map((e) => e.id)).toEqual(source.events.map((e) => e.id));
  });

  test('a target holding another log is refused before any append', async () => {
    const source = await sourceOf(10);
    const other = new MemoryStore();
    await other.appendToStream('s-a', [{ id: id(0), type: 'Thing', schemaVersion: 1, data: { i: 0, z: 2, a: [2, 1] }, metadata: meta }], { expectedRevision: 'no_stream' });
    const calls = other.appendCalls;
    await expect(copyLog({ source, target: other })).rejects.toThrow(TargetNotPrefixError);
    expect(other.appendCalls).toBe(calls);
    // More events than the source: refused too.
    const longer = await sourceOf(12);
    await expect(copyLog({ source, target: longer })).rejects.toThrow(/more events than the source/);
  });
});

describe('parseCopyLogArgs', () => {
  test('targets, sources, keys and batch', () => {
    expect(parseCopyLogArgs(['--to-database', 'postgres://b/x'])).toEqual({ to: { engine: 'postgres', url: 'postgres://b/x' }, from: null, batch: 1000, withKeys: null, perStream: false });
    expect(parseCopyLogArgs(['--to-kurrentdb=kurrentdb://k:2113?tls=false', '--from-database', 'postgres://a/x', '--batch', '500', '--without-keys', '--per-stream']))
      .toEqual({ to: { engine: 'kurrentdb', url: 'kurrentdb://k:2113?tls=false' }, from: { engine: 'postgres', url: 'postgres://a/x' }, batch: 500, withKeys: false, perStream: true });
    expect(() => parseCopyLogArgs([])).toThrow(/no target/);
    expect(() => parseCopyLogArgs(['--to-database', 'a', '--to-kurrentdb', 'b'])).toThrow(/exclude each other/);
    expect(() => parseCopyLogArgs(['--to-kurrentdb', 'k', '--with-keys'])).toThrow(/PostgreSQL target/);
    expect(() => parseCopyLogArgs(['--to-database', 'a', '--batch', '0'])).toThrow(/--batch/);
    expect(() => parseCopyLogArgs(['--to-database'])).toThrow(/needs a value/);
    expect(() => parseCopyLogArgs(['--to-database', 'a', '--frm-database', 'b'])).toThrow(/unknown argument/);
  });
});
