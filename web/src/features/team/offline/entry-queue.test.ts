import type { AddEntryBody, EntryAnswer } from '@sinilill/contracts';
import { describe, expect, test } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import {
  ENTRY_QUEUE_STORAGE_KEY, enqueueEntry, failureKind, flushQueue, queuedFor, readQueue, removeQueued, type QueuedEntry, type QueueStorage,
} from './entry-queue';

/** An in-memory localStorage (the unit project runs in node). */
function memoryStorage(initial: Record<string, string> = {}): QueueStorage & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => {
      data[key] = value;
    },
  };
}

const body = (distance: number): AddEntryBody => ({ distance, entry_type: 'WALK', performed_at: '2025-04-20', participant_id: 7 });
const queued = (key: string, distance: number, userId = 'u1', teamId = 3): QueuedEntry => ({
  key, userId, teamId, body: body(distance), queuedAt: '2025-04-20T09:00:00.000Z',
});
const answer = (position: number): EntryAnswer => ({ success: true, position } as EntryAnswer);

describe('the stored queue', () => {
  test('given nothing or garbage stored, when read, then it is empty', () => {
    expect(readQueue(memoryStorage())).toEqual([]);
    expect(readQueue(memoryStorage({ [ENTRY_QUEUE_STORAGE_KEY]: '{not json' }))).toEqual([]);
    expect(readQueue(memoryStorage({ [ENTRY_QUEUE_STORAGE_KEY]: '[{"key":1}]' }))).toEqual([]);
    expect(readQueue(undefined)).toEqual([]);
  });

  test('given two entries queued, when read, then they come oldest first; the same key twice is kept once', () => {
    const storage = memoryStorage();
    enqueueEntry(storage, queued('k1', 5));
    enqueueEntry(storage, queued('k2', 7.5));
    enqueueEntry(storage, queued('k1', 99));
    expect(readQueue(storage).map((e) => [e.key, e.body.distance])).toEqual([['k1', 5], ['k2', 7.5]]);
    removeQueued(storage, 'k1');
    expect(readQueue(storage).map((e) => e.key)).toEqual(['k2']);
  });

  test('only the account’s own entries (and team’s, when asked) are listed', () => {
    const queue = [queued('a', 1, 'u1', 3), queued('b', 2, 'u2', 3), queued('c', 3, 'u1', 4)];
    expect(queuedFor(queue, 'u1').map((e) => e.key)).toEqual(['a', 'c']);
    expect(queuedFor(queue, 'u1', 3).map((e) => e.key)).toEqual(['a']);
  });

  test('when storage refuses, enqueue throws (the caller keeps the network error)', () => {
    const full: QueueStorage = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } };
    expect(() => enqueueEntry(full, queued('k', 1))).toThrow();
    expect(() => enqueueEntry(undefined, queued('k', 1))).toThrow();
  });
});

describe('which failures keep an entry', () => {
  test.each([
    [0, 'later'], [401, 'later'], [408, 'later'], [429, 'later'], [500, 'later'], [503, 'later'],
    [400, 'refused'], [403, 'refused'], [409, 'refused'], [422, 'refused'],
  ] as const)('status %i → %s', (status, kind) => {
    expect(failureKind(new ApiError('GENERIC_ERROR', status))).toBe(kind);
  });

  test('anything but an ApiError (an abort, a bug) keeps it', () => {
    expect(failureKind(new TypeError('Failed to fetch'))).toBe('later');
  });
});

describe('flushing', () => {
  test('given three entries, when all are answered, then they are sent in order, each with its own key, and the queue is empty', async () => {
    const storage = memoryStorage();
    for (const [key, km] of [['k1', 1], ['k2', 2], ['k3', 3]] as const) enqueueEntry(storage, queued(key, km));
    const sent: string[] = [];
    const result = await flushQueue(storage, 'u1', (entry) => {
      sent.push(`${entry.key}:${entry.body.distance}`);
      return Promise.resolve(answer(10 + sent.length));
    });
    expect(sent).toEqual(['k1:1', 'k2:2', 'k3:3']);
    expect(result.sent.map((s) => s.position)).toEqual([11, 12, 13]);
    expect(result.stopped).toBe(false);
    expect(readQueue(storage)).toEqual([]);
  });

  test('given the network fails on the second, then the first leaves, the rest wait; the retry sends the SAME key', async () => {
    const storage = memoryStorage();
    for (const key of ['k1', 'k2', 'k3']) enqueueEntry(storage, queued(key, 1));
    const keys: string[] = [];
    let online = true;
    const send = (entry: QueuedEntry) => {
      keys.push(entry.key);
      if (entry.key === 'k2' && online) return Promise.reject(new ApiError('GENERIC_ERROR', 0));
      return Promise.resolve(answer(1));
    };
    const first = await flushQueue(storage, 'u1', send);
    expect(first.stopped).toBe(true);
    expect(first.sent.map((s) => s.entry.key)).toEqual(['k1']);
    expect(readQueue(storage).map((e) => e.key)).toEqual(['k2', 'k3']);
    online = false;
    const second = await flushQueue(storage, 'u1', send);
    expect(keys).toEqual(['k1', 'k2', 'k2', 'k3']);
    expect(second.sent.map((s) => s.entry.key)).toEqual(['k2', 'k3']);
    expect(readQueue(storage)).toEqual([]);
  });

  test('given a catalogue refusal, then that entry leaves with its code and the next is still sent', async () => {
    const storage = memoryStorage();
    enqueueEntry(storage, queued('bad', 1));
    enqueueEntry(storage, queued('good', 2));
    const result = await flushQueue(storage, 'u1', (entry) =>
      entry.key === 'bad' ? Promise.reject(new ApiError('ENTRY_DEADLINE_PASSED', 400)) : Promise.resolve(answer(5)));
    expect(result.refused.map((r) => [r.entry.key, r.code])).toEqual([['bad', 'ENTRY_DEADLINE_PASSED']]);
    expect(result.sent.map((s) => s.entry.key)).toEqual(['good']);
    expect(readQueue(storage)).toEqual([]);
  });

  test('a 5xx keeps the entry; another account’s entries are neither sent nor removed', async () => {
    const storage = memoryStorage();
    enqueueEntry(storage, queued('mine', 1, 'u1'));
    enqueueEntry(storage, queued('theirs', 2, 'u2'));
    const keys: string[] = [];
    const result = await flushQueue(storage, 'u1', (entry) => {
      keys.push(entry.key);
      return Promise.reject(new ApiError('SERVICE_UNAVAILABLE', 503));
    });
    expect(keys).toEqual(['mine']);
    expect(result.stopped).toBe(true);
    expect(readQueue(storage).map((e) => e.key)).toEqual(['mine', 'theirs']);
  });

  test('an entry another tab sent meanwhile is not sent again', async () => {
    const storage = memoryStorage();
    enqueueEntry(storage, queued('k1', 1));
    enqueueEntry(storage, queued('k2', 2));
    const keys: string[] = [];
    await flushQueue(storage, 'u1', (entry) => {
      keys.push(entry.key);
      removeQueued(storage, 'k2'); // the other tab's flush got there first
      return Promise.resolve(answer(1));
    });
    expect(keys).toEqual(['k1']);
  });
});
