/**
 * What a server-paged table asks for (packages/contracts/src/pages.ts): the
 * page, its size, the sort and the search, and how that becomes the paged calls' query string
 * `?page&size&sort&order&q`. Pure: use-server-table.ts keeps the state, the features load.
 */

/** A server-paged table's request: what the reader chose, in the table's terms. */
export interface ServerTableQuery {
  /** 0-based (the query string's `page` is 1-based). */
  pageIndex: number;
  pageSize: number;
  /** The column id: the server's sort key. */
  sort: string;
  desc: boolean;
  /** The search as sent: trimmed; '' for none. */
  search: string;
}

/** The paged calls' query (the contract's `?page&size&sort&order&q`). */
export interface PageQuery<S extends string = string> {
  /** 1-based. */
  page: number;
  size: number;
  sort: S;
  order: 'asc' | 'desc';
  /** Absent for no search. */
  q?: string;
}

/** The search text as the server gets it: trimmed, inner spaces kept (the server matches substrings). */
export function searchOf(typed: string): string {
  return typed.trim();
}

/** `query` on another page (0-based; negative becomes 0). */
export function withPage(query: ServerTableQuery, pageIndex: number): ServerTableQuery {
  const next = Math.max(0, Math.floor(pageIndex));
  return next === query.pageIndex ? query : { ...query, pageIndex: next };
}

/** `query` with another page size, from page 1 (the old page's number means nothing in the new size). */
export function withPageSize(query: ServerTableQuery, pageSize: number): ServerTableQuery {
  return pageSize === query.pageSize ? query : { ...query, pageSize, pageIndex: 0 };
}

/** `query` sorted otherwise, from page 1. The same sort keeps `query` (no new read). */
export function withSort(query: ServerTableQuery, sort: string, desc: boolean): ServerTableQuery {
  return sort === query.sort && desc === query.desc ? query : { ...query, sort, desc, pageIndex: 0 };
}

/** `query` searching `typed` (trimmed), from page 1. The same search keeps `query` and its page. */
export function withSearch(query: ServerTableQuery, typed: string): ServerTableQuery {
  const search = searchOf(typed);
  return search === query.search ? query : { ...query, search, pageIndex: 0 };
}

/**
 * The contract's query for `query`: page 1-based, `sort` one of `sorts` (else `fallback`: a column
 * id the server does not sort by never reaches it), the order, and `q` only when there is a search.
 */
export function toPageQuery<S extends string>(query: ServerTableQuery, sorts: readonly S[], fallback: S): PageQuery<S> {
  const sort = (sorts as readonly string[]).includes(query.sort) ? (query.sort as S) : fallback;
  const page: PageQuery<S> = { page: query.pageIndex + 1, size: query.pageSize, sort, order: query.desc ? 'desc' : 'asc' };
  return query.search === '' ? page : { ...page, q: query.search };
}

/**
 * `?page=…&size=…&sort=…&order=…&q=…` for a paged call, or for a CSV export (`paged` false:
 * sort, order and q only, as the exports take). Values are URL-encoded (UTF-8: õ, ä, ö, ü, š, ž).
 */
export function pageQueryString(query: PageQuery, paged = true): string {
  const params: [string, string][] = paged ? [['page', String(query.page)], ['size', String(query.size)]] : [];
  params.push(['sort', query.sort], ['order', query.order]);
  if (query.q !== undefined && query.q !== '') params.push(['q', query.q]);
  // encodeURIComponent, not URLSearchParams: a space is %20, never a '+' left to the parser's reading.
  return `?${params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`;
}

/** The address's query-string keys of a server-paged table's state (reload, back and a shared link keep them). */
const ADDRESS_KEYS = ['page', 'size', 'sort', 'order', 'q'] as const;

/** A 1-based page number as an address writes it: plain digits, no leading zero. */
const PLAIN_PAGE = /^[1-9][0-9]{0,6}$/;

/**
 * The table state an address's query string (`location.search`, with or without '?') asks for:
 * `page` (1-based), `size` (one of `sizes`), `sort`, `order` (asc/desc) and `q`, each in place
 * of `defaults`' when present and well-formed; anything else is ignored (a mistyped link opens
 * the table as usual rather than failing). An unknown `sort` is kept: toPageQuery falls back.
 */
export function queryFromAddress(search: string, defaults: ServerTableQuery, sizes: readonly number[]): ServerTableQuery {
  const params = new URLSearchParams(search);
  const page = params.get('page');
  const size = Number(params.get('size'));
  const sort = params.get('sort');
  const order = params.get('order');
  const q = searchOf(params.get('q') ?? '');
  return {
    pageIndex: page !== null && PLAIN_PAGE.test(page) ? Number(page) - 1 : defaults.pageIndex,
    pageSize: sizes.includes(size) ? size : defaults.pageSize,
    sort: sort !== null && sort !== '' ? sort : defaults.sort,
    desc: order === 'asc' ? false : order === 'desc' ? true : defaults.desc,
    search: q !== '' ? q : defaults.search,
  };
}

/**
 * The query string (with its '?', or '' when empty) of `search` with `query` written in it:
 * the other keys (e.g. the console's `tab`) kept, and only what differs from `defaults` written,
 * so the table's plain address stays plain.
 */
export function addressWithQuery(search: string, query: ServerTableQuery, defaults: ServerTableQuery): string {
  const params = new URLSearchParams(search);
  for (const key of ADDRESS_KEYS) params.delete(key);
  if (query.pageIndex !== defaults.pageIndex) params.set('page', String(query.pageIndex + 1));
  if (query.pageSize !== defaults.pageSize) params.set('size', String(query.pageSize));
  if (query.sort !== defaults.sort || query.desc !== defaults.desc) {
    params.set('sort', query.sort);
    params.set('order', query.desc ? 'desc' : 'asc');
  }
  if (query.search !== '') params.set('q', query.search);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
