/**
 * Activity files: GPX, TCX and FIT files recorded by a watch or a phone, read as the watch reads
 * them into proposed entries, one per sport and local day (distance in km to 0.01, the day in the
 * edition's zone, the entry type from the file's sport), each with a simplified track for a small
 * map. Pure parsing, no I/O (docs/decisions/0092).
 */
export { DEFAULT_ACTIVITY_TIME_ZONE, MAX_ACTIVITY_FILE_BYTES, MAX_TRACK_POINTS, readActivityFile, thin, type ActivityFileProposal, type ActivityPart } from './read';
export { mapActivityType } from './sport';
