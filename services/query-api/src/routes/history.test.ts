import { describe, expect, test } from 'vitest';
import type { RecordedEvent } from '@sinilill/event-store';
import type { HistoryFilter } from '../history-query';
import { allEvents } from './history';

const event = (globalPosition: number) => ({ globalPosition }) as RecordedEvent;

describe('allEvents (the export\'s paging)', () => {
  test('given 7 matching events and batches of 3, then all 7 in order from 3 queries, each after the last', async () => {
    const log = [2, 3, 5, 8, 9, 11, 12].map(event);
    const calls: { filter: HistoryFilter; after: number; limit: number }[] = [];
    const reader = {
      page: async (filter: HistoryFilter, after: number, limit: number) => {
        calls.push({ filter, after, limit });
        return log.filter((e) => e.globalPosition > after && e.globalPosition <= filter.until!).slice(0, limit);
      },
    };
    const seen: number[] = [];
    for await (const e of allEvents(reader, { type: 'EntryAdded' }, 100, 3)) seen.push(e.globalPosition);
    expect(seen).toEqual([2, 3, 5, 8, 9, 11, 12]);
    expect(calls.map((c) => c.after)).toEqual([0, 5, 11]);
    expect(calls[0]!.filter).toEqual({ type: 'EntryAdded', until: 100 });
  });

  test('a full last batch costs one more, empty, query and nothing else', async () => {
    const log = [1, 2, 3].map(event);
    let queries = 0;
    const reader = { page: async (_f: HistoryFilter, after: number, limit: number) => (queries++, log.filter((e) => e.globalPosition > after).slice(0, limit)) };
    const seen: number[] = [];
    for await (const e of allEvents(reader, {}, 3, 3)) seen.push(e.globalPosition);
    expect(seen).toEqual([1, 2, 3]);
    expect(queries).toBe(2);
  });
});
