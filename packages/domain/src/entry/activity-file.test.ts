import { describe, expect, it } from 'vitest';
import type { ActivityFileUsed } from '../events';
import { EVENT_UPCASTERS } from '../events';
import { deciderSpec, testContext } from '../testing';
import { activityFileDecider, type UseActivityFile } from './activity-file';

const { given } = deciderSpec(activityFileDecider);
const now = '2025-04-10T09:00:00.000Z';
const sha256 = '0f'.repeat(32);
const use = (entryIds: number[], lastEntryLive = true): UseActivityFile => ({
  type: 'UseActivityFile',
  data: { sha256, format: 'gpx', entryIds, teamId: 1, participantId: 1, lastEntryLive },
});
const used = (entryIds: number[]): ActivityFileUsed => ({
  type: 'ActivityFileUsed',
  data: { sha256, format: 'gpx', entryIds, teamId: 1, participantId: 1, usedAt: now },
});

describe('UseActivityFile', () => {
  it('records the first use of a file', () => {
    given([]).when(use([7]), testContext({ now })).then([used([7])]);
  });

  it('records every entry of a file of several parts in one event', () => {
    given([]).when(use([7, 8, 9]), testContext({ now })).then([used([7, 8, 9])]);
    given([]).when(use([7, 8, 9]), testContext({ now })).thenState({ entryIds: [7, 8, 9] });
  });

  it('refuses a file with an entry still live with ACTIVITY_FILE_ALREADY_USED', () => {
    given([used([7])]).when(use([8], true), testContext({ now })).then('ACTIVITY_FILE_ALREADY_USED');
    given([used([7, 8])]).when(use([9, 10], true), testContext({ now })).then('ACTIVITY_FILE_ALREADY_USED');
  });

  it('refuses a use without entries', () => {
    given([]).when(use([]), testContext({ now })).then('INVALID_REQUEST');
  });

  it('lets a file be used again once its entries were deleted', () => {
    given([used([7, 8])]).when(use([9], false), testContext({ now })).then([used([9])]);
    given([used([7, 8])]).when(use([9], false), testContext({ now })).thenState({ entryIds: [9] });
  });
});

describe('ActivityFileUsed schema 1', () => {
  it('is upcast to the entries of schema 2: its one entry', () => {
    const upcaster = EVENT_UPCASTERS.find((u) => u.type === 'ActivityFileUsed' && u.fromVersion === 1)!;
    const v1 = { sha256, format: 'fit', entryId: 7, teamId: 1, participantId: 2, usedAt: now };
    expect(upcaster.upcast(v1)).toEqual({ sha256, format: 'fit', entryIds: [7], teamId: 1, participantId: 2, usedAt: now });
    expect(v1.entryId).toBe(7);
  });
});
