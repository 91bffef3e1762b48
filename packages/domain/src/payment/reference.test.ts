import { describe, expect, it } from 'vitest';
import { orderReference } from './reference';

describe('orderReference', () => {
  it('is the first 8 hex digits of the order id, upper-case', () => {
    expect(orderReference('3f2a9c1b-0d4e-4a5b-9c6d-7e8f9a0b1c2d')).toBe('3F2A9C1B');
  });
});
