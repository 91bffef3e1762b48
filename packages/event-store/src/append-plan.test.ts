import { describe, expect, test } from 'vitest';
import { expectedRevisionText, planAppend } from './append-plan';
import type { EventData } from './types';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const event = (n: number, overrides: Partial<EventData> = {}): EventData => ({
  id: id(n),
  type: 'Happened',
  schemaVersion: 1,
  data: { n },
  metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: 'c', causationId: null },
  ...overrides,
});

describe('planAppend', () => {
  test('given two requests, then one parameter row per stream and the events in request order', () => {
    const plan = planAppend([
      { stream: 'b', events: [event(1), event(2)], expectedRevision: 'no_stream' },
      { stream: 'a', events: [event(3)], expectedRevision: 4 },
    ]);
    expect(plan.streams).toEqual(['b', 'a']);
    expect(plan.expected).toEqual(['no_stream', '4']);
    expect(plan.counts).toEqual([2, 1]);
    expect(plan.rows.map((e) => [e.s, e.id])).toEqual([
      [1, id(1)],
      [1, id(2)],
      [2, id(3)],
    ]);
  });

  test('ids are compared case-insensitively (UUIDs)', () => {
    expect(() => planAppend([{ stream: 's', events: [event(1), event(1, { id: id(1).toUpperCase() })], expectedRevision: 'any' }])).toThrow(
      /twice/,
    );
  });

  test.each([
    ['no requests', []],
    ['an empty stream name', [{ stream: '', events: [], expectedRevision: 'any' }]],
    ['a stream twice', [{ stream: 's', events: [], expectedRevision: 'any' }, { stream: 's', events: [], expectedRevision: 'any' }]],
    ['a non-UUID id', [{ stream: 's', events: [event(1, { id: 'x' })], expectedRevision: 'any' }]],
    ['an id in two requests', [{ stream: 's', events: [event(1)], expectedRevision: 'any' }, { stream: 't', events: [event(1)], expectedRevision: 'any' }]],
    ['schemaVersion 0', [{ stream: 's', events: [event(1, { schemaVersion: 0 })], expectedRevision: 'any' }]],
    ['an empty type', [{ stream: 's', events: [event(1, { type: '' })], expectedRevision: 'any' }]],
  ] as const)('rejects %s', (_name, requests) => {
    expect(() => planAppend(requests as never)).toThrow(TypeError);
  });
});

describe('expectedRevisionText', () => {
  test('the three names and revisions >= 0 pass; anything else is a TypeError', () => {
    expect(['any', 'no_stream', 'stream_exists', 0, 17].map((e) => expectedRevisionText(e as never))).toEqual([
      'any',
      'no_stream',
      'stream_exists',
      '0',
      '17',
    ]);
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 53, 'latest']) expect(() => expectedRevisionText(bad as never)).toThrow(TypeError);
  });
});
