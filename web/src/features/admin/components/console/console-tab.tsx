import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  toPageQuery,
  type DataTableSelection,
  type PageQuery,
  type RowSelectionState,
  type ServerPage,
  type ServerTableQuery,
  type TableSort,
} from '../../../../components/ui/data-table';
import { LoadingPanel } from '../../../../components/ui/spinner';
import type { ExportTable } from '../../api/export-csv';
import type { AdminReadOptions } from '../../api/get-admin-data';
import { useAdminPage, useConsolePosition, type AdminPage } from '../../api/use-admin-list';
import { selectedRowsAfter, selectionState } from '../../utils/selection';
import { ListError } from './list-status';
import { NoticeBar, useNotice, type NoticeHandle } from './notice';
import styles from './console.module.css';

/**
 * A table tab's server side (packages/contracts/src/pages.ts). Define it at
 * module level: `load` must stay the same function between renders.
 */
export interface ConsoleTable<T, S extends string> {
  /** The table's name in the export's path (`/admin/{name}.csv`). */
  name: ExportTable;
  /** The server's sort keys (the sortable columns' ids). */
  sorts: readonly S[];
  /** The default sort (spec §2; the contract's DEFAULT_SORT). */
  defaultSort: { readonly sort: S; readonly order: 'asc' | 'desc' };
  /** Reads one page (GET /api/admin/{name}?…) and makes its rows the table's. */
  load: (query: PageQuery<S>, options: AdminReadOptions) => Promise<ServerPage<T>>;
  /** The entity id as text: the table's row id. */
  rowId: (row: T) => string;
}

/** What a table tab of the console works with. */
export interface ConsoleTab<T> {
  /** The page shown, its request and DataTable's `server` prop. */
  list: AdminPage<T>;
  notice: NoticeHandle;
  /** The rows shown ([] until the first answer). */
  rows: readonly T[];
  /** The table's row selection, minus `rowLabel` (the tab's own text). */
  selection: Omit<DataTableSelection<T>, 'rowLabel'>;
  /**
   * The selected rows, on any page: the selection is kept while the admin pages, sorts and
   * searches (each row as it was listed), until cleared or deleted.
   */
  selectedRows: readonly T[];
  /** Unselects every row. */
  clearSelection: () => void;
  /** The CSV export's table and query: the sort and the search shown. */
  exportTable: ExportTable;
  exportQuery: PageQuery;
  /**
   * After the server confirmed a change: shows `text` in a green alert for 2 s and refreshes every
   * list of the console from `position` (read-your-writes).
   */
  changed: (text: string, position: number) => void;
  /** As `changed`, and clears the selection (the rows went). */
  deleted: (text: string, position: number) => void;
}

const NO_ROWS: readonly never[] = [];

/** The DataTable sort of a contract default sort. */
function tableSort({ sort, order }: ConsoleTable<unknown, string>['defaultSort']): TableSort {
  return { id: sort, desc: order === 'desc' };
}

/** A table tab's page, notice and selection (spec §2 "Admin": users, teams, entries). */
export function useConsoleTab<T, S extends string>(table: ConsoleTable<T, S>): ConsoleTab<T> {
  const load = useCallback(
    (query: ServerTableQuery, options: AdminReadOptions) => table.load(toPageQuery(query, table.sorts, table.defaultSort.sort), options),
    [table],
  );
  const list = useAdminPage(load, tableSort(table.defaultSort));
  const notice = useNotice();
  const advance = useConsolePosition((state) => state.advance);
  const [selectedById, setSelectedById] = useState<ReadonlyMap<string, T>>(() => new Map());
  const rows = list.rows ?? NO_ROWS;
  const selected = useMemo(() => selectionState(selectedById), [selectedById]);
  const selectedRows = useMemo(() => [...selectedById.values()], [selectedById]);
  const { rowId } = table;
  const onChange = useCallback(
    (next: RowSelectionState) => setSelectedById((previous) => selectedRowsAfter(previous, next, rows, rowId)),
    [rows, rowId],
  );
  const clearSelection = useCallback(() => setSelectedById(new Map()), []);
  const { success } = notice;
  const changed = useCallback(
    (text: string, position: number) => {
      success(text);
      advance(position);
    },
    [success, advance],
  );
  const deleted = useCallback(
    (text: string, position: number) => {
      clearSelection();
      changed(text, position);
    },
    [changed, clearSelection],
  );
  const exportQuery = useMemo(() => toPageQuery(list.query, table.sorts, table.defaultSort.sort), [list.query, table]);
  return {
    list,
    notice,
    rows,
    selection: { selected, onChange },
    selectedRows,
    clearSelection,
    exportTable: table.name,
    exportQuery,
    changed,
    deleted,
  };
}

/**
 * A table tab's frame: a read's failure with a retry, a spinner until the first answer, the
 * content (the table, dialogs), and the action notice stuck to the bottom of the window.
 */
export function ConsoleTabFrame<T>({ tab, children }: { tab: ConsoleTab<T>; children: ReactNode }) {
  const { t } = useTranslation('admin');
  const { list } = tab;
  return (
    <div className={styles.tab}>
      <ListError code={list.error} onRetry={list.reload} />
      {list.rows === null && list.error === null ? <LoadingPanel label={t('console.loading')} testId="admin-loading" /> : children}
      <NoticeBar notice={tab.notice.notice} />
    </div>
  );
}
