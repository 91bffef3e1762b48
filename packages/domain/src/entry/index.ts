export { entryDecider, createEntryDecider, MAX_ENTRY_DISTANCE_KM, ENTRY_TYPE_MAX, REVIEW_NOTE_MAX } from './decider';
export type { AddEntry, EditEntry, DeleteEntry, EntryCommand, EntryReviewStatus, EntryState, EntryStatus, ReviewEntry } from './decider';
export { activityFileDecider } from './activity-file';
export type { ActivityFileCommand, ActivityFileState, UseActivityFile } from './activity-file';
export { editedSinceSync, stravaActivityDecider, stravaEntryFields } from './strava-activity';
export type { StravaActivityCommand, StravaActivityFields, StravaActivityState, SyncStravaActivity } from './strava-activity';
export { MODERATION_RULES, moderationReasons, nearestRank, teamDayOutlierReason } from './moderation';
export type { FlagReason, ModeratedEntry, TeamDay } from './moderation';
export { dispatch, dispatchRecorded, handledTypes } from './event-handlers';
export type { EventHandlers } from './event-handlers';
export {
  ENTRY_EVENT_TYPES,
  EntryLedger,
  asEntryEvent,
  countOf,
  countedHundredths,
  entryLedgerHandlers,
  evolveEntryCount,
  evolveLedgerEntry,
  isEntryEventType,
  sameCount,
} from './ledger';
export type { CountedEntry, EntryEventType, LedgerChange, LedgerEntry } from './ledger';
