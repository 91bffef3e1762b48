import { describe, expect, it } from 'vitest';
import { registerUpcasters, upcastEvent } from './upcasters';

registerUpcasters([
  { type: 'TestLifted', fromVersion: 1, upcast: (data) => ({ ...data, second: true }) },
  { type: 'TestLifted', fromVersion: 2, upcast: ({ old, ...data }) => ({ ...data, renamed: old }) },
]);

describe('upcastEvent', () => {
  it('lifts a payload through every version from its own', () => {
    const stored = { type: 'TestLifted', schemaVersion: 1, data: { old: 5 } };
    expect(upcastEvent(stored)).toEqual({ type: 'TestLifted', schemaVersion: 3, data: { second: true, renamed: 5 } });
    // The stored event is never changed.
    expect(stored).toEqual({ type: 'TestLifted', schemaVersion: 1, data: { old: 5 } });
    expect(upcastEvent({ type: 'TestLifted', schemaVersion: 2, data: { old: 1, second: false } }))
      .toEqual({ type: 'TestLifted', schemaVersion: 3, data: { second: false, renamed: 1 } });
  });

  it('returns a current event, or one of a type without upcasters, as it is', () => {
    const current = { type: 'TestLifted', schemaVersion: 3, data: { renamed: 1 } };
    expect(upcastEvent(current)).toBe(current);
    const other = { type: 'Unrelated', schemaVersion: 1, data: {} };
    expect(upcastEvent(other)).toBe(other);
  });

  it('refuses a second upcaster for the same type and version', () => {
    expect(() => registerUpcasters([{ type: 'TestLifted', fromVersion: 1, upcast: (data) => data }])).toThrow(/registered already/);
  });
});
