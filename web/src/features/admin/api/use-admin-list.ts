import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef } from 'react';
import { create } from 'zustand';
import { ADMIN_PAGE_SIZE, SEARCH_MAX } from '@sinilill/contracts';
import { useServerTable, type ServerPage, type ServerTable, type ServerTableQuery, type TableSort } from '../../../components/ui/data-table';
import { errorCodeOf } from '../../../lib/api-client';
import type { CatalogueCode } from '../../../lib/errors/catalogue';
import { queryKeys } from '../../../lib/query-client';
import type { AdminReadOptions } from './get-admin-data';

interface ConsolePosition {
  /** The newest `position` a command of this console answered (0: none yet). */
  position: number;
  /** Records a command's answer; an older position than the one known changes nothing. */
  advance: (position: number) => void;
}

/**
 * Read-your-writes across the console's tabs: every list read sends the newest command position
 * as x-min-position, so after an edit or a delete every tab — the open one at once, the others
 * when opened — shows the new state, the server's cascades included (deleting a user or a team
 * deletes their entries, spec §2).
 */
export const useConsolePosition = create<ConsolePosition>()((set) => ({
  position: 0,
  advance: (position) => set((state) => (Number.isSafeInteger(position) && position > state.position ? { position } : state)),
}));

/** A list read whole from the query API (the reset-password tab's accounts). */
export interface AdminList<T> {
  /** The rows; null until the first answer. */
  rows: T[] | null;
  /** A read under way (the first or a refresh). */
  loading: boolean;
  /** The last read's failure (the rows shown, if any, are older), else null. */
  error: CatalogueCode | null;
  /** Reads again. */
  reload: () => void;
  /** Applies a change the server confirmed (a toggle) before the refresh brings it. */
  patch: (update: (rows: T[]) => T[]) => void;
}

/**
 * Reads a whole list with `load` through the query cache under `name` when the tab opens, again
 * whenever a command of the console answered a newer position (waiting for it, see
 * useConsolePosition), and on `reload`. A newer read cancels an older one still under way. A
 * failed refresh keeps the rows shown and reports the error.
 */
export function useAdminList<T>(name: string, load: (options: AdminReadOptions) => Promise<T[]>): AdminList<T> {
  const position = useConsolePosition((state) => state.position);
  const queryClient = useQueryClient();
  const key = useMemo(() => queryKeys.adminList(name, position), [name, position]);
  const read = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => load({ signal, minPosition: position }),
    // The rows of the position before stay shown while the newer read is under way.
    placeholderData: (previous) => previous,
  });
  const { refetch } = read;
  const reload = useCallback(() => void refetch(), [refetch]);
  const patch = useCallback(
    (update: (rows: T[]) => T[]) => queryClient.setQueryData<T[]>(key, (previous) => (previous === undefined ? previous : update(previous))),
    [queryClient, key],
  );
  // The last rows answered: kept after a failed refresh.
  const lastRows = useRef<T[] | null>(null);
  if (read.data !== undefined) lastRows.current = read.data;
  return {
    rows: read.data ?? lastRows.current,
    loading: read.isFetching,
    error: read.status === 'error' ? errorCodeOf(read.error) : null,
    reload,
    patch,
  };
}

/** A table tab's page as read from the query API, with the read's failure as a catalogue code. */
export interface AdminPage<T> extends ServerTable<T> {
  /** The last read's failure (the rows shown, if any, are older), else null. */
  error: CatalogueCode | null;
}

/**
 * One page of a table tab (users, teams, entries) named `name`, paged, sorted and searched on the
 * server: `load` reads the page the table asks for, sending
 * the console's newest command position as x-min-position, so that the page is read again —
 * the same page, sort and search — whenever a command of the console answered (read-your-writes,
 * see useConsolePosition). 50 rows per page at first (spec §2), searches up to SEARCH_MAX characters.
 */
export function useAdminPage<T>(
  name: string,
  load: (query: ServerTableQuery, options: AdminReadOptions) => Promise<ServerPage<T>>,
  initialSort: TableSort,
): AdminPage<T> {
  const position = useConsolePosition((state) => state.position);
  const key = useMemo(() => queryKeys.adminList(name, position), [name, position]);
  const read = useCallback((query: ServerTableQuery, signal: AbortSignal) => load(query, { signal, minPosition: position }), [load, position]);
  const table = useServerTable({ key, load: read, initialSort, pageSize: ADMIN_PAGE_SIZE, searchMaxLength: SEARCH_MAX });
  return { ...table, error: table.failure === null ? null : errorCodeOf(table.failure) };
}
