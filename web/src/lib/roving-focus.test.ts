import { describe, expect, it } from 'vitest';
import { rovingTarget } from './roving-focus';

describe('rovingTarget', () => {
  it('moves to the next and previous item with the horizontal arrows, around the ends', () => {
    expect(rovingTarget('ArrowRight', 0, 24)).toBe(1);
    expect(rovingTarget('ArrowLeft', 5, 24)).toBe(4);
    expect(rovingTarget('ArrowRight', 23, 24)).toBe(0);
    expect(rovingTarget('ArrowLeft', 0, 24)).toBe(23);
  });

  it('stops at the ends when it does not wrap', () => {
    expect(rovingTarget('ArrowRight', 23, 24, { wrap: false })).toBe(23);
    expect(rovingTarget('ArrowLeft', 0, 24, { wrap: false })).toBe(0);
  });

  it('goes to the first and the last item with Home and End', () => {
    expect(rovingTarget('Home', 7, 24)).toBe(0);
    expect(rovingTarget('End', 7, 24)).toBe(23);
  });

  it('takes Up and Down only when asked to', () => {
    expect(rovingTarget('ArrowDown', 3, 24)).toBeNull();
    expect(rovingTarget('ArrowUp', 3, 24)).toBeNull();
    expect(rovingTarget('ArrowDown', 3, 24, { vertical: true })).toBe(4);
    expect(rovingTarget('ArrowUp', 3, 24, { vertical: true })).toBe(2);
  });

  it('leaves other keys alone, and has nowhere to go without items', () => {
    expect(rovingTarget('Enter', 3, 24)).toBeNull();
    expect(rovingTarget('Tab', 3, 24)).toBeNull();
    expect(rovingTarget('ArrowRight', 0, 0)).toBeNull();
  });

  it('starts from a valid item when the index is out of range', () => {
    expect(rovingTarget('ArrowRight', -1, 3)).toBe(1);
    expect(rovingTarget('ArrowRight', 9, 3)).toBe(0);
  });
});
