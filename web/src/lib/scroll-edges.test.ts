import { describe, expect, it } from 'vitest';
import { scrollEdges } from './scroll-edges';

describe('scrollEdges', () => {
  it('hides nothing when the content fits', () => {
    expect(scrollEdges(0, 300, 300)).toEqual({ start: false, end: false });
    expect(scrollEdges(0, 300, 300.6)).toEqual({ start: false, end: false });
  });

  it('hides the end at first, both sides in the middle, the start at the end', () => {
    expect(scrollEdges(0, 300, 800)).toEqual({ start: false, end: true });
    expect(scrollEdges(250, 300, 800)).toEqual({ start: true, end: true });
    expect(scrollEdges(500, 300, 800)).toEqual({ start: true, end: false });
  });

  it('forgives a pixel of rounding at either end', () => {
    expect(scrollEdges(0.5, 300, 800)).toEqual({ start: false, end: true });
    expect(scrollEdges(499.4, 300, 800)).toEqual({ start: true, end: false });
  });
});
