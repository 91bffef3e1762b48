import { describe, expect, it } from 'vitest';
import { addressWithQuery, pageQueryString, queryFromAddress, searchOf, toPageQuery, withPage, withPageSize, withSearch, withSort, type ServerTableQuery } from './server-query';

const SORTS = ['team_name', 'distance', 'participants', 'blueFlowers'] as const;
const start: ServerTableQuery = { pageIndex: 0, pageSize: 50, sort: 'distance', desc: true, search: '' };
const onPage4: ServerTableQuery = { ...start, pageIndex: 3 };

describe('moving a server-paged table', () => {
  it('goes to a page, never below the first', () => {
    expect(withPage(start, 3)).toEqual(onPage4);
    expect(withPage(onPage4, -2).pageIndex).toBe(0);
    expect(withPage(onPage4, 3)).toBe(onPage4);
  });

  it('starts again from page 1 when the size, the sort or the search changes', () => {
    expect(withPageSize(onPage4, 100)).toEqual({ ...start, pageSize: 100 });
    expect(withSort(onPage4, 'team_name', false)).toEqual({ ...start, sort: 'team_name', desc: false });
    expect(withSort(onPage4, 'distance', false)).toEqual({ ...start, desc: false });
    expect(withSearch(onPage4, '  Põdrad ')).toEqual({ ...start, search: 'Põdrad' });
  });

  it('keeps the request (and its page) when nothing changed: no second read', () => {
    expect(withPageSize(onPage4, 50)).toBe(onPage4);
    expect(withSort(onPage4, 'distance', true)).toBe(onPage4);
    expect(withSearch(onPage4, '   ')).toBe(onPage4);
    const searched = { ...onPage4, search: 'Õun' };
    expect(withSearch(searched, 'Õun ')).toBe(searched);
  });

  it('trims the search and keeps its inner spaces', () => {
    expect(searchOf('  Mari  Mägi ')).toBe('Mari  Mägi');
  });
});

describe('the paged calls’ query', () => {
  it('numbers pages from 1, names the order, and sends q only for a search', () => {
    expect(toPageQuery(onPage4, SORTS, 'distance')).toEqual({ page: 4, size: 50, sort: 'distance', order: 'desc' });
    expect(toPageQuery({ ...start, sort: 'team_name', desc: false, search: 'Rõõmsad' }, SORTS, 'distance')).toEqual({
      page: 1, size: 50, sort: 'team_name', order: 'asc', q: 'Rõõmsad',
    });
  });

  it('never sends a sort the server does not know: the fallback instead', () => {
    expect(toPageQuery({ ...start, sort: 'icon' }, SORTS, 'distance').sort).toBe('distance');
  });

  it('encodes the values as UTF-8, a space as %20', () => {
    const query = toPageQuery({ ...onPage4, search: 'Tõnu Õun & co' }, SORTS, 'distance');
    expect(pageQueryString(query)).toBe('?page=4&size=50&sort=distance&order=desc&q=T%C3%B5nu%20%C3%95un%20%26%20co');
    expect(new URLSearchParams(pageQueryString(query)).get('q')).toBe('Tõnu Õun & co');
  });

  it('leaves out page and size for an export, and q without a search', () => {
    expect(pageQueryString(toPageQuery(onPage4, SORTS, 'distance'), false)).toBe('?sort=distance&order=desc');
  });
});

describe('the table state in the address', () => {
  const sizes = [10, 25, 50, 100];

  it('writes only what differs from the defaults, keeping the other keys', () => {
    expect(addressWithQuery('?tab=teams', start, start)).toBe('?tab=teams');
    const moved = { ...start, pageIndex: 1, sort: 'team_name', desc: false, search: 'Võru' };
    expect(addressWithQuery('?tab=teams&page=9', moved, start)).toBe('?tab=teams&page=2&sort=team_name&order=asc&q=V%C3%B5ru');
    expect(addressWithQuery('', start, start)).toBe('');
  });

  it('reads back what it wrote', () => {
    const moved = { ...start, pageIndex: 1, pageSize: 25, sort: 'team_name', desc: false, search: 'Võru' };
    expect(queryFromAddress(addressWithQuery('', moved, start), start, sizes)).toEqual(moved);
  });

  it('ignores what is malformed', () => {
    expect(queryFromAddress('?page=0&size=7&order=up&q=%20%20', start, sizes)).toEqual(start);
    expect(queryFromAddress('?page=1.5&sort=', start, sizes)).toEqual(start);
  });
});
