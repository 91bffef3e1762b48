/**
 * The site's edition read synchronously from the query cache, for code outside React that needs
 * its rules (form checks, error texts, file checks; spec §5 limits). The app starts the read at
 * once (prefetchEditions in ./edition.ts), so a form submitted or an error shown finds it; before
 * that, and after a failed read, the readers say null and the server's checks decide.
 *
 * Kept apart from ./edition.ts so that the error catalogue can read it without importing the
 * API client (which imports the catalogue).
 */
import { PASSWORD_MIN } from '@sinilill/contracts';
import type { Edition } from '@sinilill/domain';
import type { EditionsAnswer, EditionView } from './edition-types';
import { queryClient, queryKeys } from './query-client';

/**
 * The edition the site runs: the current one, or the next one when none has opened its
 * registration yet (the first edition being announced). Null for an answer with neither.
 */
export function siteEditionView(answer: EditionsAnswer): EditionView | null {
  return answer.current ?? answer.next;
}

/** The site edition from the cache; null until GET /api/editions has answered. */
export function cachedSiteEdition(): Edition | null {
  const answer = queryClient.getQueryData<EditionsAnswer>(queryKeys.editions);
  return answer ? (siteEditionView(answer)?.edition ?? null) : null;
}

/** The site edition's limits (spec §5: lengths in characters, sizes in bytes), null until read. */
export function siteLimits(): Edition['limits'] | null {
  return cachedSiteEdition()?.limits ?? null;
}

/**
 * The shortest password the server takes: the site edition's, or the account rule's
 * (PASSWORD_MIN of the contracts) before the editions are read.
 */
export function passwordMin(): number {
  return siteLimits()?.passwordMin ?? PASSWORD_MIN;
}
