/**
 * The team icon's file checks made before uploading (spec §5: extensions .jpg, .jpeg, .png, else
 * NOT_ALLOWED_FILE_TYPE; above the edition's image limit, 5 MB in 2025, MAX_IMAGE_SIZE). The server checks again, by the content.
 */
import type { IMAGE_EXTENSIONS } from '@sinilill/contracts';
import { siteLimits } from './site-edition';

/** The extensions allowed; typed by the contract's list, so the two cannot drift apart. */
export const ICON_EXTENSIONS: typeof IMAGE_EXTENSIONS = ['.jpg', '.jpeg', '.png'];

/** The file input's accept attribute. */
export const ICON_ACCEPT = ICON_EXTENSIONS.join(',');

export type IconFileProblem = 'NOT_ALLOWED_FILE_TYPE' | 'MAX_IMAGE_SIZE';

/**
 * What is wrong with a chosen file, or null: NOT_ALLOWED_FILE_TYPE unless its name ends in an
 * allowed extension (any case), else MAX_IMAGE_SIZE when it is larger than `maxBytes` (the
 * edition's `limits.imageMaxBytes`, by default the site edition's from the query cache; null
 * while it is unknown: the server decides).
 */
export function checkIconFile(file: { name: string; size: number }, maxBytes: number | null = siteLimits()?.imageMaxBytes ?? null): IconFileProblem | null {
  const name = file.name.toLowerCase();
  if (!ICON_EXTENSIONS.some((extension) => name.endsWith(extension))) return 'NOT_ALLOWED_FILE_TYPE';
  if (maxBytes !== null && file.size > maxBytes) return 'MAX_IMAGE_SIZE';
  return null;
}

/** Reads a file as a data URL (`data:image/png;base64,…`), the form PUT publicattributes takes. */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('not a data URL')));
    reader.onerror = () => reject(reader.error ?? new Error('cannot read the file'));
    reader.readAsDataURL(file);
  });
}
