/**
 * Names of the history's export files (GET /api/admin/history/export answers an
 * attachment, `content-disposition: attachment; filename="history-<instant>.<format>"`).
 */

export { filenameFromDisposition } from '../../../../lib/download';

/** The export formats, in the order the buttons offer them. */
export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The name used when the answer names no file: `history-<instant>.<format>`, as the server writes it. */
export function fallbackExportName(format: ExportFormat, now: Date): string {
  return `history-${now.toISOString().replace(/[:.]/g, '-')}.${format}`;
}
