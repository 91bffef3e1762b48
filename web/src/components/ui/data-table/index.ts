export { DataTable, DEFAULT_PAGE_SIZE } from './data-table';
export type { DataTableColumn, DataTableProps, DataTableSelection, RowSelectionState } from './data-table';
export { MAX_PAGE_BUTTONS, pageWindow } from './page-window';
export type { SortValue } from './table-values';
