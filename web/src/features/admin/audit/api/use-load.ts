import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';
import { useCallback } from 'react';
import { errorCodeOf } from '../../../../lib/api-client';
import type { CatalogueCode } from '../../../../lib/errors/catalogue';

export type LoadState<T> =
  | { status: 'idle' }
  /** `previous`: the last data loaded, kept on screen while the next arrives. */
  | { status: 'loading'; previous?: T }
  | { status: 'ready'; data: T }
  | { status: 'error'; code: CatalogueCode };

/** Nothing asked yet: the cache entry no read is made for. */
const IDLE_KEY = ['audit', 'idle'] as const;

/**
 * One read the audit makes on request (a history page, a timeline, a team's figures) through the
 * query cache: `key` names what is asked (null: nothing yet), and each new key reads it, the
 * last data staying shown meanwhile; a newer key cancels the read of the older one, so the last
 * asked always wins, and unmounting cancels too. `reload()` reads the same key again (resolves
 * once it is read, never rejects).
 * @param key the read's cache key, e.g. ['audit', 'timeline', stream]; null while nothing is asked.
 * @param read the GET for `key`; `signal` aborts it.
 */
export function useLoad<T>(key: QueryKey | null, read: (signal: AbortSignal) => Promise<T>): { state: LoadState<T>; reload: () => Promise<void> } {
  const query = useQuery<T>({
    queryKey: key ?? IDLE_KEY,
    queryFn: ({ signal }) => read(signal),
    enabled: key !== null,
    placeholderData: keepPreviousData,
  });
  const { refetch } = query;
  const reload = useCallback(async () => {
    await refetch();
  }, [refetch]);

  let state: LoadState<T>;
  if (key === null) state = { status: 'idle' };
  else if (query.isFetching) state = query.data === undefined ? { status: 'loading' } : { status: 'loading', previous: query.data };
  else if (query.status === 'error') state = { status: 'error', code: errorCodeOf(query.error) };
  else if (query.status === 'success') state = { status: 'ready', data: query.data };
  else state = { status: 'loading' };
  return { state, reload };
}

/** The data a state shows: loaded, or kept from before while loading. */
export function lastData<T>(state: LoadState<T>): T | undefined {
  if (state.status === 'ready') return state.data;
  return state.status === 'loading' ? state.previous : undefined;
}
