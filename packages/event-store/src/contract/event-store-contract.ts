/**
 * The EventStore contract suite: one set of vitest tests of the EventStore interface (types.ts)
 * that every adapter must pass, covering every method — appends under each expected revision and
 * their conflicts, idempotency, multi-stream atomicity, conditional appends, reads (by stream, of
 * the global log, filtered by selector, counted), global ordering, the optional readStreams, and
 * erasure of personal data through withPersonalDataProtection.
 *
 * It uses the interface only (no SQL), and never assumes a clean log: a KurrentDB server cannot be
 * wiped cheaply, so every stream and event type carries a random run id and positions are only
 * compared with each other, never with fixed numbers. Reads of the global log look at this run's
 * streams only, since other writers (another run, a server's own system events) may interleave.
 *
 * Test-only: it imports vitest, so it is not exported from the package's index.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { withPersonalDataProtection, type PersonalDataPolicy, type PersonalDataVault } from '../personal-data';
import {
  AppendConditionFailedError,
  DuplicateEventIdError,
  OMITTED_METADATA,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventData,
  type EventMetadata,
  type EventStore,
  type RecordedEvent,
} from '../types';

/** What the suite runs against: a store, a vault for the erasure tests, and how to release both. */
export interface ContractSubject {
  /** The adapter under test, undecorated. */
  store: EventStore;
  /** The personal-data vault; it lives in PostgreSQL whatever the log's engine. */
  vault: PersonalDataVault;
  /** Releases the store, the vault's pool and anything else `setup` opened. */
  close(): Promise<void>;
}

/**
 * Declares the contract suite, `EventStore contract: <name>`, for one adapter. `setup` runs once
 * (beforeAll) and may hand over a log that already holds events, from earlier runs or other
 * writers: the suite keeps to streams and event types of its own.
 */
