import { describe, expect, it } from 'vitest';
import { minPositionHeaders } from './read-your-writes';

describe('minPositionHeaders', () => {
  it('sends a command position back as x-min-position', () => {
    expect(minPositionHeaders(42)).toEqual({ 'x-min-position': '42' });
  });

  it('sends nothing without a usable position', () => {
    expect(minPositionHeaders(undefined)).toBeUndefined();
    expect(minPositionHeaders(null)).toBeUndefined();
    expect(minPositionHeaders(0)).toBeUndefined();
    expect(minPositionHeaders(1.5)).toBeUndefined();
  });
});
