import { describe, expect, it } from 'vitest';
import { actorView, formatChange, formatValue, humanizeField, MAX_VALUE_LENGTH, NO_VALUE, summarizeData } from './diff';

describe('formatValue', () => {
  it('writes numbers, booleans and strings as the log holds them', () => {
    expect(formatValue(40.25)).toBe('40.25');
    expect(formatValue(0)).toBe('0');
    expect(formatValue(true)).toBe('true');
    expect(formatValue('WALK')).toBe('WALK');
  });

  it('marks missing and empty values', () => {
    expect(formatValue(null)).toBe(NO_VALUE);
    expect(formatValue(undefined)).toBe(NO_VALUE);
    expect(formatValue('')).toBe('""');
  });

  it('writes objects as compact JSON and cuts long values', () => {
    expect(formatValue({ teams: 2, distance: 12.5 })).toBe('{"teams":2,"distance":12.5}');
    const icon = `data:image/png;base64,${'A'.repeat(500)}`;
    const shown = formatValue(icon);
    expect(shown).toHaveLength(MAX_VALUE_LENGTH);
    expect(shown.endsWith('…')).toBe(true);
  });
});

describe('formatChange', () => {
  it('writes field: before → after', () => {
    expect(formatChange({ field: 'distance', before: 40.25, after: 25.5 })).toBe('distance: 40.25 → 25.5');
    expect(formatChange({ field: 'distance', before: null, after: 5 })).toBe('distance: — → 5');
    expect(formatChange({ field: 'description', before: 'Old', after: '' })).toBe('description: Old → ""');
  });
});

describe('field labels', () => {
  it('a label function names the fields of a change and a summary', () => {
    const label = (field: string) => ({ distance: 'Distants', entryType: 'Tüüp' })[field] ?? humanizeField(field);
    expect(formatChange({ field: 'entryType', before: 'WALK', after: 'Kepikõnd' }, label)).toBe('Tüüp: WALK → Kepikõnd');
    expect(summarizeData({ distance: 5, entryType: 'WALK', someNewField: 1 }, 160, label)).toBe('Distants: 5 · Tüüp: WALK · Some new field: 1');
  });

  it('an untranslated field reads as words', () => {
    expect(humanizeField('entryType')).toBe('Entry type');
    expect(humanizeField('entry_type')).toBe('Entry type');
    expect(humanizeField('subject_et')).toBe('Subject et');
    expect(humanizeField('x')).toBe('X');
  });
});

describe('summarizeData', () => {
  it('lists the fields in the data\'s order', () => {
    expect(summarizeData({ entryId: 7, distance: 5, entryType: 'WALK' })).toBe('entryId: 7 · distance: 5 · entryType: WALK');
  });

  it('cuts a long summary', () => {
    const summary = summarizeData({ a: 'x'.repeat(30), b: 'y'.repeat(30), c: 'z'.repeat(30) }, 50);
    expect(summary).toHaveLength(50);
    expect(summary.endsWith('…')).toBe(true);
  });

  it('shows data that is not an object as one value', () => {
    expect(summarizeData(null)).toBe(NO_VALUE);
    expect(summarizeData({})).toBe(NO_VALUE);
    expect(summarizeData([1, 2])).toBe('[1,2]');
  });
});

describe('actorView', () => {
  it('tells the system, a user and nobody apart', () => {
    expect(actorView(null)).toEqual({ kind: 'none' });
    expect(actorView({ userId: null, role: 'SYSTEM' })).toEqual({ kind: 'system', role: 'SYSTEM' });
    expect(actorView({ userId: 'user-11', role: 'USER' })).toEqual({ kind: 'user', userId: 'user-11', role: 'USER' });
  });
});
