import { describe, expect, it } from 'vitest';
import { storyDate, tallinnDay } from './story-date';

describe('storyDate', () => {
  it('shows the day in Tallinn as DD-MMM-YYYY', () => {
    expect(storyDate('2025-05-04T09:00:00Z', 'en')).toBe('04-May-2025');
    expect(storyDate('2025-05-04T09:00:00Z', 'et')).toBe('04-mai-2025');
  });

  it('takes the Tallinn day, not the UTC day, near midnight', () => {
    // 22:30 UTC on 30 April is 01:30 on 1 May in Tallinn (UTC+3 in summer).
    expect(tallinnDay('2025-04-30T22:30:00Z')).toBe('2025-05-01');
    expect(storyDate('2025-01-15T22:30:00Z', 'en')).toBe('16-Jan-2025');
  });

  it('leaves an unreadable value as it is', () => {
    expect(storyDate('soon', 'et')).toBe('soon');
    expect(tallinnDay('soon')).toBeNull();
  });
});
