/**
 * The events of streams `entry-{id}` (entry/decider.ts, moderation.ts) and `activity-file-{sha256}`
 * (entry/activity-file.ts). The union of all events and their registry are in ../events.ts.
 * Units as in ../events.ts: distances in km, dates `YYYY-MM-DD` (Europe/Tallinn), instants ISO-8601 UTC.
 */

/** Preset entry types (spec §1). Anything else is free text entered under "Other". */
export const ACTIVITY_TYPES = [
  'OUTDOOR_RUN',
  'INDOOR_RUN',
  'WALK',
  'OUTDOOR_CYCLE',
  'INDOOR_CYCLE',
  'ROLLERSKATING',
  'SKIING',
  'SWIMMING',
  'GOLF',
  'DISCGOLF',
  'ASSISTIVE_DEVICE',
  'OTHER',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** Formats of activity files. */
export const ACTIVITY_FILE_FORMATS = ['gpx', 'tcx', 'fit'] as const;
export type ActivityFileFormat = (typeof ACTIVITY_FILE_FORMATS)[number];

/**
 * Where an entry's distance came from: typed in by hand, read from an activity file
 * identified by the SHA-256 of its bytes (64 lower-case hex digits), or synced from Strava
 * (Strava's activity id).
 */
export type EntrySource =
  | { kind: 'manual' }
  | { kind: 'file'; format: ActivityFileFormat; sha256: string }
  | { kind: 'strava'; activityId: number };

/**
 * Schema version 2 added `source`; version 1 events are read as version 2 with
 * `source: { kind: 'manual' }` (EVENT_UPCASTERS), as every entry before files was typed in.
 */
export interface EntryAdded {
  type: 'EntryAdded';
  data: {
    entryId: number;
    teamId: number;
    participantId: number;
    /** km, > 0, at most two decimals. */
    distance: number;
    /** A preset ActivityType key, or the free text typed under Other. */
    entryType: string;
    /** YYYY-MM-DD (edition time zone), inside the edition's April. */
    performedAt: string;
    /** ISO-8601 UTC. */
    createdAt: string;
    /** Typed in, or read from an activity file (schema version 2). */
    source: EntrySource;
  };
}
export interface EntryEdited {
  type: 'EntryEdited';
  data: {
    entryId: number;
    teamId: number;
    participantId: number;
    /** km, >= 0 (spec §5: editing allows 0), at most two decimals. */
    distance: number;
    entryType: string;
    performedAt: string;
    /** ISO-8601 UTC. */
    editedAt: string;
  };
}
export interface EntryDeleted {
  type: 'EntryDeleted';
  data: { entryId: number; teamId: number; participantId: number; deletedAt: string };
}
export type EntryEvent = EntryAdded | EntryEdited | EntryDeleted | EntryModerationEvent;

// ---- moderation -------------------------------------------------------------------------------------------

/** A moderation rule of edition.moderation (entry/moderation.ts). */
export type EntryModerationRule = 'MAX_KM_PER_ENTRY' | 'MAX_KM_PER_DAY' | 'DUPLICATE' | 'TEAM_DAY_OUTLIER';

/** Why an entry was flagged: the rule, its limit and the value found, km. */
export interface EntryFlagReason {
  rule: EntryModerationRule;
  /** km; null for DUPLICATE (no limit). */
  limit: number | null;
  /**
   * km: the entry's distance, the participant's day sum for MAX_KM_PER_DAY, or the team's km that
   * day per member for TEAM_DAY_OUTLIER (its limit: factor × the other teams' percentile, per member).
   */
  value: number;
  /** DUPLICATE only: the id of the live entry this one repeats. */
  duplicateOf?: number;
}

/**
 * An added or edited entry broke a moderation rule: appended in the same atomic append as its
 * EntryAdded/EntryEdited. The entry still counts; it awaits an administrator's decision.
 */
export interface EntryFlagged {
  type: 'EntryFlagged';
  data: { entryId: number; teamId: number; participantId: number; reasons: EntryFlagReason[]; flaggedAt: string };
}
/**
 * An administrator let a flagged entry stand. `decidedBy`: the administrator's account id (UUID),
 * also in the data (not only the metadata) so that read models rebuilt by a replay, which reads
 * no metadata, still show who decided. `note` may be ''.
 */
export interface EntryReviewApproved {
  type: 'EntryReviewApproved';
  data: { entryId: number; teamId: number; participantId: number; note: string; decidedBy: string; decidedAt: string };
}
/**
 * An administrator rejected a flagged entry: it leaves every total (team km, daily km, member km,
 * flowers) and stays on the team page as rejected. Final: the entry can then only be deleted.
 */
export interface EntryReviewRejected {
  type: 'EntryReviewRejected';
  data: { entryId: number; teamId: number; participantId: number; note: string; decidedBy: string; decidedAt: string };
}
export type EntryModerationEvent = EntryFlagged | EntryReviewApproved | EntryReviewRejected;

// ---- stream activity-file-{sha256} ----------------------------------------------------------------------

/**
 * An activity file's distance was logged as entries: one per part of the file (a sport of a
 * multi-sport file, a day of a file spanning several), appended in the same atomic append as
 * their EntryAdded events, with the stream's expected revision, so one file never counts twice at
 * once. The file is free again once every one of those entries is deleted (their streams say so;
 * no event here). Schema 2; schema 1 named one `entryId` and is upcast to `entryIds: [entryId]`.
 */
export interface ActivityFileUsed {
  type: 'ActivityFileUsed';
  data: {
    /** 64 lower-case hex digits, the SHA-256 of the file's bytes. */
    sha256: string;
    format: ActivityFileFormat;
    /** The entries the file's parts became, in the parts' order (at least one). */
    entryIds: number[];
    teamId: number;
    participantId: number;
    /** ISO-8601 UTC. */
    usedAt: string;
  };
}
export type ActivityFileEvent = ActivityFileUsed;

// ---- stream strava-activity-{activityId} ------------------------------------------------------------------

/**
 * A Strava activity was synced into an entry: appended with the entry's EntryAdded (a new entry)
 * or EntryEdited (Strava's update of it) in one atomic append, with the stream's expected
 * revision, so one activity never counts twice at once. Holds what the sync wrote (km, type,
 * day): an entry that no longer holds it was edited by its member (strava-activity.ts).
 */
export interface StravaActivitySynced {
  type: 'StravaActivitySynced';
  data: {
    /** Strava's activity id. */
    activityId: number;
    entryId: number;
    teamId: number;
    participantId: number;
    /** km, two decimals. */
    distance: number;
    entryType: string;
    /** YYYY-MM-DD. */
    performedAt: string;
    /** ISO-8601 UTC. */
    syncedAt: string;
  };
}
export type StravaActivityEvent = StravaActivitySynced;
