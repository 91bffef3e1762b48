/**
 * Keyset paging over the global log (GET /api/admin/history answers `next`, the `after` of the
 * following page; issue 6). The API only walks forward, so "previous" is remembered here: the
 * `after` of every page opened so far, the first page's being 0 (the log's start).
 */

/** The `after` of each page from the first to the open one (never empty). */
export type PageTrail = readonly number[];

export const FIRST_PAGE: PageTrail = [0];

/** The open page's `after`. */
export function currentAfter(trail: PageTrail): number {
  return trail[trail.length - 1] ?? 0;
}

/** The trail after moving to the page that starts after `next` (a page's answer). */
export function nextPage(trail: PageTrail, next: number): PageTrail {
  return [...trail, next];
}

/** The trail after moving back one page; the first page stays. */
export function previousPage(trail: PageTrail): PageTrail {
  return trail.length > 1 ? trail.slice(0, -1) : trail;
}

/** The open page's number, from 1. */
export function pageNumber(trail: PageTrail): number {
  return trail.length;
}
