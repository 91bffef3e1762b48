/**
 * What the server-paged tables share (the contract is @sinilill/contracts
 * pages.ts): the page window a query string asks for, the search pattern (folding case and
 * diacritics), the Estonian collation
 * of names, and the CSV download streamed from a server-side cursor. The tables themselves are in
 * admin-pages.ts (the admin console's users, teams and entries tabs) and public-pages.ts (the
 * participants table).
 *
 * Order: every table sorts by one key, NULLs last in either direction, then by the row's id in
 * the same direction (so that pages are stable and one index serves both directions). Text keys
 * sort by Estonian collation: ICU's `et` (PostgreSQL collation "et-x-icu": š z ž after s, then t,
 * and õ ä ö ü after w). The embedded PostgreSQL 17 and the official images are built with ICU; a
 * server without it has no "et-x-icu" and read-model migration 2026-009 stops with that message.
 */
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringify } from 'csv-stringify/sync';
import { CompiledQuery, sql, type Expression, type Kysely, type OrderByItemBuilder, type RawBuilder } from 'kysely';
import { SEARCH_MAX, type PAGE_SIZES } from '@sinilill/contracts';
import { DomainError } from '@sinilill/domain';

/** PostgreSQL's ICU collation for Estonian (pg_collation.collname). */
export const ESTONIAN_COLLATION = 'et-x-icu';

/** Rows a CSV download reads from its cursor at a time (bounds the memory one download holds). */
export const EXPORT_BATCH = 1000;

export type SortOrder = 'asc' | 'desc';

/** `expr COLLATE "et-x-icu"`: text compared and sorted as Estonian, and lower-cased by ICU for ILIKE. */
export function estonian<T extends string | null>(expr: Expression<T> | RawBuilder<T>): RawBuilder<T> {
  return sql<T>`${expr} COLLATE ${sql.id(ESTONIAN_COLLATION)}`;
}

/**
 * The ILIKE pattern of a search text: `q` trimmed, '%', '_' and '\' escaped (backslash, LIKE's
 * default escape), between '%'s: a case-insensitive substring. Null for no search ('' or absent).
 */
