import { useCallback, useEffect, useState } from 'react';
import { create } from 'zustand';
import { ADMIN_PAGE_SIZE, SEARCH_MAX } from '@sinilill/contracts';
import { useServerTable, type ServerPage, type ServerTable, type ServerTableQuery, type TableSort } from '../../../components/ui/data-table';
import { errorCodeOf } from '../../../lib/api-client';
import type { CatalogueCode } from '../../../lib/errors/catalogue';
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
 * Loads a whole list with `load` (keep it stable: a module-level function) when the tab opens,
 * again whenever a command of the console answered a newer position (waiting for it, see
 * useConsolePosition), and on `reload`. A newer read cancels an older one still under way. A
 * failed refresh keeps the rows shown and reports the error.
 */
export function useAdminList<T>(load: (options: AdminReadOptions) => Promise<T[]>): AdminList<T> {
  const position = useConsolePosition((state) => state.position);
  const [rows, setRows] = useState<T[] | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<CatalogueCode | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    load({ signal: controller.signal, minPosition: position }).then(
      (next) => {
        if (controller.signal.aborted) return;
        setRows(next);
        setError(null);
        setLoading(false);
      },
      (reason: unknown) => {
        if (controller.signal.aborted) return;
        setError(errorCodeOf(reason));
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [load, position, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const patch = useCallback((update: (rows: T[]) => T[]) => setRows((previous) => (previous === null ? previous : update(previous))), []);
  return { rows, loading, error, reload, patch };
}

/** A table tab's page as read from the query API, with the read's failure as a catalogue code. */
export interface AdminPage<T> extends ServerTable<T> {
  /** The last read's failure (the rows shown, if any, are older), else null. */
  error: CatalogueCode | null;
}

/**
 * One page of a table tab (users, teams, entries), paged, sorted and searched on the server:
 * `load` reads the page the table asks for (keep it stable: a module-level function), sending
 * the console's newest command position as x-min-position, so that the page is read again —
 * the same page, sort and search — whenever a command of the console answered (read-your-writes,
 * see useConsolePosition). 50 rows per page at first (spec §2), searches up to SEARCH_MAX characters.
 */
export function useAdminPage<T>(
  load: (query: ServerTableQuery, options: AdminReadOptions) => Promise<ServerPage<T>>,
  initialSort: TableSort,
): AdminPage<T> {
  const position = useConsolePosition((state) => state.position);
  const read = useCallback((query: ServerTableQuery, signal: AbortSignal) => load(query, { signal, minPosition: position }), [load, position]);
  const table = useServerTable({ load: read, initialSort, pageSize: ADMIN_PAGE_SIZE, searchMaxLength: SEARCH_MAX });
  return { ...table, error: table.failure === null ? null : errorCodeOf(table.failure) };
}
