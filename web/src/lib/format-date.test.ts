import { describe, expect, it } from 'vitest';
import { formatDay } from './format-date';

describe('formatDay', () => {
  it('writes Estonian days as DD.MM.YYYY', () => {
    expect(formatDay('2025-04-30', 'et')).toBe('30.04.2025');
    expect(formatDay('2025-04-01', 'et')).toBe('01.04.2025');
  });

  it('writes English days with the month name', () => {
    expect(formatDay('2025-04-30', 'en')).toBe('30 April 2025');
  });

  it('returns anything else unchanged', () => {
    expect(formatDay('', 'et')).toBe('');
    expect(formatDay('30.04.2025', 'en')).toBe('30.04.2025');
  });
});
