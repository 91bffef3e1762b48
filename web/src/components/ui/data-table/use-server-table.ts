/**
 * The state of a table the server pages, sorts and searches: the request
 * (page, size, sort, search), the search box's text, the rows of the last answer and its total,
 * and the `server` prop that puts DataTable in manual mode. The feature gives `load`, which reads
 * one page (GET /api/admin/users?…, /api/stats/teams?…); this hook calls it whenever the request
 * or `load` itself changes (the admin console makes a new `load` for each command position it
 * must reflect), cancelling a read still under way.
 *
 * The page, its size, the sort, the order and the search live in the address's query string
 * (`?page=2&sort=team_name&order=asc&q=…`, only what differs from the defaults): the table opens
 * on what the address says, and every change replaces the address (no history entry per click),
 * so a reload, the back button and a shared link show the same rows.
 */
import { useRouter } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useState } from 'react';
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
  /**
   * Reads one page; rejects on failure (an abort included: ignored). Keep it stable (a
   * module-level function or useCallback): a new `load` reads the page again.
   */
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
export function useServerTable<T>({ load, initialSort, pageSize, searchMaxLength, debounceMs = SEARCH_DEBOUNCE_MS }: ServerTableOptions<T>): ServerTable<T> {
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
  const [page, setPage] = useState<ServerPage<T> | null>(null);
  const [loading, setLoading] = useState(true);
  const [failure, setFailure] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);

  // The search goes out once the typing pauses, from page 1.
  useEffect(() => {
    const timer = setTimeout(() => setQuery((previous) => withSearch(previous, typed)), debounceMs);
    return () => clearTimeout(timer);
  }, [typed, debounceMs]);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    load(query, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        setPage(answer);
        setFailure(null);
        setLoading(false);
      },
      (reason: unknown) => {
        if (controller.signal.aborted) return;
        setFailure(reason);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [load, query, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const patch = useCallback(
    (update: (rows: T[]) => T[]) => setPage((previous) => (previous === null ? previous : { ...previous, rows: update(previous.rows) })),
    [],
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
