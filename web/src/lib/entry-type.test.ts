import { ACTIVITY_TYPES } from '@sinilill/domain';
import { describe, expect, it } from 'vitest';
import { entryTypeChoice, entryTypeLabel, entryTypeValue, isPresetType } from './entry-type';

const label = (type: string) => `label:${type}`;

describe('entry types', () => {
  it('knows the twelve presets', () => {
    expect(ACTIVITY_TYPES).toHaveLength(12);
    for (const type of ACTIVITY_TYPES) expect(isPresetType(type)).toBe(true);
    expect(isPresetType('walk')).toBe(false);
    expect(isPresetType('Jooga')).toBe(false);
  });

  it('shows a preset by its label and free text as typed', () => {
    expect(entryTypeLabel('WALK', label)).toBe('label:WALK');
    expect(entryTypeLabel('OTHER', label)).toBe('label:OTHER');
    expect(entryTypeLabel('  Jooga ', label)).toBe('Jooga');
    expect(entryTypeLabel('', label)).toBe('label:OTHER');
  });

  it('opens a stored type in the form: a preset as itself, anything else as OTHER + the text', () => {
    expect(entryTypeChoice('SKIING')).toEqual({ choice: 'SKIING', otherText: '' });
    expect(entryTypeChoice('Jooga')).toEqual({ choice: 'OTHER', otherText: 'Jooga' });
    expect(entryTypeChoice('OTHER')).toEqual({ choice: 'OTHER', otherText: '' });
  });

  it('sends the preset key, or the free text for OTHER', () => {
    expect(entryTypeValue('SWIMMING', 'ignored')).toBe('SWIMMING');
    expect(entryTypeValue('OTHER', '  Sõudmine ')).toBe('Sõudmine');
  });
});
