import type { RowData } from '@tanstack/react-table';
import { DataTable, type DataTableProps } from '../../../../components/ui/data-table';

/** Rows per page in the admin console (spec §2: 50 per page). */
export const ADMIN_PAGE_SIZE = 50;

/** The rows-per-page choice (spec §9: default page sizes 25, 50, 100). */
export const ADMIN_PAGE_SIZES: readonly number[] = [25, 50, 100];

/**
 * The shared table's test-id prefix in every tab: rows `admin-row`, search `admin-search`,
 * checkboxes `admin-select-{id}` (the console's browser-test hooks; only one tab is shown at a time).
 */
const HOOKS = 'admin';

export interface AdminTableProps<T extends RowData> extends Omit<DataTableProps<T>, 'testId' | 'pageSize' | 'pageSizeOptions' | 'rowAttributes'> {
  /** The wrapper's test id: admin-users-table, admin-teams-table or admin-entries-table. */
  testId: string;
}

/**
 * One of the console's tables (spec §2 "Admin", §9): the shared DataTable with 50 rows per page
 * and a 25/50/100 choice. Test hooks, the same in every tab (only one tab is shown at a time):
 * the wrapper `testId`; rows `admin-row` with `data-id` = the entity id; the search box
 * `admin-search`; checkboxes `admin-select-{id}`, `admin-select-all`; pages `admin-page-{n}`.
 */
export function AdminTable<T extends RowData>({ testId, getRowId, ...props }: AdminTableProps<T>) {
  return (
    <div data-testid={testId}>
      <DataTable
        {...props}
        getRowId={getRowId}
        testId={HOOKS}
        pageSize={ADMIN_PAGE_SIZE}
        pageSizeOptions={ADMIN_PAGE_SIZES}
        rowAttributes={(row) => ({ 'data-id': getRowId(row) })}
      />
    </div>
  );
}
