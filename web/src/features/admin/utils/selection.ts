/**
 * The console tables' row selection across pages: the server sends one page at
 * a time, so the selected rows are kept by id, each with the row as it was listed when it was
 * selected (what "Delete selected" sends and names), while the admin pages, sorts and searches.
 */
import type { RowSelectionState } from '../../../components/ui/data-table';

/**
 * The selected rows after the table reported `next` (TanStack's selection: id → true), with
 * `listed` the page shown: an id still selected keeps its row, from the page when it is listed
 * there (the freshest), else as it was kept; an id the selection dropped goes; a selected id found
 * nowhere (never listed) is left out. Order: the kept rows first, then the newly selected.
 */
export function selectedRowsAfter<T>(
  previous: ReadonlyMap<string, T>,
  next: RowSelectionState,
  listed: readonly T[],
  rowId: (row: T) => string,
): Map<string, T> {
  const onPage = new Map(listed.map((row) => [rowId(row), row]));
  const kept = new Map<string, T>();
  for (const [id, row] of previous) if (next[id] === true) kept.set(id, onPage.get(id) ?? row);
  for (const [id, on] of Object.entries(next)) {
    const row = onPage.get(id);
    if (on && !kept.has(id) && row !== undefined) kept.set(id, row);
  }
  return kept;
}

/** TanStack's selection state for the kept rows. */
export function selectionState(rows: ReadonlyMap<string, unknown>): RowSelectionState {
  return Object.fromEntries([...rows.keys()].map((id) => [id, true]));
}
