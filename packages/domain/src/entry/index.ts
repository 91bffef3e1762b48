export { entryDecider, createEntryDecider, MAX_ENTRY_DISTANCE_KM, ENTRY_TYPE_MAX } from './decider';
export type { AddEntry, EditEntry, DeleteEntry, EntryCommand, EntryState, EntryStatus } from './decider';
