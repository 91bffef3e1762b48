import { describe, it } from 'vitest';
import type { ActivityFileUsed } from '../events';
import { deciderSpec, testContext } from '../testing';
import { activityFileDecider, type UseActivityFile } from './activity-file';

const { given } = deciderSpec(activityFileDecider);
const now = '2025-04-10T09:00:00.000Z';
const sha256 = '0f'.repeat(32);
const use = (entryId: number, lastEntryLive = true): UseActivityFile => ({
  type: 'UseActivityFile',
  data: { sha256, format: 'gpx', entryId, teamId: 1, participantId: 1, lastEntryLive },
});
const used = (entryId: number): ActivityFileUsed => ({
  type: 'ActivityFileUsed',
  data: { sha256, format: 'gpx', entryId, teamId: 1, participantId: 1, usedAt: now },
});

describe('UseActivityFile', () => {
  it('records the first use of a file', () => {
    given([]).when(use(7), testContext({ now })).then([used(7)]);
  });

  it('refuses a file whose entry is live with ACTIVITY_FILE_ALREADY_USED', () => {
    given([used(7)]).when(use(8, true), testContext({ now })).then('ACTIVITY_FILE_ALREADY_USED');
  });

  it('lets a file be used again once its entry was deleted', () => {
    given([used(7)]).when(use(8, false), testContext({ now })).then([used(8)]);
    given([used(7)]).when(use(8, false), testContext({ now })).thenState({ entryId: 8 });
  });
});
