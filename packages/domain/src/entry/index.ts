export { entryDecider, createEntryDecider, MAX_ENTRY_DISTANCE_KM, ENTRY_TYPE_MAX } from './decider';
export type { AddEntry, EditEntry, DeleteEntry, EntryCommand, EntryState, EntryStatus } from './decider';
export { activityFileDecider } from './activity-file';
export type { ActivityFileCommand, ActivityFileState, UseActivityFile } from './activity-file';
