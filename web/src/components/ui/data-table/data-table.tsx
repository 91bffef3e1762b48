/**
 * The one table of the app (team page, participants page, admin console): TanStack Table v9 for
 * the row models, this file for the markup and its accessibility. Sorting by clickable column
 * headers (aria-sort), a labelled search over the columns' texts, pagination with previous/next and
 * at most seven numbered page buttons (spec §9), optional row selection (a checkbox per row and one
 * for the page), an optional row number column ("Nr"/"#": the row's place in the current sorted
 * and searched order, counted across pages), optional expandable rows (a toggle per row opens a
 * full-width detail row under it), an empty state (spec §8 "No Available Data", kept in the visible
 * part of a wide table), and a horizontal scroller on small screens: a named, focusable region that,
 * while it hides columns, says so in a line above the table and with a shadow at the hiding edge.
 *
 * Test ids, from `testId`: the root `testId`; `${testId}-search`; `${testId}-row` per body row
 * (with `data-row-id`); `${testId}-sort-${columnId}`; `${testId}-page-${n}` (n from 1),
 * `${testId}-prev`, `${testId}-next`; `${testId}-empty` (with `${testId}-empty-search` and
 * `${testId}-clear-search` when a search found nothing); `${testId}-select-${rowId}` and
 * `${testId}-select-all` when rows are selectable; `${testId}-page-size` when sizes are offered;
 * `${testId}-row-number` per row number cell; `${testId}-expand-${rowId}` (the toggle) and
 * `${testId}-detail-${rowId}` (the open detail row) when rows expand; `${testId}-scroller` (the
 * scrolling region), `${testId}-scroll-frame` (with `data-hidden-start` / `data-hidden-end` while
 * columns are hidden at that edge) and `${testId}-scroll-hint` (the line, only while some are).
 *
 * Two modes. By default the table holds every row and pages, sorts and searches them itself.
 * With `server` (tables of a million rows) `data` is the one page the server
 * answered, and TanStack's manual pagination, sorting and filtering hand the page, the sort and
 * the search text to the owner (use-server-table.ts), which asks the server for that page;
 * `server.rowCount` (the answer's total) gives the page buttons and the summary.
 */
