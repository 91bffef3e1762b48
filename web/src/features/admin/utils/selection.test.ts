import { describe, expect, it } from 'vitest';
import { selectedRowsAfter, selectionState } from './selection';

interface Row {
  id: number;
  name: string;
}
const rowId = (row: Row) => String(row.id);
const page1: Row[] = [{ id: 1, name: 'Kaja' }, { id: 2, name: 'Anu' }];
const page2: Row[] = [{ id: 3, name: 'Tõnu' }, { id: 4, name: 'Ülle' }];

describe('selection across pages', () => {
  it('keeps rows selected on an earlier page while another page is shown', () => {
    const first = selectedRowsAfter(new Map(), { '2': true }, page1, rowId);
    const both = selectedRowsAfter(first, { '2': true, '3': true }, page2, rowId);
    expect([...both.values()]).toEqual([{ id: 2, name: 'Anu' }, { id: 3, name: 'Tõnu' }]);
    expect(selectionState(both)).toEqual({ '2': true, '3': true });
  });

  it('drops a row the table unselected, and ids that were never listed', () => {
    const kept = selectedRowsAfter(new Map([['2', page1[1]!], ['3', page2[0]!]]), { '2': true, '99': true }, page2, rowId);
    expect([...kept.keys()]).toEqual(['2']);
  });

  it('takes the listed row when the page has a fresher one (a renamed person)', () => {
    const kept = selectedRowsAfter(new Map([['1', page1[0]!]]), { '1': true }, [{ id: 1, name: 'Kaja Kask' }], rowId);
    expect(kept.get('1')?.name).toBe('Kaja Kask');
  });

  it('an empty selection clears everything', () => {
    expect(selectedRowsAfter(new Map([['1', page1[0]!]]), {}, page1, rowId).size).toBe(0);
    expect(selectionState(new Map())).toEqual({});
  });
});
