import { useQuery, type QueryKey } from '@tanstack/react-query';
import { useCallback } from 'react';
import { errorCodeOf } from './api-client';
import type { CatalogueCode } from './errors/catalogue';

/** A read's progress: loading, its answer, or the catalogue code of its failure. */
export type Fetched<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; code: CatalogueCode };

/**
 * A read a page shows (a GET of spec §7) through the app's query cache (lib/query-client.ts),
 * as the three states the pages draw: loading, ready with the answer, or the catalogue code of
 * the failure. Read when the page mounts (a cached answer is shown at once and read again
 * behind it), again on `reload()` (a try-again button, which shows loading meanwhile), and
 * cancelled when no page shows it any more.
 * @param key the read's cache key (queryKeys): two pages with the same key share one read.
 * @param fetcher the GET; `signal` aborts it.
 * @param options.enabled false: nothing is read (yet), the state stays loading.
 */
export function useFetched<T>(
  key: QueryKey,
  fetcher: (signal: AbortSignal) => Promise<T>,
  options: { enabled?: boolean } = {},
): Fetched<T> & { reload: () => void } {
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => fetcher(signal), enabled: options.enabled ?? true });
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  if (query.status === 'success') return { status: 'ready', data: query.data, reload };
  // A try-again after a failure shows loading until the new answer.
  if (query.status === 'error' && !query.isFetching) return { status: 'error', code: errorCodeOf(query.error), reload };
  return { status: 'loading', reload };
}
