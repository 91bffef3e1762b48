export { DataTable, DEFAULT_PAGE_SIZE } from './data-table';
export type { DataTableColumn, DataTableProps, DataTableSelection, DataTableServer, RowSelectionState, TableSort } from './data-table';
export { MAX_PAGE_BUTTONS, pageWindow } from './page-window';
export { pageQueryString, searchOf, toPageQuery, withPage, withPageSize, withSearch, withSort } from './server-query';
export type { PageQuery, ServerTableQuery } from './server-query';
export type { SortValue } from './table-values';
export { SEARCH_DEBOUNCE_MS, useServerTable } from './use-server-table';
export type { ServerPage, ServerTable, ServerTableOptions } from './use-server-table';
