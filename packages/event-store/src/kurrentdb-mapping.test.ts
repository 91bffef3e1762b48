import { ANY, NO_STREAM, STREAM_EXISTS, WrongExpectedVersionError, type AllStreamResolvedEvent, type RecordedEvent as KurrentRecordedEvent } from '@kurrent/kurrentdb-client';
import { describe, expect, test } from 'vitest';
import { takeBatch } from './kurrentdb-event-store';
import {
  EVENT_ID_INDEX_TYPE,
  actualRevision,
  eventIdIndexStream,
  eventTypeRegex,
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
import { OMITTED_METADATA, WrongExpectedRevisionError, type EventData } from './types';

const event: EventData = {
  id: '0B6F1C7E-2D5A-4C1B-9E0F-3A4B5C6D7E8F',
  type: 'EntryAdded',
  schemaVersion: 2,
  data: { entryId: 'e-1', distanceKm: 12.5 },
  metadata: { actor: { userId: 'u-1', role: 'USER' }, correlationId: 'c-1', causationId: 'k-1', commandId: 'k-1' },
};

/** A stored event as the client hands it back (what the server returns for toKurrentEvent's output). */
function stored(overrides: Partial<KurrentRecordedEvent> = {}): KurrentRecordedEvent {
  const written = toKurrentEvent(event);
  return {
    streamId: 'entry-1',
    id: written.id,
    isJson: true,
    revision: 7n,
    type: written.type,
    created: new Date('2026-05-01T10:00:00Z'),
    data: written.data,
    metadata: written.metadata,
    position: { commit: 1234n, prepare: 1234n },
    ...overrides,
  } as KurrentRecordedEvent;
}

describe('events: ours → KurrentDB → ours', () => {
  test('given an event, when written, then it is JSON with its id (lower case), type, data and string-only metadata', () => {
    const written = toKurrentEvent(event);
    expect(written).toMatchObject({ id: event.id.toLowerCase(), type: 'EntryAdded', contentType: 'application/json', data: event.data });
    expect(written.metadata).toEqual({
      'schema-version': '2',
      'sinilill-metadata': JSON.stringify(event.metadata),
      $correlationId: 'c-1',
      $causationId: 'k-1',
    });
    // multiStreamAppend refuses metadata values that are not strings.
    expect(Object.values(written.metadata as object).every((v) => typeof v === 'string')).toBe(true);
  });

  test('a null causation id is left out of the metadata', () => {
    const written = toKurrentEvent({ ...event, metadata: { ...event.metadata, causationId: null } });
    expect(written.metadata).not.toHaveProperty('$causationId');
  });

  test('given a stored event, when read, then stream, revision, position (commit) and recordedAt (created) come from the server', () => {
    expect(toRecordedEvent(stored())).toEqual({
      ...event,
      id: event.id.toLowerCase(),
      stream: 'entry-1',
      revision: 7,
      globalPosition: 1234,
      recordedAt: new Date('2026-05-01T10:00:00Z'),
    });
  });

  test('metadata stored as bytes is decoded; metadata:false skips it; an event of another writer gets defaults', () => {
    const bytes = new TextEncoder().encode(JSON.stringify(toKurrentEvent(event).metadata));
    expect(toRecordedEvent(stored({ metadata: bytes } as Partial<KurrentRecordedEvent>)).metadata).toEqual(event.metadata);
    expect(toRecordedEvent(stored(), { metadata: false }).metadata).toBe(OMITTED_METADATA);
    const foreign = toRecordedEvent(stored({ metadata: undefined } as Partial<KurrentRecordedEvent>));
    expect(foreign.schemaVersion).toBe(1);
    expect(foreign.metadata).toBe(OMITTED_METADATA);
  });

  test('an event without its $all position is refused (a server older than 22.6)', () => {
    expect(() => toRecordedEvent(stored({ position: undefined }))).toThrow(/position/);
  });
});

describe('expected revisions and conflicts', () => {
  test('map both ways', () => {
    expect(toStreamState('any')).toBe(ANY);
    expect(toStreamState('no_stream')).toBe(NO_STREAM);
    expect(toStreamState('stream_exists')).toBe(STREAM_EXISTS);
    expect(toStreamState(0)).toBe(0n);
    expect(toStreamState(41)).toBe(41n);
    for (const r of ['any', 'no_stream', 'stream_exists', 0, 41] as const) expect(fromStreamState(toStreamState(r))).toBe(r);
    expect(() => toStreamState(-1)).toThrow(TypeError);
    expect(() => toStreamState(1.5)).toThrow(TypeError);
  });

  test("the client's WrongExpectedVersionError becomes WrongExpectedRevisionError(stream, expected, actual)", () => {
    const existing = translateWrongExpectedVersion(new WrongExpectedVersionError(undefined, { streamName: 'team-1', expected: 3n, current: 5n }));
    expect(existing).toBeInstanceOf(WrongExpectedRevisionError);
    expect(existing).toMatchObject({ stream: 'team-1', expected: 3, actual: 5 });
    const missing = translateWrongExpectedVersion(new WrongExpectedVersionError(undefined, { streamName: 'team-2', expected: STREAM_EXISTS, current: NO_STREAM }));
    expect(missing).toMatchObject({ stream: 'team-2', expected: 'stream_exists', actual: null });
    const other = new Error('unavailable');
    expect(translateWrongExpectedVersion(other)).toBe(other);
  });

  test('a deleted or tombstoned stream (-5n, -6n) has no actual revision', () => {
    expect(actualRevision(-5n)).toBeNull();
    expect(actualRevision(-6n)).toBeNull();
    expect(actualRevision(NO_STREAM)).toBeNull();
    expect(actualRevision(0n)).toBe(0);
  });
});

describe('the event-id index', () => {
  test('one pointer stream per id (lower case), holding stream and revision when known before the append', () => {
    expect(eventIdIndexStream(event.id)).toBe(`event-id-${event.id.toLowerCase()}`);
    expect(plannedRevisions('no_stream', 2)).toEqual([0, 1]);
    expect(plannedRevisions(4, 3)).toEqual([5, 6, 7]);
    expect(plannedRevisions('any', 1)).toBeNull();
    expect(plannedRevisions('stream_exists', 1)).toBeNull();
    const pointer = toPointerEvent('5d7c1a2b-0000-4000-8000-000000000001', { stream: 'entry-1', revision: 5 });
    expect(pointer.type).toBe(EVENT_ID_INDEX_TYPE);
    expect(readPointer(stored({ type: EVENT_ID_INDEX_TYPE, data: pointer.data } as Partial<KurrentRecordedEvent>))).toEqual({ stream: 'entry-1', revision: 5 });
    expect(readPointer(stored())).toBeNull();
    expect(readPointer(undefined)).toBeNull();
  });

});

describe('$all: positions and filters', () => {
  test('reading after a global position starts at that commit position', () => {
    expect(fromGlobalPosition(1234)).toEqual({ commit: 1234n, prepare: 1234n });
  });

  test('the filter takes exactly the given types (escaped), or everything but system events and index pointers', () => {
    const only = new RegExp(eventTypeRegex(['EntryAdded', 'Team.Renamed', 'EntryAdded']));
    expect(only.test('EntryAdded')).toBe(true);
    expect(only.test('Team.Renamed')).toBe(true);
    expect(only.test('TeamxRenamed')).toBe(false);
    expect(only.test('EntryAddedLater')).toBe(false);
    const rest = new RegExp(eventTypeRegex());
    expect(rest.test('EntryAdded')).toBe(true);
    expect(rest.test('$metadata')).toBe(false);
    expect(rest.test(EVENT_ID_INDEX_TYPE)).toBe(false);
    expect(isHidden({ type: 'EntryAdded', streamId: '$$entry-1' })).toBe(true);
    expect(isHidden({ type: 'EntryAdded', streamId: 'entry-1' })).toBe(false);
  });

  async function* all(positions: number[]): AsyncIterable<AllStreamResolvedEvent> {
    for (const [i, p] of positions.entries()) {
      yield { event: stored({ revision: BigInt(i), position: { commit: BigInt(p), prepare: BigInt(p) } }) } as AllStreamResolvedEvent;
    }
  }

  test('a batch skips the event at `after` (the server starts inclusive) and stops at maxCount', async () => {
    const batch = await takeBatch(all([100, 200, 300, 400]), 100, 2, true);
    expect(batch.map((e) => e.globalPosition)).toEqual([200, 300]);
  });

  test('a batch never ends between two events of one position (a checkpoint there would skip the second)', async () => {
    const batch = await takeBatch(all([200, 300, 300, 300, 400]), 0, 2, false);
    expect(batch.map((e) => e.globalPosition)).toEqual([200, 300, 300, 300]);
  });

  test('index pointers and system events in the read are dropped', async () => {
    async function* mixed(): AsyncIterable<AllStreamResolvedEvent> {
      yield { event: stored({ type: EVENT_ID_INDEX_TYPE, position: { commit: 150n, prepare: 150n } } as Partial<KurrentRecordedEvent>) } as AllStreamResolvedEvent;
      yield { event: stored({ type: '$metadata', position: { commit: 160n, prepare: 160n } } as Partial<KurrentRecordedEvent>) } as AllStreamResolvedEvent;
      yield { event: stored({ position: { commit: 170n, prepare: 170n } }) } as AllStreamResolvedEvent;
    }
    expect((await takeBatch(mixed(), 0, 10, true)).map((e) => e.globalPosition)).toEqual([170]);
  });
});
