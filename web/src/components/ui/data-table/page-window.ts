/** Most numbered page buttons a table shows (spec §9: "up to 7 page buttons"). */
export const MAX_PAGE_BUTTONS = 7;

/**
 * The page buttons to show: at most `maxButtons` consecutive zero-based page indexes around
 * `pageIndex`, the current page as near the middle as the ends allow.
 * 20 pages, current 0 → 0…6; current 10 → 7…13; current 19 → 13…19; 3 pages → 0, 1, 2;
 * no pages → none. An out-of-range `pageIndex` is clamped.
 */
export function pageWindow(pageCount: number, pageIndex: number, maxButtons: number = MAX_PAGE_BUTTONS): number[] {
  const count = Math.max(0, Math.floor(pageCount));
  const size = Math.min(count, Math.max(1, Math.floor(maxButtons)));
  if (size === 0) return [];
  const current = Math.min(Math.max(0, Math.floor(pageIndex)), count - 1);
  const first = Math.min(Math.max(0, current - Math.floor((size - 1) / 2)), count - size);
  return Array.from({ length: size }, (_, offset) => first + offset);
}

/**
 * A row's 1-based place in the whole (sorted, searched) order, from its zero-based page and its
 * zero-based place on that page: page 0 row 0 → 1; page 2 of 10 per page, row 4 → 25.
 */
export function rowNumber(pageIndex: number, pageSize: number, indexOnPage: number): number {
  return Math.max(0, pageIndex) * Math.max(1, pageSize) + Math.max(0, indexOnPage) + 1;
}
