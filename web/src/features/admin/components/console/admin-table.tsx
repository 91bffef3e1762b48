import type { RowData } from '@tanstack/react-table';
import { DataTable, type DataTableProps, type DataTableServer } from '../../../../components/ui/data-table';

/** The rows-per-page choice (spec §9: default page sizes 25, 50, 100; 50 at first, spec §2). */
export const ADMIN_PAGE_SIZES: readonly number[] = [25, 50, 100];

/**
 * The shared table's test-id prefix in every tab: rows `admin-row`, search `admin-search`,
 * checkboxes `admin-select-{id}` (the console's browser-test hooks; only one tab is shown at a time).
 */
const HOOKS = 'admin';

export interface AdminTableProps<T extends RowData>
  extends Omit<DataTableProps<T>, 'testId' | 'pageSize' | 'pageSizeOptions' | 'rowAttributes' | 'initialSort' | 'server'> {
  /** The wrapper's test id: admin-users-table, admin-teams-table or admin-entries-table. */
  testId: string;
  /** The page shown and what the admin asks for next (useConsoleTab's `list.server`). */
  server: DataTableServer;
}

/**
 * One of the console's tables (spec §2 "Admin", §9), paged, sorted and searched on the server
 *: the shared DataTable in server mode with a 25/50/100 choice. Test hooks, the
 * same in every tab (only one tab is shown at a time): the wrapper `testId`; rows `admin-row`
 * with `data-id` = the entity id; the search box `admin-search`; checkboxes `admin-select-{id}`,
 * `admin-select-all`; pages `admin-page-{n}`, `admin-prev`, `admin-next`; sort buttons
 * `admin-sort-{key}` (the server's sort key); the size choice `admin-page-size`.
 */
export function AdminTable<T extends RowData>({ testId, getRowId, ...props }: AdminTableProps<T>) {
  return (
    <div data-testid={testId}>
      <DataTable
        {...props}
        getRowId={getRowId}
        testId={HOOKS}
        pageSizeOptions={ADMIN_PAGE_SIZES}
        rowAttributes={(row) => ({ 'data-id': getRowId(row) })}
      />
    </div>
  );
}
