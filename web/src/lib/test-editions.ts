/**
 * Test helpers: GET /api/editions answers built from an Edition, and the query cache filled with
 * one (what the app has once the editions are read), for unit tests of code that reads the site
 * edition. Not used by the app.
 */
import type { Edition } from '@sinilill/domain';
import type { EditionsAnswer, EditionView } from './edition';
import { queryClient, queryKeys } from './query-client';

/** An EditionView of `edition` (opened, `phase` as given, today its start day unless said). */
export function editionView(edition: Edition, overrides: Partial<EditionView> = {}): EditionView {
  return { year: edition.year, status: 'opened', phase: 'running', registrationOpen: true, today: edition.startDate, edition, ...overrides };
}

/** An answer whose current edition is `edition` (nothing next, nothing archived unless said). */
export function editionsAnswer(edition: Edition, overrides: Partial<EditionsAnswer> = {}): EditionsAnswer {
  return { now: `${edition.startDate}T09:00:00.000Z`, current: editionView(edition), next: null, archive: [], ...overrides };
}

/** Puts an answer with `edition` as the current one into the app's query cache. */
export function cacheEditions(edition: Edition): void {
  queryClient.setQueryData(queryKeys.editions, editionsAnswer(edition));
}

/** Empties the app's query cache (as before the editions are read). */
export function clearEditions(): void {
  queryClient.removeQueries({ queryKey: queryKeys.editions });
}
