/**
 * Downloads the browser saves from fetched answers (the admin console's exports, a participant's
 * own data, certificates): the file name an answer's content-disposition gives, made safe, and
 * the hand-over of a Blob to the browser. Shared by the features that download files.
 */

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

/** Hands `blob` to the browser as a download named `filename` (an object URL on a clicked `<a download>`). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: some browsers start reading the URL only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
