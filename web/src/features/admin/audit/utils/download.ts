/**
 * Names of the history's export files (issue 6: GET /api/admin/history/export answers an
 * attachment, `content-disposition: attachment; filename="history-<instant>.<format>"`).
 */

/** The export formats, in the order the buttons offer them. */
export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A safe file name: no path separators or control characters, at most 200 characters. */
function safeName(name: string): string {
  return name.replace(/[\\/:*?"<>|\p{Cc}]/gu, '-').slice(0, 200);
}

/**
 * The file name a content-disposition header gives (`filename*=UTF-8''…` preferred, then
 * `filename="…"` or a bare `filename=…`), made safe to save; `fallback` when there is none.
 */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  if (header) {
    const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
    if (extended?.[1]) {
      try {
        return safeName(decodeURIComponent(extended[1].trim()));
      } catch {
        // A broken escape: try the plain parameter.
      }
    }
    const plain = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/.exec(header);
    const name = plain?.[1] ?? plain?.[2];
    if (name) return safeName(name);
  }
  return fallback;
}

/** The name used when the answer names no file: `history-<instant>.<format>`, as the server writes it. */
export function fallbackExportName(format: ExportFormat, now: Date): string {
  return `history-${now.toISOString().replace(/[:.]/g, '-')}.${format}`;
}