export function searchPattern(q: string | undefined): string | null {
  const text = q?.trim() ?? '';
  if (text === '') return null;
  return `%${text.slice(0, SEARCH_MAX).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `public.unaccent(text)` with its dictionary named, so it works whatever the session's search_path (read-model migration 2026-011). */
function unaccent(text: Expression<string | null> | RawBuilder<string | null> | string): RawBuilder<string | null> {
  const value = typeof text === 'string' ? sql`${text}::text` : text;
  return sql<string | null>`public.unaccent('public.unaccent'::regdictionary, ${value})`;
}

/**
 * `unaccent(col) COLLATE "et-x-icu" ILIKE unaccent(pattern)`: a search that folds case and
 * diacritics, so people who type without them ("voru", "sokolaad") find "Võru" and "Šokolaad".
 * ICU lower-cases both sides whatever the database's locale; unaccent leaves '%', '_' and '\'
 * (the pattern's escapes) as they are.
 */
export function ilike(column: Expression<string | null> | RawBuilder<string | null>, pattern: string): RawBuilder<boolean> {
  return sql<boolean>`${estonian(unaccent(column))} ILIKE ${unaccent(pattern)}`;
}

/** A sort key's expression and whether it can be NULL (only those get NULLS LAST, which stops a backward index scan). */
export interface SortKey {
  expr: RawBuilder<unknown>;
  nullable: boolean;
}

/** Kysely's orderBy modifiers for `order`, NULLs last when the key can be NULL. */
export function direction(order: SortOrder, nullable = false): (ob: OrderByItemBuilder) => OrderByItemBuilder {
  return (ob) => {
    const directed = order === 'desc' ? ob.desc() : ob.asc();
    return nullable ? directed.nullsLast() : directed;
  };
}

/** `page` and `size` as a query string writes them: decimal digits, no sign, point, exponent or leading zero. */
const PLAIN_NUMBER = /^[1-9][0-9]{0,6}$/;

/**
 * preValidation hook of the paged routes: refuses a `page` or `size` that is not written in plain
 * digits (400 INVALID_REQUEST), before the schema's conversion would read '1.5' as 1 or '5e1' as
 * 50 (TypeBox's Value.Convert truncates numeric strings for integers); the schema checks the rest
 * (page 1 to 1 000 000, size one of PAGE_SIZES).
 * @throws DomainError INVALID_REQUEST
 */
export async function plainPageNumbers(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown> | undefined;
  for (const name of ['page', 'size']) {
    const value = query?.[name];
    if (typeof value === 'string' && !PLAIN_NUMBER.test(value)) throw new DomainError('INVALID_REQUEST', `${name} is not a plain number: ${value.slice(0, 20)}`);
  }
}

/** A paged query's window, defaults filled in: 1-based page, rows per page, first row's offset. */
export interface PageWindow<S extends string> {
  page: number;
  size: number;
  offset: number;
  sort: S;
  order: SortOrder;
  /** searchPattern(q), null for no search. */
  pattern: string | null;
}

/** A page query as the contract's schemas validated it (page and size converted to numbers). */
export interface PageQueryString<S extends string> {
  page?: number;
  size?: (typeof PAGE_SIZES)[number];
  sort?: S;
  order?: SortOrder;
  q?: string;
}

/** The window of `query`, with the table's defaults (contract DEFAULT_SORT; size ADMIN_PAGE_SIZE or PUBLIC_PAGE_SIZE). */
export function pageWindow<S extends string>(
  query: PageQueryString<S>, defaults: { sort: S; order: SortOrder; size: number },
): PageWindow<S> {
  const page = query.page ?? 1;
  const size = query.size ?? defaults.size;
  return {
    page, size, offset: (page - 1) * size,
    sort: query.sort ?? defaults.sort, order: query.order ?? defaults.order, pattern: searchPattern(query.q),
  };
}

/**
 * A Readable of the rows of `query`, read through a server-side cursor `batch` rows at a time in
 * one READ ONLY REPEATABLE READ transaction (one snapshot: a download is the table as it stood
 * when it began), each batch written as one chunk by `encode` (`first`: the first batch, possibly
 * empty), so that a whole table is never held in memory and a slow client slows the reads
 * (backpressure). The connection is held until the last row is read or the stream is destroyed
 * (the client went away), then the transaction ends.
 *
 * Resolves once the first batch is read, so that a failing query is answered as an error (503
 * when the database is down) rather than as a download cut short; later failures destroy the
 * stream (the download ends early, visibly).
 */
export async function cursorChunks<DB, R>(
  db: Kysely<DB>, query: CompiledQuery<R>, encode: (rows: R[], first: boolean) => string, batch = EXPORT_BATCH,
): Promise<Readable> {
  let resume: (() => void) | undefined;
  let stopped = false;
  const wake = () => {
    const waiting = resume;
    resume = undefined;
    waiting?.();
  };
  const chunks = new Readable({
    read: wake,
    destroy(error, callback) {
      stopped = true;
      wake();
      callback(error);
    },
  });
  let opened: () => void = () => undefined;
  let failed: (error: unknown) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    opened = resolve;
    failed = reject;
  });
  void db.connection().execute(async (connection) => {
    await connection.executeQuery(CompiledQuery.raw('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'));
    try {
      await connection.executeQuery(CompiledQuery.raw(`DECLARE table_export NO SCROLL CURSOR FOR ${query.sql}`, [...query.parameters]));
      for (let first = true; !stopped; first = false) {
        const { rows } = await connection.executeQuery<R>(CompiledQuery.raw(`FETCH ${batch} FROM table_export`));
        const text = encode(rows, first);
        if (first) opened();
        if (stopped) break;
        const room = text === '' || chunks.push(text);
        if (rows.length < batch) {
          chunks.push(null);
          break;
        }
        if (!room && !stopped) await new Promise<void>((resolve) => { resume = resolve; });
      }
    } finally {
      await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
    }
  }).catch((error: unknown) => {
    failed(error);
    chunks.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  await ready;
  return chunks;
}

/**
 * Answers a CSV download of `query`'s rows, each written as `record` makes it: UTF-8 CSV
 * (csv-stringify: comma-separated, `\n` line ends, fields with commas, quotes or line breaks
 * quoted) with a header line of `columns` (also when no row matches), `text/csv; charset=utf-8`,
 * `content-disposition: attachment; filename="<filename>"`. Booleans are written true/false, NULLs
 * as empty fields. Read through cursorChunks (a chunk per EXPORT_BATCH rows).
 * @throws the query's error when its first batch fails (nothing sent yet).
 */
export async function sendCsv<DB, R>(
  db: Kysely<DB>, reply: FastifyReply,
  options: { filename: string; columns: readonly string[]; query: CompiledQuery<R>; record: (row: R) => Record<string, unknown> },
): Promise<FastifyReply> {
  const columns = [...options.columns];
  const body = await cursorChunks(db, options.query, (rows, first) =>
    stringify(rows.map(options.record), { header: first, columns, cast: { boolean: (value) => String(value) } }));
  reply.header('content-disposition', `attachment; filename="${options.filename}"`);
  reply.type('text/csv; charset=utf-8');
  return reply.send(body);
}