export function eventStoreContract(name: string, setup: () => Promise<ContractSubject>): void {
  describe(`EventStore contract: ${name}`, () => {
    let subject: ContractSubject | undefined;
    let store: EventStore;
    /** Makes this run's names unique in a log that is never wiped. */
    const run = randomUUID().slice(0, 8);
    let streamNo = 0;
    const newStream = (kind = 'thing') => `${kind}-c${run}-${++streamNo}`;
    const isOurs = (e: RecordedEvent) => e.stream.includes(`-c${run}-`);
    /** An event type no other run uses, so that a `types` filter sees only this run's events. */
    const newType = (label: string) => `${label}C${run}`;

    beforeAll(async () => {
      subject = await setup();
      store = subject.store;
    });
    afterAll(async () => {
      await subject?.close();
    });

    /** Given a stream with `n` events. */
    async function givenStream(n: number, stream = newStream()): Promise<string> {
      await store.appendToStream(stream, Array.from({ length: n }, () => event()), { expectedRevision: 'any' });
      return stream;
    }

    /** Every event of this run after `after`, reading the global log in batches of `maxCount`. */
    async function readOursAfter(after: number, maxCount = 100, metadata = true): Promise<RecordedEvent[]> {
      const ours: RecordedEvent[] = [];
      for (;;) {
        const batch = await store.readAll({ after, maxCount, metadata });
        if (batch.length === 0) return ours;
        ours.push(...batch.filter(isOurs));
        after = batch.at(-1)!.globalPosition;
      }
    }

    describe('appendToStream: expected revision', () => {
      test("'no_stream' on a new stream appends from revision 0; the result names the last event", async () => {
        const stream = newStream();
        const result = await store.appendToStream(stream, [event(), event()], { expectedRevision: 'no_stream' });
        expect(result.nextExpectedRevision).toBe(1);
        const read = await store.readStream(stream);
        expect(read.map((e) => e.revision)).toEqual([0, 1]);
        expect(result.position).toBe(read[1]!.globalPosition);
        expect(result.repeated).not.toBe(true);
      });

      test("'no_stream' on an existing stream conflicts with its revision and writes nothing", async () => {
        const stream = await givenStream(2);
        const error = await wrongRevision(store.appendToStream(stream, [event()], { expectedRevision: 'no_stream' }));
        expect(error).toMatchObject({ stream, expected: 'no_stream', actual: 1 });
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      test("'stream_exists' on a missing stream conflicts with actual null and creates nothing", async () => {
        const stream = newStream();
        const error = await wrongRevision(store.appendToStream(stream, [event()], { expectedRevision: 'stream_exists' }));
        expect(error).toMatchObject({ stream, expected: 'stream_exists', actual: null });
        expect(await store.readStream(stream)).toEqual([]);
      });

      test("'stream_exists' on an existing stream appends", async () => {
        const stream = await givenStream(1);
        expect((await store.appendToStream(stream, [event()], { expectedRevision: 'stream_exists' })).nextExpectedRevision).toBe(1);
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      test("'any' appends to missing and existing streams", async () => {
        const stream = newStream();
        expect((await store.appendToStream(stream, [event()], { expectedRevision: 'any' })).nextExpectedRevision).toBe(0);
        expect((await store.appendToStream(stream, [event()], { expectedRevision: 'any' })).nextExpectedRevision).toBe(1);
      });

      test('a number equal to the last revision appends; a stale or future number conflicts', async () => {
        const stream = await givenStream(3);
        const stale = await wrongRevision(store.appendToStream(stream, [event()], { expectedRevision: 1 }));
        expect(stale).toMatchObject({ stream, expected: 1, actual: 2 });
        const ahead = await wrongRevision(store.appendToStream(stream, [event()], { expectedRevision: 5 }));
        expect(ahead).toMatchObject({ stream, expected: 5, actual: 2 });
        const result = await store.appendToStream(stream, [event(), event()], { expectedRevision: 2 });
        expect(result.nextExpectedRevision).toBe(4);
        expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
      });

      test('a number on a missing stream conflicts with actual null (0 is not "no stream")', async () => {
        const stream = newStream();
        const error = await wrongRevision(store.appendToStream(stream, [event()], { expectedRevision: 0 }));
        expect(error).toMatchObject({ stream, expected: 0, actual: null });
        expect(await store.readStream(stream)).toEqual([]);
      });

      test('appends racing with the same expected revision: exactly one wins, the other conflicts', async () => {
        for (let round = 0; round < 6; round++) {
          const stream = await givenStream(round % 2); // half the rounds race on a missing stream
          const expectedRevision = round % 2 === 0 ? ('no_stream' as const) : 0;
          const outcomes = await Promise.allSettled([
            store.appendToStream(stream, [event('A')], { expectedRevision }),
            store.appendToStream(stream, [event('B')], { expectedRevision }),
          ]);
          const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
          expect(lost).toHaveLength(1);
          expect(lost[0]!.reason).toBeInstanceOf(WrongExpectedRevisionError);
          expect((lost[0]!.reason as WrongExpectedRevisionError).actual).toBe(round % 2 === 0 ? 0 : 1);
          expect(await store.readStream(stream)).toHaveLength((round % 2) + 1);
        }
      });
    });

    describe('global positions', () => {
      test('strictly increase in commit order, across streams and inside one append', async () => {
        const streams = [newStream(), newStream(), newStream()];
        const head = await store.headPosition();
        const results: AppendResult[] = [];
        for (let i = 0; i < 6; i++) {
          results.push(await store.appendToStream(streams[i % 3]!, [event(), event()], { expectedRevision: 'any' }));
        }
        for (let k = 1; k < results.length; k++) expect(results[k]!.position).toBeGreaterThan(results[k - 1]!.position);
        const all = await readOursAfter(head);
        const positions = all.map((e) => e.globalPosition);
        expect(all).toHaveLength(12);
        for (let k = 1; k < positions.length; k++) expect(positions[k]!).toBeGreaterThan(positions[k - 1]!);
        expect(positions.at(-1)).toBe(results.at(-1)!.position);
        for (const e of all) expect(e.globalPosition).toBeGreaterThanOrEqual(1);
      });

      test('headPosition is at least the last append, and reading after it gives the next append first', async () => {
        const first = await store.appendToStream(newStream(), [event()], { expectedRevision: 'no_stream' });
        const head = await store.headPosition();
        expect(head).toBeGreaterThanOrEqual(first.position);
        const next = event();
        const { position } = await store.appendToStream(newStream(), [next], { expectedRevision: 'no_stream' });
        expect(position).toBeGreaterThan(head);
        expect(await store.headPosition()).toBeGreaterThanOrEqual(position);
        expect((await readOursAfter(head)).map((e) => e.id)).toEqual([next.id]);
      });
    });

    describe('idempotency', () => {
      test('the same events appended twice are stored once with the same result, whatever the second expected', async () => {
        const stream = newStream();
        const events = [event(), event()];
        const first = await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
        const again = await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
        expectRepeatOf(again, first);
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      test('a repeat after later appends returns the current revision and the position of its own last event', async () => {
        const stream = newStream();
        const events = [event()];
        const first = await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
        await store.appendToStream(stream, [event()], { expectedRevision: 0 });
        const again = await store.appendToStream(stream, events, { expectedRevision: 0 });
        expectRepeatOf(again, { nextExpectedRevision: 1, position: first.position });
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      test('only some ids already stored: DuplicateEventIdError naming one, and nothing written', async () => {
        const stream = newStream();
        const stored = event();
        await store.appendToStream(stream, [stored], { expectedRevision: 'any' });
        const error = await store.appendToStream(stream, [stored, event()], { expectedRevision: 'any' }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DuplicateEventIdError);
        expect((error as DuplicateEventIdError).eventId).toBe(stored.id);
        expect(await store.readStream(stream)).toHaveLength(1);
      });

      test('an id stored in another stream: DuplicateEventIdError, and the other stream is not created', async () => {
        const stored = event();
        await store.appendToStream(newStream(), [stored], { expectedRevision: 'any' });
        const elsewhere = newStream();
        const error = await store.appendToStream(elsewhere, [stored], { expectedRevision: 'any' }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DuplicateEventIdError);
        expect((error as DuplicateEventIdError).eventId).toBe(stored.id);
        expect(await store.readStream(elsewhere)).toEqual([]);
      });

      test('the same append racing with itself is stored once and both callers get its result', async () => {
        const stream = newStream();
        const events = [event(), event()];
        const [a, b] = await Promise.all([
          store.appendToStream(stream, events, { expectedRevision: 'no_stream' }),
          store.appendToStream(stream, events, { expectedRevision: 'no_stream' }),
        ]);
        expect({ ...a, repeated: undefined }).toEqual({ ...b, repeated: undefined });
        // At most one of them can say it was a repeat (a store that cannot tell says neither).
        expect([a.repeated, b.repeated].filter((r) => r === true).length).toBeLessThanOrEqual(1);
        expect(await store.readStream(stream)).toHaveLength(2);
      });
    });

    describe('appendToStreams', () => {
      test('appends to every stream, results and positions in request order', async () => {
        const [s1, s2] = [newStream('zeta'), await givenStream(1, newStream('alpha'))];
        const written = [event(), event(), event()];
        const head = await store.headPosition();
        const results = await store.appendToStreams([
          { stream: s1, events: written.slice(0, 2), expectedRevision: 'no_stream' },
          { stream: s2, events: written.slice(2), expectedRevision: 0 },
        ]);
        expect(results.map((r) => r.nextExpectedRevision)).toEqual([1, 1]);
        expect(results[1]!.position).toBeGreaterThan(results[0]!.position);
        const read = (await readOursAfter(head)).filter((e) => e.stream === s1 || e.stream === s2);
        expect(read.map((e) => [e.stream, e.revision, e.id])).toEqual([
          [s1, 0, written[0]!.id],
          [s1, 1, written[1]!.id],
          [s2, 1, written[2]!.id],
        ]);
      });

      test('one conflicting request: nothing is written to any stream', async () => {
        const [ok, existing, conflicting] = [newStream(), await givenStream(1), await givenStream(1)];
        const head = await store.headPosition();
        const error = await wrongRevision(
          store.appendToStreams([
            { stream: ok, events: [event()], expectedRevision: 'no_stream' },
            { stream: existing, events: [event()], expectedRevision: 0 },
            { stream: conflicting, events: [event()], expectedRevision: 'no_stream' },
          ]),
        );
        expect(error).toMatchObject({ stream: conflicting, expected: 'no_stream', actual: 0 });
        expect(await store.readStream(ok)).toEqual([]);
        expect(await store.readStream(existing)).toHaveLength(1);
        expect(await store.readStream(conflicting)).toHaveLength(1);
        expect(await readOursAfter(head)).toEqual([]);
      });
      test('a request reusing an id stored elsewhere: DuplicateEventIdError, and nothing of the others written', async () => {
        const stored = event();
        await store.appendToStream(newStream(), [stored], { expectedRevision: 'no_stream' });
        const [fresh, reusing] = [newStream(), newStream()];
        const head = await store.headPosition();
        const error = await store
          .appendToStreams([
            { stream: fresh, events: [event()], expectedRevision: 'no_stream' },
            { stream: reusing, events: [stored], expectedRevision: 'no_stream' },
          ])
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DuplicateEventIdError);
        expect(await store.readStream(fresh)).toEqual([]);
        expect(await readOursAfter(head)).toEqual([]);
      });
    });

    describe('readStream', () => {
      test('in revision order, from a revision, at most maxCount; a missing stream is empty', async () => {
        const stream = await givenStream(5);
        expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
        expect((await store.readStream(stream, { fromRevision: 1, maxCount: 3 })).map((e) => e.revision)).toEqual([1, 2, 3]);
        expect((await store.readStream(stream, { fromRevision: 3 })).map((e) => e.revision)).toEqual([3, 4]);
        expect(await store.readStream(stream, { fromRevision: 5 })).toEqual([]);
        expect(await store.readStream(newStream())).toEqual([]);
      });
    });

    describe('readAll', () => {
      test('in batches: every event once, strictly after the checkpoint, in position order', async () => {
        const start = await store.headPosition();
        const streams = [newStream(), newStream(), newStream()];
        const written: string[] = [];
        for (let i = 0; i < 10; i++) {
          const e = event();
          written.push(e.id);
          await store.appendToStream(streams[i % 3]!, [e], { expectedRevision: 'any' });
        }
        const positions: number[] = [];
        const ours: string[] = [];
        for (let after = start; ; ) {
          const batch = await store.readAll({ after, maxCount: 3 });
          if (batch.length === 0) break;
          expect(batch.length).toBeLessThanOrEqual(3);
          expect(batch[0]!.globalPosition).toBeGreaterThan(after);
          positions.push(...batch.map((e) => e.globalPosition));
          ours.push(...batch.filter(isOurs).map((e) => e.id));
          after = batch.at(-1)!.globalPosition;
        }
        expect(ours).toEqual(written);
        for (let k = 1; k < positions.length; k++) expect(positions[k]!).toBeGreaterThan(positions[k - 1]!);
        expect(await store.headPosition()).toBeGreaterThanOrEqual(positions.at(-1)!);
      });

      test('with types: only those types, in position order, the position advancing past the others', async () => {
        const [registered, added, noise] = [newType('TeamRegistered'), newType('EntryAdded'), newType('Noise')];
        const start = await store.headPosition();
        const stream = newStream();
        await store.appendToStream(stream, [event(registered), event(added), event(noise), event(noise), event(added)], {
          expectedRevision: 'no_stream',
        });
        const filtered = await store.readAll({ after: start, maxCount: 10, types: [added, registered] });
        expect(filtered.map((e) => [e.type, e.revision])).toEqual([[registered, 0], [added, 1], [added, 4]]);
        expect(await store.readAll({ after: start, maxCount: 10, types: [newType('Nothing')] })).toEqual([]);
        // From the first EntryAdded, one event of that type: the next one, past the noise between.
        const [next] = await store.readAll({ after: filtered[1]!.globalPosition, maxCount: 1, types: [added] });
        expect([next?.type, next?.revision]).toEqual([added, 4]);
        // maxCount counts the matching events.
        expect(await store.readAll({ after: start, maxCount: 2, types: [added, registered] })).toEqual(filtered.slice(0, 2));
      });

      test('with metadata: false: the same events, their metadata omitted (OMITTED_METADATA) or intact', async () => {
        const stream = newStream();
        const written = [event('Lean', { n: 1 }), event('Lean', { n: 2 })];
        await store.appendToStream(stream, written, { expectedRevision: 'no_stream' });
        const full = await store.readStream(stream);
        const lean = (await readOursAfter(full[0]!.globalPosition - 1, 2, false)).filter((e) => e.stream === stream);
        expect(lean.map((e) => e.id)).toEqual(written.map((e) => e.id));
        lean.forEach((e, i) => {
          const { metadata, ...rest } = e;
          const { metadata: stored, ...expected } = full[i]!;
          expect(rest).toEqual(expected);
          // The interface allows either; never anything else (never partial metadata).
          expect([OMITTED_METADATA, stored]).toContainEqual(metadata);
        });
      });

      test('concurrent appends and a polling reader: the reader sees every committed event once, in order', async () => {
        const start = await store.headPosition();
        const committed = new Set<string>();
        const seen: RecordedEvent[] = [];
        let after = start;
        const poll = async () => {
          const batch = await store.readAll({ after, maxCount: 5 });
          for (let k = 0; k < batch.length; k++) {
            expect(batch[k]!.globalPosition).toBeGreaterThan(k === 0 ? after : batch[k - 1]!.globalPosition);
          }
          seen.push(...batch);
          if (batch.length > 0) after = batch.at(-1)!.globalPosition;
          return batch.length;
        };
        let done = false;
        const reading = (async () => {
          while (!done) {
            await poll();
            await sleep(2);
          }
          while ((await poll()) > 0);
        })();
        const shared = [newStream(), newStream(), newStream()];
        await Promise.all(
          Array.from({ length: 8 }, async (_, i) => {
            for (let n = 0; n < 4; n++) {
              await sleep(Math.random() * 5);
              const events = [event('Stress', { i, n }), ...(n % 2 ? [event('Stress', { i, n })] : [])];
              // Shared streams with 'any' and own streams with exact revisions: both kinds interleave.
              if (i % 2 === 0) await store.appendToStream(shared[n % 3]!, events, { expectedRevision: 'any' });
              else await store.appendToStreams([{ stream: `${shared[0]}-own${i}`, events, expectedRevision: n === 0 ? 'no_stream' : 'stream_exists' }]);
              for (const e of events) committed.add(e.id);
            }
          }),
        );
        done = true;
        await reading;
        const ours = seen.filter(isOurs).map((e) => e.id);
        expect(new Set(ours).size).toBe(ours.length);
        expect(new Set(ours)).toEqual(committed);
      });
    });

    describe('findEvent and round trip', () => {
      test('data, schema version, metadata and recording time round-trip through every read', async () => {
        const stream = newStream();
        const meta = metadata({
          actor: { userId: null, role: 'SYSTEM' },
          causationId: randomUUID(),
          imported: true,
          commandId: `cmd-${run}`,
        });
        const data = { km: 12.34, note: 'Tänan! "quoted" \\ 🚶', nested: { list: [1, null, true] } };
        const written = event(newType('EntryAdded'), data, { schemaVersion: 3, metadata: meta });
        const before = Date.now();
        const { position } = await store.appendToStream(stream, [written], { expectedRevision: 'no_stream' });
        const after = Date.now();
        const [read] = await store.readStream(stream);
        expect(read).toEqual({ ...written, stream, revision: 0, globalPosition: position, recordedAt: expect.any(Date) });
        // Another machine's clock (the server's) may differ a little from this one's.
        expect(read!.recordedAt.getTime()).toBeGreaterThan(before - 60_000);
        expect(read!.recordedAt.getTime()).toBeLessThan(after + 60_000);
        expect(await store.findEvent(written.id)).toEqual(read);
        expect(await store.readAll({ after: position - 1, maxCount: 1 })).toEqual([read]);
        // A user actor and no causation round-trip as well.
        const plain = event();
        await store.appendToStream(stream, [plain], { expectedRevision: 0 });
        expect((await store.findEvent(plain.id))?.metadata).toEqual(plain.metadata);
      });

      test('findEvent: the stored event with its stream and revision; null for an unknown id', async () => {
        const stream = await givenStream(2);
        const [, second] = await store.readStream(stream);
        expect(await store.findEvent(second!.id)).toMatchObject({ id: second!.id, stream, revision: 1 });
        expect(await store.findEvent(randomUUID())).toBeNull();
      });
    });

    describe('readStreams (optional)', () => {
      test('readStreams (skipped when the store has none): streams in request order, and findEvent in one call', async (ctx) => {
        const readStreams = store.readStreams?.bind(store);
        if (!readStreams) return ctx.skip('this store has no readStreams');
        const [a, b] = [await givenStream(3), await givenStream(2)];
        const [wanted] = await store.readStream(b);
        const { streams, event: found } = await readStreams([{ stream: b }, { stream: newStream() }, { stream: a, fromRevision: 1 }], {
          eventId: wanted!.id,
        });
        expect(streams.map((s) => s.map((e) => [e.stream, e.revision]))).toEqual([[[b, 0], [b, 1]], [], [[a, 1], [a, 2]]]);
        expect(found).toEqual(wanted);
        expect(streams[0]).toEqual(await store.readStream(b));
        expect((await readStreams([{ stream: a }], { eventId: randomUUID() })).event).toBeNull();
        expect((await readStreams([{ stream: a }])).event).toBeNull();
      });

      test('readStreams with streamsOf: every stream holding a picked event, read whole, in the same call', async (ctx) => {
        const readStreams = store.readStreams?.bind(store);
        if (!readStreams) return ctx.skip('this store has no readStreams');
        const [added, other] = [newType('Added'), newType('Other')];
        const [x, y, z, asked] = [newStream('entry'), newStream('entry'), newStream('entry'), await givenStream(1)];
        const participant = Number.parseInt(run, 16);
        await store.appendToStream(x, [event(added, { participantId: participant }), event(other, {})], { expectedRevision: 'no_stream' });
        await store.appendToStream(y, [event(added, { participantId: participant + 1 })], { expectedRevision: 'no_stream' });
        await store.appendToStream(z, [event(other, { participantId: participant }), event(added, { participantId: String(participant) })], { expectedRevision: 'no_stream' });
        const read = await readStreams([{ stream: asked }], { streamsOf: { types: [added], data: [{ field: 'participantId', values: [participant] }] } });
        expect(read.streams.map((events) => events.length)).toEqual([1]);
        // Whole streams (their events of other types too), in stream name order; y's participant is another.
        expect(read.found?.map((events) => events.map((e) => `${e.stream}@${e.revision}:${e.type}`))).toEqual(
          [[`${x}@0:${added}`, `${x}@1:${other}`], [`${z}@0:${other}`, `${z}@1:${added}`]].sort((p, q) => (p[0]! < q[0]! ? -1 : 1)),
        );
        expect((await readStreams([], { streamsOf: { types: [added], data: [{ field: 'participantId', values: [-1] }] } })).found).toEqual([]);
        expect((await readStreams([{ stream: asked }])).found).toBeUndefined();
      });

    });

    describe('subscribe (optional)', () => {
      test('subscribe (skipped when the store has none): tells the position of every event of its types after `after`, then of each new one', async (ctx) => {
        const subscribe = store.subscribe?.bind(store);
        if (!subscribe) return ctx.skip('this store has no subscribe');
        const [told, other] = [newType('Told'), newType('Other')];
        const start = await store.headPosition();
        const before = await store.appendToStream(newStream(), [event(told)], { expectedRevision: 'no_stream' });
        const seen: number[] = [];
        const subscription = subscribe({ after: start, types: [told], onEvent: (position) => seen.push(position) });
        await store.appendToStream(newStream(), [event(other)], { expectedRevision: 'no_stream' });
        const live = await store.appendToStream(newStream(), [event(told)], { expectedRevision: 'no_stream' });
        await vi.waitFor(() => expect(seen).toEqual([before.position, live.position]));
        await subscription.close();
      });
    });

    describe('appendToStreamsIf', () => {
      test('writes when no selected event came after the position; its own events do not count', async () => {
        const [stream, watched] = [newStream(), newStream()];
        await givenStream(1, watched);
        const head = await store.headPosition();
        const written = event();
        const [result] = await store.appendToStreamsIf([{ stream, events: [written], expectedRevision: 'no_stream' }], {
          noneAfter: head,
          selectors: [{ streams: [watched] }, { streams: [stream] }],
        });
        expect(result).toMatchObject({ nextExpectedRevision: 0 });
        expect((await store.readStream(stream)).map((e) => e.id)).toEqual([written.id]);
        // No selectors: nothing to contradict it.
        expect(await store.appendToStreamsIf([{ stream, events: [event()], expectedRevision: 0 }], { noneAfter: head, selectors: [] })).toHaveLength(1);
      });

      test('refuses with AppendConditionFailedError and writes nothing when a selected event came after the position', async () => {
        const [stream, other] = [newStream(), newStream()];
        const teamType = newType('MemberJoined');
        const head = await store.headPosition();
        await store.appendToStream(other, [event(teamType, { teamId: 7 })], { expectedRevision: 'no_stream' });
        const condition = { noneAfter: head, selectors: [{ types: [newType('Unrelated')] }, { types: [teamType], data: [{ field: 'teamId', values: [7] }] }] };
        const error = await store.appendToStreamsIf([{ stream, events: [event()], expectedRevision: 'no_stream' }], condition).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(AppendConditionFailedError);
        expect((error as AppendConditionFailedError).streams).toEqual([stream]);
        expect(await store.readStream(stream)).toEqual([]);
        // The same event at or before the position does not stop it; another team's does not either.
        const after = await store.headPosition();
        await store.appendToStream(other, [event(teamType, { teamId: 8 })], { expectedRevision: 0 });
        expect(await store.appendToStreamsIf([{ stream, events: [event()], expectedRevision: 'no_stream' }], { ...condition, noneAfter: after })).toHaveLength(1);
      });

      test('checks expected revisions and idempotency like appendToStreams', async () => {
        const stream = await givenStream(1);
        const head = await store.headPosition();
        await wrongRevision(store.appendToStreamsIf([{ stream, events: [event()], expectedRevision: 'no_stream' }], { noneAfter: head, selectors: [] }));
        const events = [event()];
        const first = await store.appendToStreamsIf([{ stream, events, expectedRevision: 0 }], { noneAfter: head, selectors: [] });
        const again = await store.appendToStreamsIf([{ stream, events, expectedRevision: 0 }], { noneAfter: head, selectors: [] });
        expectRepeatOf(again[0]!, first[0]!);
        await expect(store.appendToStreamsIf([{ stream, events: [event()], expectedRevision: 1 }], { noneAfter: head, selectors: [{ data: [{ field: 'bad field', values: [1] }] }] }))
          .rejects.toBeInstanceOf(TypeError);
      });
    });

    describe('readEvents and countEvents', () => {
      /** Given six events of this run's own types in three streams of two categories. */
      let logNo = 0;
      async function givenLog() {
        const n = ++logNo;
        const [added, edited, joined] = [newType(`Added${n}`), newType(`Edited${n}`), newType(`Joined${n}`)];
        const [entryA, entryB, member] = [newStream('entry'), newStream('entry'), newStream('member')];
        const start = await store.headPosition();
        const alice = metadata({ actor: { userId: `alice-${run}-${n}`, role: 'USER' } });
        await store.appendToStream(member, [event(joined, { teamId: 1, participantId: 10 })], { expectedRevision: 'no_stream' });
        await store.appendToStream(entryA, [event(added, { participantId: 10, km: 5 }, { metadata: alice })], { expectedRevision: 'no_stream' });
        await store.appendToStream(entryB, [event(added, { participantId: '11', km: 3 })], { expectedRevision: 'no_stream' });
        await store.appendToStream(entryA, [event(edited, { participantId: 11, km: 6 }, { metadata: alice })], { expectedRevision: 0 });
        await store.appendToStream(entryB, [event(edited, { participantId: 11, flag: true })], { expectedRevision: 0 });
        await store.appendToStream(member, [event(joined, { teamId: 2, participantId: 10 })], { expectedRevision: 0 });
        const all = (await readOursAfter(start)).filter((e) => [entryA, entryB, member].includes(e.stream));
        return { added, edited, joined, entryA, entryB, member, start, all, alice };
      }
      const ids = (events: RecordedEvent[]) => events.map((e) => `${e.stream}@${e.revision}`);

      test('by streams, category, types and payload field, in global order, as the log records them', async () => {
        const log = await givenLog();
        const { added, edited, joined, entryA, entryB, member, start, all } = log;
        expect(all).toHaveLength(6);
        const read = (selector: Parameters<EventStore['readEvents']>[0]) => store.readEvents({ after: start, ...selector });
        expect(await read({ streams: [entryB, member] })).toEqual(all.filter((e) => e.stream !== entryA));
        expect(ids(await read({ category: `entry-c${run}` }))).toEqual(ids(all.filter((e) => e.stream !== member)));
        expect(ids(await read({ types: [added, edited], category: 'entry' }))).toEqual([`${entryA}@0`, `${entryB}@0`, `${entryA}@1`, `${entryB}@1`]);
        expect(ids(await read({ types: [joined], category: 'member' }))).toEqual([`${member}@0`, `${member}@1`]);
        // Payload values compare as text: the number 11 and the string '11' alike.
        expect(ids(await read({ types: [added, edited], data: [{ field: 'participantId', values: [11] }] }))).toEqual([`${entryB}@0`, `${entryA}@1`, `${entryB}@1`]);
        expect(ids(await read({ types: [joined], data: [{ field: 'teamId', values: ['2', 3] }] }))).toEqual([`${member}@1`]);
        // Several payload conditions: all must hold.
        expect(ids(await read({ types: [joined], data: [{ field: 'participantId', values: [10] }, { field: 'teamId', values: [1] }] }))).toEqual([`${member}@0`]);
        expect(ids(await read({ types: [edited], data: [{ field: 'flag', values: ['true'] }] }))).toEqual([`${entryB}@1`]);
        expect(await read({ types: [] })).toEqual([]);
        expect(await read({ streams: [] })).toEqual([]);
        expect(await read({ types: [added], data: [{ field: 'participantId', values: [] }] })).toEqual([]);
      });

      test('by actor, recording time and position bounds; backwards, skip and maxCount; counted alike', async () => {
        const { added, edited, joined, member, start, all, alice } = await givenLog();
        const types = [added, edited, joined];
        expect(ids(await store.readEvents({ types, actorUserId: alice.actor.userId! }))).toEqual(ids(all.filter((e) => e.metadata.actor.userId === alice.actor.userId)));
        const [first, second, third] = all;
        expect(ids(await store.readEvents({ types, after: first!.globalPosition, until: third!.globalPosition }))).toEqual(ids([second!, third!]));
        expect(ids(await store.readEvents({ types, before: third!.globalPosition }))).toEqual(ids([first!, second!]));
        expect(ids(await store.readEvents({ types }, { direction: 'backwards', maxCount: 2 }))).toEqual(ids(all.slice(-2).reverse()));
        expect(ids(await store.readEvents({ types }, { direction: 'backwards', skip: 1, maxCount: 2 }))).toEqual(ids(all.slice(-3, -1).reverse()));
        expect(ids(await store.readEvents({ types, before: all.at(-1)!.globalPosition }, { direction: 'backwards', maxCount: 1 }))).toEqual(ids(all.slice(-2, -1)));
        expect(ids(await store.readEvents({ types }, { skip: 4 }))).toEqual(ids(all.slice(4)));
        // Recording times: every event of this run was recorded at or after the first one's.
        const firstAt = first!.recordedAt;
        expect(await store.countEvents({ types, recordedFrom: firstAt })).toBe(6);
        expect(await store.countEvents({ types, recordedBefore: firstAt })).toBe(0);
        expect(await store.countEvents({ types, recordedAfter: new Date(all.at(-1)!.recordedAt.getTime() + 1) })).toBe(0);
        expect(await store.countEvents({ types, after: start })).toBe(6);
        expect(await store.countEvents({ types: [joined], streams: [member] })).toBe(2);
        expect(await store.countEvents({ types: [newType('Nothing')] })).toBe(0);
      });

      test('a malformed selector or option is a TypeError', async () => {
        await expect(store.readEvents({ data: [{ field: "x'); DROP TABLE y; --", values: [1] }] })).rejects.toBeInstanceOf(TypeError);
        await expect(store.readEvents({ after: -1 })).rejects.toBeInstanceOf(TypeError);
        await expect(store.readEvents({ types: ['x'] }, { maxCount: 0 })).rejects.toBeInstanceOf(TypeError);
        await expect(store.countEvents({ until: 1.5 })).rejects.toBeInstanceOf(TypeError);
      });

      test('through withPersonalDataProtection: personal fields decrypted, and null once erased', async () => {
        const policy: PersonalDataPolicy = { ParticipantRegistered: { subject: 'participantId', fields: ['name'] } };
        const guarded = withPersonalDataProtection(store, subject!.vault, policy);
        const id = `${run}-9`;
        const stream = newStream('participant');
        await guarded.appendToStream(stream, [event('ParticipantRegistered', { participantId: id, name: 'Tiina' })], { expectedRevision: 'no_stream' });
        const selector = { types: ['ParticipantRegistered'], data: [{ field: 'participantId', values: [id] }] };
        expect((await guarded.readEvents(selector)).map((e) => e.data)).toEqual([{ participantId: id, name: 'Tiina' }]);
        expect(JSON.stringify((await store.readEvents(selector))[0]!.data)).not.toMatch(/Tiina/);
        expect(await guarded.countEvents(selector)).toBe(1);
        await subject!.vault.forget(`participant-${id}`);
        expect((await guarded.readEvents(selector)).map((e) => e.data)).toEqual([{ participantId: id, name: null }]);
      });
    });

    describe('erasure through withPersonalDataProtection', () => {
      test('a personal field is encrypted at rest, readable before forget, null after; other subjects intact', async () => {
        const policy: PersonalDataPolicy = { ParticipantRegistered: { subject: 'participantId', fields: ['name', 'email'] } };
        const guarded = withPersonalDataProtection(store, subject!.vault, policy);
        const [mari, kati] = [`${run}-1`, `${run}-2`];
        const registered = (participantId: string, name: string) =>
          event('ParticipantRegistered', { participantId, name, email: `${name.toLowerCase()}@example.ee`, km: 5 });
        const [mariStream, katiStream] = [newStream('participant'), newStream('participant')];
        const written = registered(mari, 'Mari');
        const { position } = await guarded.appendToStream(mariStream, [written], { expectedRevision: 'no_stream' });
        await guarded.appendToStream(katiStream, [registered(kati, 'Kati')], { expectedRevision: 'no_stream' });

        // At rest (the undecorated store): ciphertext in place of the personal fields only.
        const [raw] = await store.readStream(mariStream);
        expect(JSON.stringify(raw!.data)).not.toMatch(/Mari|mari@/);
        expect(raw!.data).toMatchObject({ participantId: mari, km: 5, name: expect.stringMatching(/^pii:v1:/), email: expect.stringMatching(/^pii:v1:/) });

        const plain = { participantId: mari, name: 'Mari', email: 'mari@example.ee', km: 5 };
        const reads = async () => [
          (await guarded.readStream(mariStream))[0]?.data,
          (await guarded.readAll({ after: position - 1, maxCount: 1 }))[0]?.data,
          (await guarded.findEvent(written.id))?.data,
        ];
        expect(await reads()).toEqual([plain, plain, plain]);

        await subject!.vault.forget(`participant-${mari}`);

        const erased = { ...plain, name: null, email: null };
        expect(await reads()).toEqual([erased, erased, erased]);
        expect((await guarded.readStream(katiStream))[0]!.data).toMatchObject({ name: 'Kati' });
      });

      test('an idempotent repeat through the decorator is still a repeat (fresh ciphertexts, same ids)', async () => {
        const policy: PersonalDataPolicy = { ParticipantRegistered: { subject: 'participantId', fields: ['name'] } };
        const guarded = withPersonalDataProtection(store, subject!.vault, policy);
        const stream = newStream('participant');
        const events = [event('ParticipantRegistered', { participantId: `${run}-3`, name: 'Liis' })];
        const first = await guarded.appendToStream(stream, events, { expectedRevision: 'no_stream' });
        const again = await guarded.appendToStream(stream, events, { expectedRevision: 'no_stream' });
        expectRepeatOf(again, first);
        expect(await guarded.readStream(stream)).toHaveLength(1);
      });
    });
  });
}

/** Resolves after `ms` milliseconds. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Metadata of a user action, with a fresh correlation id. */
function metadata(overrides: Partial<EventMetadata> = {}): EventMetadata {
  return { actor: { userId: 'u1', role: 'USER' }, correlationId: randomUUID(), causationId: null, ...overrides };
}

/** An event with a fresh id (override anything). */
function event(type = 'Happened', data: unknown = {}, overrides: Partial<EventData> = {}): EventData {
  return { id: randomUUID(), type, schemaVersion: 1, data, metadata: metadata(), ...overrides };
}

async function wrongRevision(promise: Promise<unknown>): Promise<WrongExpectedRevisionError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  return error as WrongExpectedRevisionError;
}

/**
 * `again` answers an idempotent repeat of the append that answered `first`: the same revision and
 * position, `repeated` true (or undefined from a store that cannot tell), and `first` not a repeat.
 */
function expectRepeatOf(again: AppendResult, first: AppendResult): void {
  expect({ nextExpectedRevision: again.nextExpectedRevision, position: again.position }).toEqual({
    nextExpectedRevision: first.nextExpectedRevision,
    position: first.position,
  });
  expect([true, undefined]).toContain(again.repeated);
  expect([false, undefined]).toContain(first.repeated);
}
