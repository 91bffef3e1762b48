import { describe, expect, it } from 'vitest';
import { MAX_PAGE_BUTTONS, pageWindow, rowNumber } from './page-window';

describe('pageWindow', () => {
  it('shows every page when there are at most seven', () => {
    expect(pageWindow(1, 0)).toEqual([0]);
    expect(pageWindow(3, 2)).toEqual([0, 1, 2]);
    expect(pageWindow(7, 6)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('shows seven pages around the current one, pinned at the ends', () => {
    expect(MAX_PAGE_BUTTONS).toBe(7);
    expect(pageWindow(20, 0)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(pageWindow(20, 3)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(pageWindow(20, 4)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageWindow(20, 10)).toEqual([7, 8, 9, 10, 11, 12, 13]);
    expect(pageWindow(20, 16)).toEqual([13, 14, 15, 16, 17, 18, 19]);
    expect(pageWindow(20, 19)).toEqual([13, 14, 15, 16, 17, 18, 19]);
    expect(pageWindow(8, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('always contains the current page', () => {
    for (let count = 1; count <= 30; count++) {
      for (let index = 0; index < count; index++) {
        const pages = pageWindow(count, index);
        expect(pages).toContain(index);
        expect(pages.length).toBe(Math.min(count, 7));
      }
    }
  });

  it('takes another window size (an even one leans right of centre)', () => {
    expect(pageWindow(20, 10, 5)).toEqual([8, 9, 10, 11, 12]);
    expect(pageWindow(20, 10, 4)).toEqual([9, 10, 11, 12]);
    expect(pageWindow(20, 10, 1)).toEqual([10]);
  });

  it('has no buttons without pages, and clamps a page out of range', () => {
    expect(pageWindow(0, 0)).toEqual([]);
    expect(pageWindow(-1, 0)).toEqual([]);
    expect(pageWindow(10, 42)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(pageWindow(10, -5)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});

describe('rowNumber', () => {
  it('counts from 1 across pages', () => {
    expect(rowNumber(0, 10, 0)).toBe(1);
    expect(rowNumber(0, 10, 9)).toBe(10);
    expect(rowNumber(1, 10, 0)).toBe(11);
    expect(rowNumber(2, 10, 4)).toBe(25);
    expect(rowNumber(3, 50, 49)).toBe(200);
  });

  it('never gives less than 1', () => {
    expect(rowNumber(-1, 10, -3)).toBe(1);
    expect(rowNumber(2, 0, 0)).toBe(3);
  });
});
