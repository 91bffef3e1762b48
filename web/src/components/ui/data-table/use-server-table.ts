/**
 * The state of a table the server pages, sorts and searches: the request
 * (page, size, sort, search), the search box's text, the rows of the last answer and its total,
 * and the `server` prop that puts DataTable in manual mode. The feature gives `load`, which reads
 * one page (GET /api/admin/users?…, /api/stats/teams?…) and `key`, the table's key in the query
 * cache (lib/query-client.ts); each request is one cache entry under it, read whenever the
 * request or the key changes (the admin console puts the command position it must reflect in
 * the key), cancelling a read no page shows any more. The last page stays shown while the next
 * one is read, and after a failed read.
 *
 * The page, its size, the sort, the order and the search live in the address's query string
 * (`?page=2&sort=team_name&order=asc&q=…`, only what differs from the defaults): the table opens
 * on what the address says, and every change replaces the address (no history entry per click),
 * so a reload, the back button and a shared link show the same rows.
 */
import { keepPreviousData, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PAGE_SIZES } from '@sinilill/contracts';
import type { DataTableServer, TableSort } from './data-table';
import { addressWithQuery, queryFromAddress, withPage, withPageSize, withSearch, withSort, type ServerTableQuery } from './server-query';

/** Quiet time after the last keystroke before a search is sent (the search box types freely). */
export const SEARCH_DEBOUNCE_MS = 300;

/** One page as the server answered it, its rows made into the table's rows. */
export interface ServerPage<T> {
  rows: T[];
  /** Rows matching the search over all pages. */
  total: number;
}

export interface ServerTableOptions<T> {
  /** The table's key in the query cache: what `load` reads depends on nothing else than it and the request. */
  key: QueryKey;
  /** Reads one page; rejects on failure (an abort included: ignored). */
  load: (query: ServerTableQuery, signal: AbortSignal) => Promise<ServerPage<T>>;
  /** The default sort (spec §2), e.g. { id: 'participant_created_at', desc: true }. */
  initialSort: TableSort;
  /** Rows per page at first. */
  pageSize: number;
  /** The search box's maxLength (the contract's SEARCH_MAX). */
  searchMaxLength?: number;
  /** Default SEARCH_DEBOUNCE_MS. */
  debounceMs?: number;
}

export interface ServerTable<T> {
  /** The last answer's rows; null until the first. */
  rows: T[] | null;
  /** The last answer's total (0 until the first). */
  total: number;
  /** A read is under way (the first, another page, a refresh). */
  loading: boolean;
  /** Why the last read failed (the rows shown, if any, are older); null after a success. */
  failure: unknown;
  /** The request: what is shown, or being read. */
  query: ServerTableQuery;
  /** Reads the same page again (a "try again" button). */
  reload: () => void;
  /** Changes the rows shown (a change the server confirmed) before the next read brings it. */
  patch: (update: (rows: T[]) => T[]) => void;
  /** DataTable's `server` prop. */
  server: DataTableServer;
}

/** See the module's comment. */
export function useServerTable<T>({ key, load, initialSort, pageSize, searchMaxLength, debounceMs = SEARCH_DEBOUNCE_MS }: ServerTableOptions<T>): ServerTable<T> {
  const router = useRouter();
  const defaults = useMemo(
    (): ServerTableQuery => ({ pageIndex: 0, pageSize, sort: initialSort.id, desc: initialSort.desc, search: '' }),
    [pageSize, initialSort.id, initialSort.desc],
  );
  const [query, setQuery] = useState<ServerTableQuery>(() => queryFromAddress(window.location.search, defaults, PAGE_SIZES));
  const [typed, setTyped] = useState(() => query.search);

  // The address follows the table (replaced, not pushed: back leaves the page, not the last click).
  useEffect(() => {
    const { pathname, search, hash } = window.location;
    const next = addressWithQuery(search, query, defaults);
    if (next !== search) router.history.replace(`${pathname}${next}${hash}`, router.history.location.state);
  }, [router, query, defaults]);
  const queryClient = useQueryClient();

  // The search goes out once the typing pauses, from page 1.
  useEffect(() => {
    const timer = setTimeout(() => setQuery((previous) => withSearch(previous, typed)), debounceMs);
    return () => clearTimeout(timer);
  }, [typed, debounceMs]);

  const pageKey = useMemo(() => [...key, query], [key, query]);
  const read = useQuery({
    queryKey: pageKey,
    queryFn: ({ signal }) => load(query, signal),
    placeholderData: keepPreviousData,
  });
  // The last page answered: shown while another is read (the placeholder) and after a failure.
  const lastPage = useRef<ServerPage<T> | null>(null);
  if (read.data !== undefined) lastPage.current = read.data;
  const page = read.data ?? lastPage.current;
  const loading = read.isFetching;
  const failure: unknown = read.status === 'error' ? read.error : null;

  const { refetch } = read;
  const reload = useCallback(() => void refetch(), [refetch]);
  const patch = useCallback(
    (update: (rows: T[]) => T[]) => queryClient.setQueryData<ServerPage<T>>(pageKey, (previous) => (previous ? { ...previous, rows: update(previous.rows) } : previous)),
    [queryClient, pageKey],
  );

  const total = page?.total ?? 0;
  const server = useMemo(
    (): DataTableServer => ({
      rowCount: total,
      pagination: { pageIndex: query.pageIndex, pageSize: query.pageSize },
      onPaginationChange: (next) =>
        setQuery((previous) => (next.pageSize !== previous.pageSize ? withPageSize(previous, next.pageSize) : withPage(previous, next.pageIndex))),
      sort: { id: query.sort, desc: query.desc },
      onSortChange: (next) => setQuery((previous) => withSort(previous, next.id, next.desc)),
      search: typed,
      onSearchChange: setTyped,
      loading,
      ...(searchMaxLength !== undefined ? { searchMaxLength } : {}),
    }),
    [total, query, typed, loading, searchMaxLength],
  );

  return { rows: page?.rows ?? null, total, loading, failure, query, reload, patch, server };
}
