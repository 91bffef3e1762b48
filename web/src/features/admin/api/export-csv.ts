/**
 * The console tables' CSV exports: GET /api/admin/users.csv, /teams.csv and
 * /entries.csv with the table's current sort and search (`?sort&order&q`), every matching row.
 * They answer only an administrator, so the file is fetched with the session's token and saved
 * from a Blob (the audit's download helpers), not linked.
 */
import type { PageQuery } from '../../../components/ui/data-table';
import { pageQueryString } from '../../../components/ui/data-table';
import { fetchFile, saveBlob } from '../audit/api/download-file';

/** The console's exportable tables. */
export type ExportTable = 'users' | 'teams' | 'entries';

/** The name saved when the answer names no file: `users-2025-04-15.csv`. */
export function fallbackCsvName(table: ExportTable, now: Date): string {
  return `${table}-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * Fetches `table`'s CSV for `query`'s sort and search (page and size are not sent) and hands it
 * to the browser as a download; answers the file's name. Throws ApiError (UNAUTHORIZED,
 * FORBIDDEN, INVALID_REQUEST; GENERIC_ERROR when the network failed or the stream broke off).
 */
export async function downloadTableCsv(table: ExportTable, query: PageQuery, signal?: AbortSignal): Promise<string> {
  const { blob, filename } = await fetchFile(`/admin/${table}.csv${pageQueryString(query, false)}`, fallbackCsvName(table, new Date()), signal);
  saveBlob(blob, filename);
  return filename;
}
