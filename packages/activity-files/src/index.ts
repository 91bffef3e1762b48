/**
 * Activity files: GPX, TCX and FIT files recorded by a watch or a phone, read
 * into a proposed entry (distance in km to 0.01, the day in Europe/Tallinn, the entry type from
 * the file's sport) and a simplified track for a small map. Pure parsing, no I/O.
 */
export { DEFAULT_ACTIVITY_TIME_ZONE, MAX_ACTIVITY_FILE_BYTES, MAX_TRACK_POINTS, readActivityFile, thin, type ActivityFileProposal } from './read';
export { mapActivityType } from './sport';
