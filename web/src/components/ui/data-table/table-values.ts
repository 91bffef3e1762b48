/**
 * How the data table orders and searches values: numbers by size, texts by the page language's
 * alphabet (Estonian puts š, z, ž, õ, ä, ö, ü after s), empty values last in either direction.
 */

/** A cell's sortable value; null/undefined is "no value". */
export type SortValue = string | number | boolean | null | undefined;

const collators = new Map<string, Intl.Collator>();

function collator(locale: string): Intl.Collator {
  let found = collators.get(locale);
  if (!found) {
    found = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
    collators.set(locale, found);
  }
  return found;
}

/**
 * Ascending comparison of two present values: numbers (and booleans, false < true) by size,
 * anything else as text in `locale`'s order, numeric runs by value ("2" < "10").
 */
export function compareValues(a: Exclude<SortValue, null | undefined>, b: Exclude<SortValue, null | undefined>, locale: string): number {
  if ((typeof a === 'number' || typeof a === 'boolean') && (typeof b === 'number' || typeof b === 'boolean')) {
    return Number(a) - Number(b);
  }
  return collator(locale).compare(String(a), String(b));
}

/**
 * Text as the search compares it: lower case (by `locale`), diacritics dropped (canonical
 * decomposition, combining marks removed: "Võru" and "voru" are the same search, as on the
 * server's folded ILIKE), spaces collapsed, trimmed.
 */
export function normalizeSearchText(text: string, locale: string): string {
  return text.toLocaleLowerCase(locale).normalize('NFD').replace(/\p{M}+/gu, '').replace(/\s+/g, ' ').trim();
}

/** True when `haystack` contains the (already normalized) `needle`; an empty needle matches all. */
export function matchesSearch(haystack: string, needle: string, locale: string): boolean {
  return needle === '' || normalizeSearchText(haystack, locale).includes(needle);
}
