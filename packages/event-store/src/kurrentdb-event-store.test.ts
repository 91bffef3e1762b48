/**
 * The KurrentDB adapter's logic on the in-memory stand-in of the client (testing/kurrentdb-stand-in.ts;
 * the contract suite runs on the stand-in here and on a real KurrentDB in CI): appends and their atomicity, the event-id
 * index, idempotent repeats (the recovery of a half-done command whose answer was lost), reused
 * ids, conflicts, positions and reads, and a server without multi-stream append.
 */
import { describe, expect, test } from 'vitest';
import { KurrentDbVersionError } from './kurrentdb-event-store';
import { kurrentDbStandInStore } from './testing/kurrentdb-stand-in';
import { AppendConditionFailedError, DuplicateEventIdError, WrongExpectedRevisionError, type EventData } from './types';

function setup() {
  const { standIn: fake, store } = kurrentDbStandInStore();
  return { fake, store };
}

let counter = 0;
function event(type = 'EntryAdded', data: unknown = { n: ++counter }): EventData {
  const id = `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
  return { id, type, schemaVersion: 1, data, metadata: { actor: { userId: 'u-1', role: 'USER' }, correlationId: 'c', causationId: null } };
}

describe('appends', () => {
  test('given a new stream, when two events are appended, then they read back with revisions, positions and one index pointer each', async () => {
    const { fake, store } = setup();
    const [a, b] = [event(), event()];
    const result = await store.appendToStream('entry-1', [a!, b!], { expectedRevision: 'no_stream' });
    expect(result).toMatchObject({ nextExpectedRevision: 1, repeated: false });
    const read = await store.readStream('entry-1');
    expect(read.map((e) => [e.id, e.revision, e.data])).toEqual([[a!.id, 0, a!.data], [b!.id, 1, b!.data]]);
    expect(result.position).toBeGreaterThanOrEqual(read[1]!.globalPosition);
    expect(fake.typesOf(`event-id-${a!.id}`)).toEqual(['sinilill.event-id']);
    expect(await store.findEvent(b!.id)).toMatchObject({ id: b!.id, stream: 'entry-1', revision: 1 });
    expect(await store.findEvent('00000000-0000-4000-8000-999999999999')).toBeNull();
    expect(await store.findEvent('not-a-uuid')).toBeNull();
  });

  test('a stale expected revision is WrongExpectedRevisionError(stream, expected, actual)', async () => {
    const { store } = setup();
    await store.appendToStream('team-1', [event()], { expectedRevision: 'no_stream' });
    await expect(store.appendToStream('team-1', [event()], { expectedRevision: 'no_stream' }))
      .rejects.toMatchObject({ name: 'WrongExpectedRevisionError', stream: 'team-1', expected: 'no_stream', actual: 0 });
  });

  test('several streams are all or nothing: one stale stream, and nothing of the other is written', async () => {
    const { fake, store } = setup();
    await store.appendToStream('team-1', [event()], { expectedRevision: 'no_stream' });
    const before = fake.all.length;
    await expect(store.appendToStreams([
      { stream: 'entry-9', events: [event()], expectedRevision: 'no_stream' },
      { stream: 'team-1', events: [event('TeamRenamed')], expectedRevision: 5 },
    ])).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(fake.all.length).toBe(before);
    expect(await store.readStream('entry-9')).toEqual([]);
  });

  test('a revision check without events passes or fails on the stream as read, writing nothing', async () => {
    const { store } = setup();
    await store.appendToStream('team-1', [event()], { expectedRevision: 'no_stream' });
    expect(await store.appendToStreams([{ stream: 'team-1', events: [], expectedRevision: 0 }])).toMatchObject([{ nextExpectedRevision: 0, repeated: false }]);
    expect(await store.appendToStreams([{ stream: 'team-2', events: [], expectedRevision: 'no_stream' }])).toEqual([{ nextExpectedRevision: -1, position: 0, repeated: false }]);
    await expect(store.appendToStreams([{ stream: 'team-1', events: [], expectedRevision: 3 }])).rejects.toBeInstanceOf(WrongExpectedRevisionError);
  });

  test('malformed requests are TypeErrors, as on PostgreSQL', async () => {
    const { store } = setup();
    await expect(store.appendToStreams([])).rejects.toBeInstanceOf(TypeError);
    await expect(store.appendToStream('s', [{ ...event(), id: 'x' }], { expectedRevision: 'any' })).rejects.toBeInstanceOf(TypeError);
  });

  test('a server without multi-stream append is named as such', async () => {
    const { fake, store } = setup();
    fake.old = true;
    await expect(store.appendToStream('s', [event()], { expectedRevision: 'any' })).rejects.toBeInstanceOf(KurrentDbVersionError);
  });
});

describe('idempotency (the event-id index)', () => {
  test('given a command whose append committed but whose answer was lost, when retried, then it is a repeat with the original result and nothing twice', async () => {
    const { fake, store } = setup();
    const events = [event(), event()];
    fake.loseNextAnswer = true;
    await expect(store.appendToStreams([{ stream: 'entry-1', events, expectedRevision: 'no_stream' }])).rejects.toThrow(/UNAVAILABLE/);
    const stored = await store.readStream('entry-1');
    const [repeat] = await store.appendToStreams([{ stream: 'entry-1', events, expectedRevision: 'no_stream' }]);
    expect(repeat).toEqual({ nextExpectedRevision: 1, position: stored[1]!.globalPosition, repeated: true });
    expect(await store.readStream('entry-1')).toHaveLength(2);
  });

  test('a repeat is recognised even when the stream has moved on since (its expected revision is not checked) and answers the current revision, as PostgreSQL does', async () => {
    const { store } = setup();
    const first = [event()];
    await store.appendToStream('entry-1', first, { expectedRevision: 'no_stream' });
    await store.appendToStream('entry-1', [event()], { expectedRevision: 0 });
    expect(await store.appendToStream('entry-1', first, { expectedRevision: 'no_stream' })).toMatchObject({ nextExpectedRevision: 1, repeated: true });
  });

  test('a repeat of one request beside a new one appends the new one only', async () => {
    const { store } = setup();
    const first = [event()];
    await store.appendToStream('entry-1', first, { expectedRevision: 'no_stream' });
    const results = await store.appendToStreams([
      { stream: 'entry-1', events: first, expectedRevision: 'no_stream' },
      { stream: 'entry-2', events: [event()], expectedRevision: 'no_stream' },
    ]);
    expect(results.map((r) => r.repeated)).toEqual([true, false]);
    expect(await store.readStream('entry-2')).toHaveLength(1);
  });

  test('an id stored in another stream, or only some of the ids: DuplicateEventIdError, nothing written', async () => {
    const { fake, store } = setup();
    const [a, b] = [event(), event()];
    await store.appendToStream('entry-1', [a!], { expectedRevision: 'no_stream' });
    const before = fake.all.length;
    await expect(store.appendToStream('entry-2', [a!], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(DuplicateEventIdError);
    await expect(store.appendToStream('entry-1', [a!, b!], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(DuplicateEventIdError);
    expect(fake.all.length).toBe(before);
  });

  test('a repeat is judged by its ids, as on PostgreSQL: a retry re-encrypted by the personal-data decorator (other bytes) is still a repeat', async () => {
    const { fake, store } = setup();
    const a = event();
    const first = await store.appendToStream('entry-1', [a], { expectedRevision: 'no_stream' });
    const before = fake.all.length;
    const again = await store.appendToStream('entry-1', [{ ...a, data: { reEncrypted: true } }], { expectedRevision: 'no_stream' });
    expect(again).toMatchObject({ nextExpectedRevision: first.nextExpectedRevision, repeated: true });
    expect(fake.all.length).toBe(before);
  });

  test("an append with 'any' stores a pointer without revision; findEvent then searches the stream", async () => {
    const { store } = setup();
    await store.appendToStream('log-1', [event(), event()], { expectedRevision: 'any' });
    const last = event();
    await store.appendToStream('log-1', [last], { expectedRevision: 'any' });
    expect(await store.findEvent(last.id)).toMatchObject({ stream: 'log-1', revision: 2 });
  });
});

describe('reads', () => {
  test('readAll: after a position, in order, of some types, without index pointers; headPosition the last one', async () => {
    const { store } = setup();
    await store.appendToStream('team-1', [event('TeamRegistered'), event('EntryAdded'), event('EntryAdded')], { expectedRevision: 'no_stream' });
    const all = await store.readAll({ after: 0, maxCount: 100 });
    expect(all.map((e) => e.type)).toEqual(['TeamRegistered', 'EntryAdded', 'EntryAdded']);
    expect((await store.readAll({ after: all[0]!.globalPosition, maxCount: 1 })).map((e) => e.globalPosition)).toEqual([all[1]!.globalPosition]);
    expect((await store.readAll({ after: 0, maxCount: 10, types: ['TeamRegistered'] })).map((e) => e.type)).toEqual(['TeamRegistered']);
    expect(await store.headPosition()).toBe(all[2]!.globalPosition);
  });

  test('an empty log has head 0 and a missing stream reads empty; readStreams reads several and looks up an id', async () => {
    const { store } = setup();
    expect(await store.headPosition()).toBe(0);
    expect(await store.readStream('nothing')).toEqual([]);
    const a = event();
    await store.appendToStream('entry-1', [a, event()], { expectedRevision: 'no_stream' });
    const { streams, event: found } = await store.readStreams([{ stream: 'entry-1', fromRevision: 1 }, { stream: 'nothing' }], { eventId: a.id });
    expect(streams.map((s) => s.length)).toEqual([1, 0]);
    expect(found?.id).toBe(a.id);
  });

  test('a closed store refuses work', async () => {
    const { store } = setup();
    await store.close();
    await expect(store.readStream('x')).rejects.toThrow(/closed/);
  });
});

describe('payload indexes and conditional appends', () => {
  const member = (teamId: number, participantId: number) => event('ParticipantRegistered', { teamId, participantId });
  const deletion = () => event('TeamDeleted', { teamId: 7 });
  const members = (teamId: number) => ({ types: ['ParticipantRegistered'], data: [{ field: 'teamId', values: [teamId] }] });

  test('an indexed event also writes a pointer into its index stream, in the same append; readAll never returns it', async () => {
    const { fake, store } = setup();
    await store.appendToStream('participant-1', [member(7, 1)], { expectedRevision: 'no_stream' });
    await store.appendToStream('entry-1', [event('EntryAdded', { participantId: 1, distance: 5 })], { expectedRevision: 'no_stream' });
    expect(fake.typesOf('sinilill-index-teamId-7')).toEqual(['sinilill.index']);
    expect(fake.typesOf('sinilill-index-participantId-1')).toEqual(['sinilill.index']);
    expect((await store.readAll({ after: 0, maxCount: 100 })).map((e) => e.type)).toEqual(['ParticipantRegistered', 'EntryAdded']);
  });

  test('readEvents of a covered selector reads the index streams, not $all; the rest of the selector still applies', async () => {
    const { fake, store } = setup();
    await store.appendToStream('participant-1', [member(7, 1)], { expectedRevision: 'no_stream' });
    await store.appendToStream('participant-2', [member(8, 2)], { expectedRevision: 'no_stream' });
    await store.appendToStream('log-1', [member(7, 3)], { expectedRevision: 'any' }); // a pointer without revision
    const second = await store.appendToStream('participant-4', [member(7, 4)], { expectedRevision: 'no_stream' });
    fake.readAll = () => {
      throw new Error('scanned $all');
    };
    expect((await store.readEvents(members(7))).map((e) => e.stream)).toEqual(['participant-1', 'log-1', 'participant-4']);
    expect((await store.readEvents({ ...members(7), until: second.position - 1 }, { direction: 'backwards' })).map((e) => e.stream)).toEqual(['log-1', 'participant-1']);
    expect(await store.readEvents(members(9))).toEqual([]);
  });

  test('a member who joins between the condition\'s read and the append moves the index: AppendConditionFailedError, nothing written', async () => {
    const { fake, store } = setup();
    await store.appendToStream('participant-1', [member(7, 1)], { expectedRevision: 'no_stream' });
    const head = await store.headPosition();
    // The join commits just before the deletion's append reaches the server (after every read of the condition).
    const appendRecords = fake.appendRecords.bind(fake);
    let joined = false;
    fake.appendRecords = async (...args) => {
      if (!joined) {
        joined = true;
        await store.appendToStream('participant-2', [member(7, 2)], { expectedRevision: 'no_stream' });
      }
      return appendRecords(...args);
    };
    const error = await store.appendToStreamsIf([{ stream: 'team-7', events: [deletion()], expectedRevision: 'any' }], { noneAfter: head, selectors: [members(7)] })
      .catch((e: unknown) => e);
    expect(joined).toBe(true);
    expect(error).toBeInstanceOf(AppendConditionFailedError);
    expect(await store.readStream('team-7')).toEqual([]);
    // Read again and decided again, it goes through.
    const again = await store.headPosition();
    expect(await store.appendToStreamsIf([{ stream: 'team-7', events: [deletion()], expectedRevision: 'any' }], { noneAfter: again, selectors: [members(7)] })).toHaveLength(1);
  });

  test('another team\'s member meanwhile does not stop it; a retried conditional append is a repeat', async () => {
    const { fake, store } = setup();
    const head = await store.headPosition();
    const appendRecords = fake.appendRecords.bind(fake);
    let joined = false;
    fake.appendRecords = async (...args) => {
      if (!joined) {
        joined = true;
        await store.appendToStream('participant-3', [member(8, 3)], { expectedRevision: 'no_stream' });
      }
      return appendRecords(...args);
    };
    const events = [deletion()];
    const [first] = await store.appendToStreamsIf([{ stream: 'team-7', events, expectedRevision: 'any' }], { noneAfter: head, selectors: [members(7)] });
    expect(first).toMatchObject({ nextExpectedRevision: 0, repeated: false });
    const [again] = await store.appendToStreamsIf([{ stream: 'team-7', events, expectedRevision: 'any' }], { noneAfter: head, selectors: [members(7)] });
    expect(again).toMatchObject({ nextExpectedRevision: 0, repeated: true });
  });
});
