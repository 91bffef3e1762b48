/**
 * The Strava-activity aggregate (stream `strava-activity-{activityId}`) as a decider, and the pure
 * reading of a Strava activity as an entry's fields.
 *
 * One Strava activity (by Strava's activity id) counts for at most one live entry: its
 * StravaActivitySynced is appended in the same atomic append as the entry's EntryAdded (and again
 * with each EntryEdited the sync makes), at the revision the stream was read at, so two deliveries
 * of one webhook event, or a webhook event racing the backfill, cannot both add an entry. As with
 * activity files, a deleted entry frees its activity: the caller reads the last entry's stream and
 * says whether it is still live (no event here for a deletion).
 *
 * The event also keeps what the sync last wrote (km, type, day), so that an entry the member has
 * since edited by hand can be told apart: a Strava update then leaves it alone (decision 0095).
 */
import { match } from 'ts-pattern';
import type { Decider, DecisionContext } from '../decider';
import { DomainError } from '../errors';
import type { StravaActivityEvent, StravaActivitySynced } from '../events';

/** Record that an entry counts this Strava activity with these values (a new entry, or the sync's edit of it). */
export interface SyncStravaActivity {
  type: 'SyncStravaActivity';
  /** What the event records (the activity id a positive integer), but the time, which the decision's clock gives. */
  data: Omit<StravaActivitySynced['data'], 'syncedAt'> & {
    /**
     * Whether the entry that counts the activity now (StravaActivityState.entryId) is still live,
     * as the caller read its stream; ignored when the activity never counted or when `entryId` is
     * that same entry (the sync's own edit).
     */
    lastEntryLive: boolean;
  };
}
export type StravaActivityCommand = SyncStravaActivity;

export interface StravaActivityState {
  /** The entry that counts the activity (the last synced), or null when none ever did. */
  entryId: number | null;
  /** What the sync last wrote to that entry, or null. */
  synced: { distance: number; entryType: string; performedAt: string } | null;
}

/**
 * SyncStravaActivity → [StravaActivitySynced] (syncedAt = ctx.now).
 * @throws DomainError ALREADY_EXISTS when another live entry counts the activity already.
 */
export const stravaActivityDecider: Decider<StravaActivityCommand, StravaActivityEvent, StravaActivityState> = {
  initialState: () => ({ entryId: null, synced: null }),
  decide: (command, state, ctx: DecisionContext) => match(command)
    .with({ type: 'SyncStravaActivity' }, ({ data }) => {
      if (state.entryId !== null && state.entryId !== data.entryId && data.lastEntryLive) {
        throw new DomainError('ALREADY_EXISTS', `Strava activity ${data.activityId} counts for entry ${state.entryId}`);
      }
      const event: StravaActivitySynced = {
        type: 'StravaActivitySynced',
        data: {
          activityId: data.activityId, entryId: data.entryId, teamId: data.teamId, participantId: data.participantId,
          distance: data.distance, entryType: data.entryType, performedAt: data.performedAt, syncedAt: ctx.now,
        },
      };
      return [event];
    })
    .exhaustive(),
  evolve: (_state, event) => match(event)
    .with({ type: 'StravaActivitySynced' }, ({ data }) => ({
      entryId: data.entryId,
      synced: { distance: data.distance, entryType: data.entryType, performedAt: data.performedAt },
    }))
    .exhaustive(),
};

/**
 * True when the entry no longer holds what the sync last wrote to it: the member changed it by
 * hand (its km, type or day), and from then on it is theirs (decision 0095). False when the
 * activity never synced.
 */
export function editedSinceSync(state: StravaActivityState, entry: { distance: number | null; entryType: string | null; performedAt: string | null }): boolean {
  if (state.synced === null) return false;
  return Math.round(state.synced.distance * 100) !== Math.round((entry.distance ?? -1) * 100)
    || state.synced.entryType !== entry.entryType
    || state.synced.performedAt !== entry.performedAt;
}

/** The fields of Strava's DetailedActivity / SummaryActivity this reading uses (Strava API v3). */
export interface StravaActivityFields {
  id: number;
  /** metres (float). */
  distance?: number | null;
  /** The activity's start in the athlete's local time, ISO-8601 without a meaningful zone ("2026-04-03T07:12:00Z"). */
  start_date_local?: string | null;
  /** ISO-8601 UTC. */
  start_date?: string | null;
}

/**
 * An activity's km and day as an entry takes them: km = metres / 1000 rounded to 0.01 (spec §5:
 * two decimals); day = the date of `start_date_local` (the athlete's own calendar day, as the
 * watch shows it; Strava writes local time with a `Z` that means nothing). Null when the
 * activity has no distance (> 0) or no start.
 */
export function stravaEntryFields(activity: StravaActivityFields): { distance: number; performedAt: string; startedAt: string } | null {
  const metres = typeof activity.distance === 'number' && Number.isFinite(activity.distance) ? activity.distance : 0;
  const distance = Math.round(metres / 10) / 100;
  const local = activity.start_date_local ?? activity.start_date ?? null;
  if (!(distance > 0) || typeof local !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(local)) return null;
  return { distance, performedAt: local.slice(0, 10), startedAt: activity.start_date ?? local };
}
