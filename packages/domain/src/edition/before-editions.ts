/**
 * The year of every event stored before editions were data: the application ran only the 2025
 * edition then, so a schema-1 TeamRegistered or ParticipantRegistered is upcast to it
 * (../events.ts EVENT_UPCASTERS). A fact about the log's history, not an edition's rule.
 */
export const YEAR_OF_EVENTS_BEFORE_EDITIONS = 2025;
