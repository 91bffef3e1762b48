import { describe, expect, it } from 'vitest';
import { currentAfter, FIRST_PAGE, nextPage, pageNumber, previousPage } from './paging';

describe('keyset paging trail', () => {
  it('starts at the log\'s start', () => {
    expect(currentAfter(FIRST_PAGE)).toBe(0);
    expect(pageNumber(FIRST_PAGE)).toBe(1);
  });

  it('goes forward by the answers\' next and back the same way', () => {
    const second = nextPage(FIRST_PAGE, 50);
    const third = nextPage(second, 100);
    expect([currentAfter(third), pageNumber(third)]).toEqual([100, 3]);
    expect(previousPage(third)).toEqual(second);
    expect(currentAfter(previousPage(previousPage(third)))).toBe(0);
  });

  it('stays on the first page when asked to go back from it', () => {
    expect(previousPage(FIRST_PAGE)).toBe(FIRST_PAGE);
  });
});