import {
  columnFilteringFeature,
  createColumnHelper,
  createFilteredRowModel,
  createPaginatedRowModel,
  createSortedRowModel,
  functionalUpdate,
  globalFilteringFeature,
  metaHelper,
  rowExpandingFeature,
  rowPaginationFeature,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ExpandedState,
  type FilterFn,
  type PaginationState,
  type Row,
  type RowData,
  type RowSelectionState,
  type SortFn,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { Fragment, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../../lib/use-lang';
import { useScrollEdges } from '../../../lib/scroll-edges';
import { ChevronIcon, SortIcon } from '../icons';
import { pageWindow, rowNumber } from './page-window';
import { compareValues, matchesSearch, normalizeSearchText, type SortValue } from './table-values';
import styles from './data-table.module.css';

export type { RowSelectionState };

/** One column of a DataTable. */
export interface DataTableColumn<T> {
  /** Stable id: sort state, test ids (`${testId}-sort-${id}`). */
  id: string;
  /** Header text. */
  header: string;
  /** The value the column sorts by; without it the column cannot be sorted. */
  value?: (row: T) => SortValue;
  /** What the cell shows; default: the value as text. */
  cell?: (row: T) => ReactNode;
  /**
   * The text the search box looks in for this column (what the cell shows, e.g. a translated
   * type or a formatted date). Default: the value when it is a string; other columns are not
   * searched.
   */
  searchText?: (row: T) => string;
  /** Default true when `value` is given. */
  sortable?: boolean;
  /** The first click sorts descending (numbers, dates: biggest or newest first). */
  sortDescFirst?: boolean;
  /** Numbers align to the end. Default 'start'. */
  align?: 'start' | 'end' | 'center';
  /** The header is for screen readers only (an actions column). */
  headerHidden?: boolean;
  /** The cell names its row (`<th scope="row">`), e.g. a person's name. */
  rowHeader?: boolean;
}

/** Row selection, owned by the caller (who acts on the selected ids). */
export interface DataTableSelection<T> {
  selected: RowSelectionState;
  onChange: (next: RowSelectionState) => void;
  /** Accessible name of a row's checkbox, e.g. "Select the entry of 12 April". */
  rowLabel: (row: T) => string;
}

export interface DataTableProps<T> {
  data: readonly T[];
  columns: readonly DataTableColumn<T>[];
  /** The entity id: row identity across pages, sorting and refreshes; `data-row-id`. */
  getRowId: (row: T) => string;
  testId: string;
  /** The table's accessible name (a caption for screen readers). */
  caption: string;
  /** Default order; without it the data's own order. */
  initialSort?: { id: string; desc: boolean };
  /** Rows per page; default 10 (spec §9). */
  pageSize?: number;
  /** Offers a rows-per-page choice (the admin console: 25, 50, 100). */
  pageSizeOptions?: readonly number[];
  /** Default true. */
  searchable?: boolean;
  /** Label of the search box; default "Search". */
  searchLabel?: string;
  /** Shown when there are no rows (or none match); default "No Available Data". */
  emptyText?: string;
  selection?: DataTableSelection<T>;
  /** Controls shown beside the search box (e.g. "Delete selected"). */
  toolbar?: ReactNode;
  /**
   * Shows a column "Nr" ("#" in English) with each row's 1-based place in the current order
   * (after sorting and searching), counted across pages. Not sortable or searchable.
   */
  rowNumbers?: boolean;
  /**
   * Makes every row expandable: a toggle button (aria-expanded) at the start of the row opens a
   * full-width row under it showing what this returns. Rows stay open across sorting, searching,
   * paging and refreshes until closed.
   */
  expand?: (row: T) => ReactNode;
  /**
   * Accessible name of a row's toggle, e.g. "About Tartu Tammed"; it stays the same whether the
   * row is open or not (aria-expanded says which). Default "Details of row {n}".
   */
  expandLabel?: (row: T) => string;
  /**
   * Server-side paging, sorting and searching (see the file's comment); `initialSort`,
   * `pageSize` and the columns' `searchText` are then not used. Made by useServerTable.
   */
  server?: DataTableServer;
  /**
   * Extra `data-*` attributes of each body row, e.g. `{ 'data-id': '42' }` for a test hook. The
   * table's own `data-testid` and `data-row-id` take precedence.
   */
  rowAttributes?: (row: T) => Record<`data-${string}`, string>;
}

/** A column's sort as the server takes it: the column id (the server's sort key) and the direction. */
export interface TableSort {
  id: string;
  desc: boolean;
}

/**
 * The state of a table whose rows the server pages, sorts and searches, owned by the caller
 * (useServerTable). The table reports what the reader asked for; the owner loads that page.
 */
export interface DataTableServer {
  /** Rows matching the search over all pages (the answer's `total`). */
  rowCount: number;
  /** The page asked for (0-based index) and its size. */
  pagination: PaginationState;
  onPaginationChange: (next: PaginationState) => void;
  sort: TableSort;
  onSortChange: (next: TableSort) => void;
  /** The search box's text as typed (the owner waits for a pause before asking the server). */
  search: string;
  onSearchChange: (text: string) => void;
  /** A read is under way: the table is aria-busy and dims the rows shown (the previous page's). */
  loading: boolean;
  /** The search box's maxLength (the server's limit). */
  searchMaxLength?: number;
}

interface ColumnMeta {
  header: string;
  align: 'start' | 'end' | 'center';
  headerHidden: boolean;
  rowHeader: boolean;
}

// Module scope (stable across renders, as TanStack Table requires). Row models run in the
// order filter → sort → paginate.
const features = tableFeatures({
  rowSortingFeature,
  columnFilteringFeature,
  globalFilteringFeature,
  rowPaginationFeature,
  rowSelectionFeature,
  // Detail rows, not sub-rows: no expanded row model, only the per-row open state.
  rowExpandingFeature,
  filteredRowModel: createFilteredRowModel(),
  sortedRowModel: createSortedRowModel(),
  paginatedRowModel: createPaginatedRowModel(),
  columnMeta: metaHelper<ColumnMeta>(),
});

type Features = typeof features;

/** Sorting state from the initial sort. */
function sortingFrom(initialSort: DataTableProps<never>['initialSort']): SortingState {
  return initialSort ? [{ id: initialSort.id, desc: initialSort.desc }] : [];
}

export const DEFAULT_PAGE_SIZE = 10;

/** See the file's comment. Keep `data` and `columns` stable (useMemo) between meaningful changes. */
export function DataTable<T extends RowData>(props: DataTableProps<T>) {
  const { data, columns, getRowId, testId, caption, selection, toolbar, pageSizeOptions, expand, expandLabel, rowAttributes, server } = props;
  const rowNumbers = props.rowNumbers === true;
  const { t } = useTranslation();
  const lang = useLang();
  const searchable = props.searchable !== false;
  const captionId = useId();
  const searchId = useId();
  const pageSizeId = useId();
  const detailIdPrefix = useId();
  const scrollHintId = useId();
  const [scrollerRef, edges] = useScrollEdges<HTMLDivElement>();
  const scrolls = edges.start || edges.end;

  // The table's own state; with `server`, the owner's instead.
  const [ownSorting, setOwnSorting] = useState<SortingState>(() => sortingFrom(props.initialSort));
  const [ownFilter, setOwnFilter] = useState('');
  const [ownPagination, setOwnPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: props.pageSize ?? DEFAULT_PAGE_SIZE });
  const serverSortId = server?.sort.id;
  const serverSortDesc = server?.sort.desc;
  const serverSorting = useMemo(
    (): SortingState | null => (serverSortId === undefined ? null : [{ id: serverSortId, desc: serverSortDesc === true }]),
    [serverSortId, serverSortDesc],
  );
  const sorting = serverSorting ?? ownSorting;
  const globalFilter = server ? server.search : ownFilter;
  const pagination = server ? server.pagination : ownPagination;
  const setPagination = (updater: Updater<PaginationState>) => {
    if (server) server.onPaginationChange(functionalUpdate(updater, server.pagination));
    else setOwnPagination((previous) => functionalUpdate(updater, previous));
  };
  const [expanded, setExpanded] = useState<ExpandedState>({});

  const tableColumns = useMemo(() => {
    const helper = createColumnHelper<Features, T>();
    const sortFn: SortFn<Features, T> = (rowA, rowB, columnId) =>
      compareValues(rowA.getValue(columnId) as Exclude<SortValue, null | undefined>, rowB.getValue(columnId) as Exclude<SortValue, null | undefined>, lang);
    return columns.map((column) => {
      const value = column.value;
      const meta: ColumnMeta = {
        header: column.header,
        align: column.align ?? 'start',
        headerHidden: column.headerHidden === true,
        rowHeader: column.rowHeader === true,
      };
      const cell = ({ row }: { row: Row<Features, T> }): ReactNode => {
        if (column.cell) return column.cell(row.original);
        const shown = value?.(row.original);
        return shown === null || shown === undefined ? '' : String(shown);
      };
      if (!value && !column.searchText) return helper.display({ id: column.id, header: column.header, cell, meta, enableSorting: false });
      return helper.accessor(
        // null becomes undefined, which sortUndefined puts last in either direction. Typed unknown
        // so that every column has the same definition type (the values are SortValues).
        (row: T): unknown => value?.(row) ?? undefined,
        {
          id: column.id,
          header: column.header,
          cell,
          meta,
          enableSorting: value !== undefined && column.sortable !== false,
          sortDescFirst: column.sortDescFirst === true,
          sortUndefined: 'last',
          sortFn,
        },
      );
    });
  }, [columns, lang]);

  // The search looks in each column's searchText (or its text value); one match keeps the row.
  const globalFilterFn = useMemo(() => {
    const texts = new Map(columns.map((column) => [column.id, column.searchText ?? textValueOf(column.value)]));
    const filter: FilterFn<Features, T> = (row, columnId, needle: string) => {
      const text = texts.get(columnId)?.(row.original);
      return text !== undefined && matchesSearch(text, needle, lang);
    };
    filter.resolveFilterValue = (value: unknown) => normalizeSearchText(typeof value === 'string' ? value : '', lang);
    return filter;
  }, [columns, lang]);
  const searchableIds = useMemo(
    () => new Set(columns.filter((column) => column.searchText ?? (column.value && textValueOf(column.value))).map((column) => column.id)),
    [columns],
  );

  const selected = selection?.selected;
  const onSelectionChange = selection?.onChange;
  const table = useTable({
    features,
    columns: tableColumns,
    data,
    getRowId: (row: T) => getRowId(row),
    state: { sorting, globalFilter, pagination, rowSelection: selected ?? EMPTY_SELECTION, expanded },
    onSortingChange: (updater: Updater<SortingState>) => {
      if (server) {
        // The owner goes back to page 1 itself (it asks the server for both at once).
        const next = functionalUpdate(updater, sorting)[0];
        if (next) server.onSortChange({ id: next.id, desc: next.desc });
        return;
      }
      setOwnSorting((previous) => functionalUpdate(updater, previous));
      setPagination((previous) => ({ ...previous, pageIndex: 0 }));
    },
    onGlobalFilterChange: (updater: Updater<string>) => {
      if (server) {
        server.onSearchChange(functionalUpdate(updater, server.search) ?? '');
        return;
      }
      setOwnFilter((previous) => functionalUpdate(updater, previous) ?? '');
      setPagination((previous) => ({ ...previous, pageIndex: 0 }));
    },
    onPaginationChange: setPagination,
    // Server mode: `data` is the page, already sorted and searched; the total comes with it.
    manualPagination: server !== undefined,
    manualSorting: server !== undefined,
    manualFiltering: server !== undefined,
    ...(server ? { rowCount: server.rowCount } : {}),
    onExpandedChange: (updater: Updater<ExpandedState>) => setExpanded((previous) => functionalUpdate(updater, previous)),
    getRowCanExpand: () => expand !== undefined,
    // An open row stays open when the data is refreshed.
    autoResetExpanded: false,
    onRowSelectionChange: (updater: Updater<RowSelectionState>) => {
      if (selected && onSelectionChange) onSelectionChange(functionalUpdate(updater, selected));
    },
    globalFilterFn,
    getColumnCanGlobalFilter: (column) => searchableIds.has(column.id),
    enableRowSelection: selection !== undefined,
    enableSortingRemoval: false,
    enableMultiSort: false,
    // A refresh (live updates from team mates) must not throw the reader back to page 1.
    autoResetPageIndex: false,
  });

  const pageCount = table.getPageCount();
  const { pageIndex, pageSize } = pagination;
  // Rows can go away (deleted, filtered): never stay on a page past the last.
  // (With `server`, the owner then asks for the last page.)
  const pastTheEnd = pageIndex > 0 && pageIndex >= pageCount;
  const lastPageIndex = Math.max(0, pageCount - 1);
  useEffect(() => {
    if (pastTheEnd) table.setPageIndex(lastPageIndex);
  }, [pastTheEnd, lastPageIndex, table]);

  const rows = table.getRowModel().rows;
  const total = table.getRowCount();
  const columnCount = columns.length + (selection ? 1 : 0) + (expand ? 1 : 0) + (rowNumbers ? 1 : 0);
  const from = total === 0 ? 0 : pageIndex * pageSize + 1;
  const to = Math.min(total, (pageIndex + 1) * pageSize);

  return (
    <div className={styles.root} data-testid={testId}>
      {(searchable || toolbar || pageSizeOptions) && (
        <div className={styles.toolbar}>
          {searchable && (
            <div className={styles.search}>
              <label htmlFor={searchId} className={styles.searchLabel}>
                {props.searchLabel ?? t('table.search')}
              </label>
              <input
                id={searchId}
                type="search"
                className={styles.searchInput}
                value={globalFilter}
                onChange={(event) => table.setGlobalFilter(event.target.value)}
                maxLength={server?.searchMaxLength}
                autoComplete="off"
                data-testid={`${testId}-search`}
              />
            </div>
          )}
          {toolbar && <div className={styles.actions}>{toolbar}</div>}
        </div>
      )}
      {/* A table wider than its box says so: a line above it and a shadow at each edge that
          hides columns; the box is a named, focusable region, so that keyboard users
          can scroll it with the arrow keys. */}
      {scrolls && (
        <p id={scrollHintId} className={styles.scrollHint} data-testid={`${testId}-scroll-hint`}>
          <span aria-hidden="true">↔</span> {t('table.scrollHint')}
        </p>
      )}
      <div
        className={styles.scrollFrame}
        data-hidden-start={edges.start || undefined}
        data-hidden-end={edges.end || undefined}
        data-testid={`${testId}-scroll-frame`}
      >
        <div
          ref={scrollerRef}
          className={styles.scroller}
          role="region"
          aria-labelledby={captionId}
          aria-describedby={scrolls ? scrollHintId : undefined}
          tabIndex={0}
          data-testid={`${testId}-scroller`}
        >
          <table className={classNames(styles.table, server?.loading && styles.busy)} aria-busy={server?.loading === true || undefined}>
            <caption id={captionId} className="sr-only">
              {caption}
            </caption>
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {selection && (
                    <th scope="col" className={styles.selectCell}>
                      <SelectAllCheckbox
                        checked={table.getIsAllPageRowsSelected()}
                        indeterminate={table.getIsSomePageRowsSelected() && !table.getIsAllPageRowsSelected()}
                        disabled={rows.length === 0}
                        label={t('table.selectPage')}
                        onChange={(checked) => table.toggleAllPageRowsSelected(checked)}
                        testId={`${testId}-select-all`}
                      />
                    </th>
                  )}
                  {expand && (
                    <th scope="col" className={styles.expandCell}>
                      <span className="sr-only">{t('table.details')}</span>
                    </th>
                  )}
                  {rowNumbers && (
                    <th scope="col" className={`${styles.headerCell} ${styles.numberCell}`}>
                      {/* "Nr" / "#" on screen, the whole words for screen readers. */}
                      <span aria-hidden="true" title={t('table.rowNumberLong')}>
                        {t('table.rowNumber')}
                      </span>
                      <span className="sr-only">{t('table.rowNumberLong')}</span>
                    </th>
                  )}
                  {group.headers.map((header) => {
                    const meta = header.column.columnDef.meta as ColumnMeta;
                    const sorted = header.column.getIsSorted();
                    const canSort = header.column.getCanSort();
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        className={`${styles.headerCell} ${alignClass(meta.align)}`}
                        aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                      >
                        {canSort ? (
                          <button
                            type="button"
                            className={styles.sortButton}
                            onClick={header.column.getToggleSortingHandler()}
                            data-testid={`${testId}-sort-${header.column.id}`}
                          >
                            <span>{meta.header}</span>
                            <SortIcon direction={sorted} size={16} className={styles.sortIcon} />
                          </button>
                        ) : (
                          <span className={meta.headerHidden ? 'sr-only' : undefined}>{meta.header}</span>
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={columnCount} className={styles.empty} data-testid={`${testId}-empty`}>
                    {/* Centred in the visible part of the box, not across the whole (wider) table. */}
                    {globalFilter.trim() === '' ? (
                      <div className={styles.emptyMessage}>{props.emptyText ?? t('table.empty')}</div>
                    ) : (
                      // A search that found nothing says what was searched and the way out.
                      <div className={styles.emptyMessage}>
                        <p className={styles.emptySearch} data-testid={`${testId}-empty-search`}>
                          {t('table.noMatch', { search: globalFilter.trim() })}
                        </p>
                        <button
                          type="button"
                          className={styles.clearSearch}
                          onClick={() => table.setGlobalFilter('')}
                          data-testid={`${testId}-clear-search`}
                        >
                          {t('table.clearSearch')}
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              ) : (
                rows.map((row, indexOnPage) => {
                  const number = rowNumber(pageIndex, pageSize, indexOnPage);
                  const open = expand !== undefined && row.getIsExpanded();
                  const detailId = `${detailIdPrefix}-detail-${row.id}`;
                  // Stripes by place on the page, so that an open detail row keeps its row's colour.
                  const rowClass = classNames(indexOnPage % 2 === 1 && styles.striped, row.getIsSelected() && styles.selectedRow);
                  return (
                    <Fragment key={row.id}>
                      <tr {...rowAttributes?.(row.original)} className={rowClass} data-testid={`${testId}-row`} data-row-id={row.id}>
                        {selection && (
                          <td className={styles.selectCell}>
                            <input
                              type="checkbox"
                              className={styles.checkbox}
                              checked={row.getIsSelected()}
                              // The click's shiftKey selects a range (TanStack's handler reads nativeEvent).
                              onChange={row.getToggleSelectedHandler()}
                              aria-label={selection.rowLabel(row.original)}
                              data-testid={`${testId}-select-${row.id}`}
                            />
                          </td>
                        )}
                        {expand && (
                          <td className={styles.expandCell}>
                            <button
                              type="button"
                              className={styles.expandButton}
                              onClick={() => row.toggleExpanded()}
                              aria-expanded={open}
                              aria-controls={detailId}
                              aria-label={expandLabel ? expandLabel(row.original) : t('table.showDetails', { number })}
                              data-testid={`${testId}-expand-${row.id}`}
                            >
                              <ChevronIcon direction="right" size={18} className={styles.expandIcon} />
                            </button>
                          </td>
                        )}
                        {rowNumbers && (
                          <td className={`${styles.cell} ${styles.numberCell}`} data-testid={`${testId}-row-number`}>
                            {number}
                          </td>
                        )}
                        {row.getAllCells().map((cell) => {
                          const meta = cell.column.columnDef.meta as ColumnMeta;
                          const className = `${styles.cell} ${alignClass(meta.align)}`;
                          return meta.rowHeader ? (
                            <th key={cell.id} scope="row" className={`${className} ${styles.rowHeader}`}>
                              <table.FlexRender cell={cell} />
                            </th>
                          ) : (
                            <td key={cell.id} className={className}>
                              <table.FlexRender cell={cell} />
                            </td>
                          );
                        })}
                      </tr>
                      {open && (
                        <tr id={detailId} className={rowClass} data-testid={`${testId}-detail-${row.id}`}>
                          <td colSpan={columnCount} className={styles.detailCell}>
                            <div className={styles.detail}>{expand(row.original)}</div>
                          </td>
                        </tr>
                      )}
                    </Fragment>
                  );
                })
              )}
            </tbody>
          </table>
        </div>
      </div>
      <div className={styles.footer}>
        <p className={styles.summary} aria-live="polite">
          {t('table.summary', { from, to, total })}
        </p>
        {pageSizeOptions && pageSizeOptions.length > 0 && (
          <div className={styles.pageSize}>
            <label htmlFor={pageSizeId}>{t('table.pageSize')}</label>
            <select
              id={pageSizeId}
              className={styles.pageSizeSelect}
              value={pageSize}
              onChange={(event) => setPagination({ pageIndex: 0, pageSize: Number(event.target.value) })}
              data-testid={`${testId}-page-size`}
            >
              {pageSizeOptions.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </div>
        )}
        <nav className={styles.pagination} aria-label={t('table.pagination', { name: caption })}>
          <button
            type="button"
            className={styles.pageButton}
            onClick={() => table.previousPage()}
            disabled={!table.getCanPreviousPage()}
            aria-label={t('table.previous')}
            data-testid={`${testId}-prev`}
          >
            <ChevronIcon direction="left" size={16} />
          </button>
          {pageWindow(pageCount, pageIndex).map((index) => (
            <button
              key={index}
              type="button"
              className={styles.pageButton}
              onClick={() => table.setPageIndex(index)}
              aria-current={index === pageIndex ? 'page' : undefined}
              aria-label={t('table.page', { page: index + 1 })}
              data-testid={`${testId}-page-${index + 1}`}
            >
              {index + 1}
            </button>
          ))}
          <button
            type="button"
            className={styles.pageButton}
            onClick={() => table.nextPage()}
            disabled={!table.getCanNextPage()}
            aria-label={t('table.next')}
            data-testid={`${testId}-next`}
          >
            <ChevronIcon direction="right" size={16} />
          </button>
        </nav>
      </div>
    </div>
  );
}

const EMPTY_SELECTION: RowSelectionState = {};

/** The search text of a column that has only a value: the value when it is a string. */
function textValueOf<T>(value: ((row: T) => SortValue) | undefined): ((row: T) => string) | undefined {
  if (!value) return undefined;
  return (row) => {
    const shown = value(row);
    return typeof shown === 'string' ? shown : '';
  };
}

/** The truthy class names joined; undefined when there are none (no empty class attribute). */
function classNames(...names: (string | false | undefined)[]): string | undefined {
  const joined = names.filter(Boolean).join(' ');
  return joined === '' ? undefined : joined;
}

function alignClass(align: ColumnMeta['align']): string {
  if (align === 'end') return styles.alignEnd ?? '';
  if (align === 'center') return styles.alignCenter ?? '';
  return '';
}

interface SelectAllCheckboxProps {
  checked: boolean;
  indeterminate: boolean;
  disabled: boolean;
  label: string;
  onChange: (checked: boolean) => void;
  testId: string;
}

/** The page's select-all checkbox; "some selected" shows as indeterminate (a DOM-only property). */
function SelectAllCheckbox({ checked, indeterminate, disabled, label, onChange, testId }: SelectAllCheckboxProps) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className={styles.checkbox}
      checked={checked}
      disabled={disabled}
      onChange={(event) => onChange(event.target.checked)}
      aria-label={label}
      data-testid={testId}
    />
  );
}
