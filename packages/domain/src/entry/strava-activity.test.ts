import { describe, expect, it } from 'vitest';
import type { StravaActivitySynced } from '../events';
import { deciderSpec, testContext } from '../testing';
import { editedSinceSync, stravaActivityDecider, stravaEntryFields, type SyncStravaActivity } from './strava-activity';

const { given } = deciderSpec(stravaActivityDecider);
const now = '2025-04-10T09:00:00.000Z';
const activityId = 14_200_000_001;
const values = { distance: 5.12, entryType: 'OUTDOOR_RUN', performedAt: '2025-04-10' };
const sync = (entryId: number, lastEntryLive = true, changed: Partial<typeof values> = {}): SyncStravaActivity => ({
  type: 'SyncStravaActivity',
  data: { activityId, entryId, teamId: 1, participantId: 11, ...values, ...changed, lastEntryLive },
});
const synced = (entryId: number, changed: Partial<typeof values> = {}): StravaActivitySynced => ({
  type: 'StravaActivitySynced',
  data: { activityId, entryId, teamId: 1, participantId: 11, ...values, ...changed, syncedAt: now },
});

describe('SyncStravaActivity', () => {
  it('records the entry a new activity became, with what the sync wrote', () => {
    given([]).when(sync(7), testContext({ now })).then([synced(7)]);
    given([]).when(sync(7), testContext({ now })).thenState({ entryId: 7, synced: values });
  });

  it('refuses a second entry for an activity whose entry is live with ALREADY_EXISTS', () => {
    given([synced(7)]).when(sync(8, true), testContext({ now })).then('ALREADY_EXISTS');
  });

  it("records the sync's own edit of the entry it made", () => {
    given([synced(7)]).when(sync(7, true, { distance: 6 }), testContext({ now })).then([synced(7, { distance: 6 })]);
  });

  it('lets the activity count again once its entry was deleted', () => {
    given([synced(7)]).when(sync(8, false), testContext({ now })).then([synced(8)]);
  });
});

describe('editedSinceSync', () => {
  const state = { entryId: 7, synced: values };

  it('is false while the entry holds what the sync wrote (km compared in hundredths), and for an activity never synced', () => {
    expect(editedSinceSync(state, { distance: 5.12, entryType: 'OUTDOOR_RUN', performedAt: '2025-04-10' })).toBe(false);
    expect(editedSinceSync(state, { distance: 5.120000001, entryType: 'OUTDOOR_RUN', performedAt: '2025-04-10' })).toBe(false);
    expect(editedSinceSync({ entryId: null, synced: null }, { distance: 1, entryType: 'WALK', performedAt: '2025-04-01' })).toBe(false);
  });

  it('is true once the member changed the km, the type or the day', () => {
    expect(editedSinceSync(state, { ...values, distance: 5.2 })).toBe(true);
    expect(editedSinceSync(state, { ...values, entryType: 'WALK' })).toBe(true);
    expect(editedSinceSync(state, { ...values, performedAt: '2025-04-11' })).toBe(true);
  });
});

describe('stravaEntryFields', () => {
  it("takes km to two decimals from metres and the day from the athlete's local start", () => {
    // Strava writes start_date_local with a Z that means nothing: 23:30 on the 14th in Tallinn.
    expect(stravaEntryFields({ id: 1, distance: 3004.9, start_date: '2025-04-14T20:30:00Z', start_date_local: '2025-04-14T23:30:00Z' }))
      .toEqual({ distance: 3, performedAt: '2025-04-14', startedAt: '2025-04-14T20:30:00Z' });
    expect(stravaEntryFields({ id: 1, distance: 42195, start_date_local: '2025-04-20T09:00:00Z' })).toMatchObject({ distance: 42.2, performedAt: '2025-04-20' });
    expect(stravaEntryFields({ id: 1, distance: 5125, start_date_local: '2025-04-20T09:00:00Z' })).toMatchObject({ distance: 5.13 });
  });

  it('gives null for an activity without a distance or a start', () => {
    expect(stravaEntryFields({ id: 1, distance: 0, start_date_local: '2025-04-20T09:00:00Z' })).toBeNull();
    expect(stravaEntryFields({ id: 1, distance: 4, start_date_local: '2025-04-20T09:00:00Z' })).toBeNull();
    expect(stravaEntryFields({ id: 1, distance: null, start_date_local: '2025-04-20T09:00:00Z' })).toBeNull();
    expect(stravaEntryFields({ id: 1, distance: 5000 })).toBeNull();
  });
});
