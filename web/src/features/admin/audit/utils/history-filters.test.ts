import { describe, expect, it } from 'vitest';
import { checkFilters, EMPTY_FILTERS, historyFilterQuery, historySearch, isEntityId, type HistoryFilterValues } from './history-filters';

const filters = (values: Partial<HistoryFilterValues>): HistoryFilterValues => ({ ...EMPTY_FILTERS, ...values });

describe('checkFilters', () => {
  it('finds nothing wrong with an empty form', () => {
    expect(checkFilters(EMPTY_FILTERS)).toEqual({});
  });

  it('wants positive integer ids', () => {
    expect(checkFilters(filters({ teamId: '12', participantId: ' 34 ' }))).toEqual({});
    expect(checkFilters(filters({ teamId: '0', participantId: 'x1' }))).toEqual({ teamId: 'invalidId', participantId: 'invalidId' });
    expect(checkFilters(filters({ teamId: '-3' })).teamId).toBe('invalidId');
    expect(checkFilters(filters({ teamId: '1.5' })).teamId).toBe('invalidId');
  });

  it('wants an event type name', () => {
    expect(checkFilters(filters({ eventType: 'EntryEdited' }))).toEqual({});
    expect(checkFilters(filters({ eventType: 'Entry Edited' })).eventType).toBe('invalidEventType');
  });

  it('wants readable date-times, from before to', () => {
    expect(checkFilters(filters({ from: '2025-04-01T00:00', to: '2025-05-01T00:00' }))).toEqual({});
    expect(checkFilters(filters({ from: 'soon' })).from).toBe('invalidDateTime');
    expect(checkFilters(filters({ from: '2025-04-10T00:00', to: '2025-04-10T00:00' })).to).toBe('rangeOrder');
    expect(checkFilters(filters({ from: '2025-04-11T00:00', to: '2025-04-10T00:00' })).to).toBe('rangeOrder');
  });

  it('refuses over-long streams and actors', () => {
    expect(checkFilters(filters({ stream: 'x'.repeat(201), actor: 'y'.repeat(101) }))).toEqual({ stream: 'tooLong', actor: 'tooLong' });
  });
});

describe('historyFilterQuery', () => {
  it('is empty for an empty form', () => {
    expect(historyFilterQuery(EMPTY_FILTERS)).toEqual({});
  });

  it('renames the fields to the query names and trims them', () => {
    expect(historyFilterQuery(filters({
      stream: ' entry-12 ', entityType: 'entry', teamId: '3', participantId: '44', eventType: 'EntryEdited', actor: 'user-11',
    }))).toEqual({ stream: 'entry-12', entity: 'entry', team: '3', participant: '44', type: 'EntryEdited', actor: 'user-11' });
  });

  it('sends Tallinn wall-clock times as UTC instants', () => {
    expect(historyFilterQuery(filters({ from: '2025-04-12T14:03', to: '2025-04-13T00:00' }))).toEqual({
      from: '2025-04-12T11:03:00.000Z', to: '2025-04-12T21:00:00.000Z',
    });
  });

  it('leaves out what checkFilters refuses and an unknown entity', () => {
    expect(historyFilterQuery(filters({ teamId: 'abc', entityType: 'planet', from: 'soon' }))).toEqual({});
  });
});

describe('historySearch', () => {
  it('writes the filters with the page keys', () => {
    expect(historySearch({ entity: 'team', from: '2025-04-12T11:03:00.000Z' }, { after: '40', limit: '50' }))
      .toBe('?entity=team&from=2025-04-12T11%3A03%3A00.000Z&after=40&limit=50');
  });

  it('writes an export format', () => {
    expect(historySearch({ type: 'EntryAdded' }, { format: 'csv' })).toBe('?type=EntryAdded&format=csv');
  });

  it('is empty when there is nothing to send', () => {
    expect(historySearch({})).toBe('');
  });
});

describe('isEntityId', () => {
  it('takes what the contract takes', () => {
    expect(isEntityId('1')).toBe(true);
    expect(isEntityId('1234567890')).toBe(true);
    expect(isEntityId('12345678901')).toBe(false);
    expect(isEntityId('007')).toBe(false);
    expect(isEntityId('')).toBe(false);
  });
});
