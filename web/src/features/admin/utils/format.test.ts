import { describe, expect, it } from 'vitest';
import { instantMs } from './format';

describe('instantMs', () => {
  it('reads ISO instants with any offset', () => {
    expect(instantMs('1970-01-01T00:00:01Z')).toBe(1000);
    expect(instantMs('1970-01-01T03:00:01+03:00')).toBe(1000);
  });

  it('is null for missing or unreadable values', () => {
    expect(instantMs(null)).toBeNull();
    expect(instantMs(undefined)).toBeNull();
    expect(instantMs('')).toBeNull();
    expect(instantMs('not a date')).toBeNull();
  });
});
