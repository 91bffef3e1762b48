/**
 * The editions as the client knows them: GET /api/editions through the query cache
 * (lib/query-client.ts), and the edition the site runs, whose data (dates, fees, limits, route,
 * flower rules) every page reads instead of a built-in edition (spec §1 "the yearly event",
 * docs/decisions/0087).
 *
 * `current` is the edition whose registration day has come (it may already be closed: then the
 * site is between editions), `next` the announced one still to open its registration, `archive`
 * the closed ones, newest first. Public answers never hold drafts.
 */
import type { Edition } from '@sinilill/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, errorCodeOf } from './api-client';
import type { CatalogueCode } from './errors/catalogue';
import { queryClient, queryKeys } from './query-client';
import type { ArchivedEditionAnswer, EditionsAnswer, EditionView } from './edition-types';
import { siteEditionView } from './site-edition';

export type { ArchivedEditionAnswer, ArchivedTeam, EditionsAnswer, EditionView } from './edition-types';

export { siteEditionView };

/** GET /api/editions (public). Throws ApiError. */
export function getEditions(signal?: AbortSignal): Promise<EditionsAnswer> {
  return apiGet<EditionsAnswer>('/editions', { signal });
}

/** GET /api/history/editions/:year (public; 404 NOT_FOUND unless the edition is closed). Throws ApiError. */
export function getArchivedEdition(year: number, signal?: AbortSignal): Promise<ArchivedEditionAnswer> {
  return apiGet<ArchivedEditionAnswer>(`/history/editions/${year}`, { signal });
}

/**
 * GET /api/editions as a cached read. Fresh for a minute: the phase moves with the app's clock
 * (days, not seconds), and a page opened later reads it again.
 */
export const editionsQuery = queryOptions({
  queryKey: queryKeys.editions,
  queryFn: ({ signal }) => getEditions(signal),
  staleTime: 60_000,
});

/** The editions as a page sees them: loading, ready, or the catalogue code of the failure. */
export type EditionsState =
  | { status: 'loading'; editions: null }
  | { status: 'ready'; editions: EditionsAnswer }
  | { status: 'error'; editions: null; code: CatalogueCode };

/** GET /api/editions for a component: read when first needed, shared by every page; `reload()` tries again. */
export function useEditions(): EditionsState & { reload: () => void } {
  const query = useQuery(editionsQuery);
  const reload = () => void query.refetch();
  if (query.status === 'success') return { status: 'ready', editions: query.data, reload };
  if (query.status === 'error' && !query.isFetching) return { status: 'error', editions: null, code: errorCodeOf(query.error), reload };
  return { status: 'loading', editions: null, reload };
}

/** The site's edition (siteEditionView) of a loaded answer; null while loading, after a failure, or when there is none. */
export function useCurrentEdition(): Edition | null {
  const state = useEditions();
  return state.status === 'ready' ? (siteEditionView(state.editions)?.edition ?? null) : null;
}

/**
 * The edition of `year` among an answer's current, next and archived editions (a team of a past
 * edition is read with its own route and rules); the site's edition when `year` is not given or
 * not among them. Null when the answer holds no edition at all.
 */
export function editionOfYear(answer: EditionsAnswer, year?: number): Edition | null {
  if (year !== undefined) {
    const found = [answer.current, answer.next, ...answer.archive].find((view) => view?.year === year);
    if (found) return found.edition;
  }
  return siteEditionView(answer)?.edition ?? null;
}

/** Starts reading the editions (the app's start): the synchronous readers of ./site-edition then find them. */
export function prefetchEditions(): void {
  void queryClient.prefetchQuery(editionsQuery);
}

/**
 * What the home page says about the calendar (spec §2 "Home"):
 * - `none`: no edition announced yet;
 * - `announced`: no edition has run yet; the next one's registration is still to open;
 * - `between`: the last edition is closed (archived); `next` may be announced or not yet;
 * - `edition`: an edition is the site's (registration, event days, late entries, results).
 */
export type SiteMoment =
  | { kind: 'none' }
  | { kind: 'announced'; next: EditionView }
  | { kind: 'between'; last: EditionView; next: EditionView | null }
  | { kind: 'edition'; current: EditionView };

/** The site's moment from GET /api/editions (see SiteMoment). */
export function siteMoment(answer: EditionsAnswer): SiteMoment {
  const { current, next } = answer;
  if (current === null) return next === null ? { kind: 'none' } : { kind: 'announced', next };
  if (current.status === 'closed' || current.phase === 'closed') return { kind: 'between', last: current, next };
  return { kind: 'edition', current };
}
