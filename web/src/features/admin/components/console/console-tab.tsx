import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataTableSelection, RowSelectionState } from '../../../../components/ui/data-table';
import { LoadingPanel } from '../../../../components/ui/spinner';
import type { AdminReadOptions } from '../../api/get-admin-data';
import { useAdminList, useConsolePosition, type AdminList } from '../../api/use-admin-list';
import { ListError } from './list-status';
import { NoticeBar, useNotice, type NoticeHandle } from './notice';
import styles from './console.module.css';

/** What a table tab of the console works with. */
export interface ConsoleTab<T> {
  list: AdminList<T>;
  notice: NoticeHandle;
  /** The rows shown ([] until the first answer). */
  rows: readonly T[];
  /** The table's row selection, minus `rowLabel` (the tab's own text). */
  selection: Omit<DataTableSelection<T>, 'rowLabel'>;
  /** The selected rows that are still listed (another admin may have deleted one meanwhile). */
  selectedRows: readonly T[];
  /**
   * After the server confirmed a change: shows `text` in a green alert for 2 s and refreshes every
   * list of the console from `position` (read-your-writes).
   */
  changed: (text: string, position: number) => void;
  /** As `changed`, and clears the selection (the rows went). */
  deleted: (text: string, position: number) => void;
}

const NO_ROWS: readonly never[] = [];

/** A table tab's list, notice and selection (spec §2 "Admin": users, teams, entries). */
export function useConsoleTab<T>(load: (options: AdminReadOptions) => Promise<T[]>, rowId: (row: T) => string): ConsoleTab<T> {
  const list = useAdminList(load);
  const notice = useNotice();
  const advance = useConsolePosition((state) => state.advance);
  const [selected, setSelected] = useState<RowSelectionState>({});
  const rows = list.rows ?? NO_ROWS;
  const selectedRows = useMemo(() => rows.filter((row) => selected[rowId(row)] === true), [rows, selected, rowId]);
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
      setSelected({});
      changed(text, position);
    },
    [changed],
  );
  return { list, notice, rows, selection: { selected, onChange: setSelected }, selectedRows, changed, deleted };
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
