/**
 * Reads one team's entry events from the event log for "what this did", through the EventStore's
 * filtered reads (either engine), never the whole log:
 * - the team's members: ParticipantRegistered by `teamId`;
 * - their entry streams: EntryAdded/EntryEdited by `participantId` (an edit moves an entry only
 *   within its team, so a team's entries are its members' — the rule the deletions' stream index
 *   relies on, packages/commands stream-index.ts);
 * - those streams' events.
 * On PostgreSQL the first two are the event store's partial expression indexes (its migration
 * 0003-payload-indexes), the last the (stream, revision) key.
 *
 * Entry events hold ids, km, types and dates, nothing personal, and never leave the server as
 * they are.
 */
import type { EventStore, RecordedEvent } from '@sinilill/event-store';
import { ENTRY_EVENTS } from './entry-fold';

/**
 * Every EntryAdded, EntryEdited and EntryDeleted of team `teamId`'s entries (deleted ones
 * included), in global order. Three filtered reads.
 */
export async function teamEntryEvents(log: Pick<EventStore, 'readEvents'>, teamId: number): Promise<RecordedEvent[]> {
  const members = await log.readEvents({ types: ['ParticipantRegistered'], data: [{ field: 'teamId', values: [teamId] }] });
  const participants = members.map((event) => (event.data as { participantId: number }).participantId);
  if (participants.length === 0) return [];
  const named = await log.readEvents({ types: ['EntryAdded', 'EntryEdited'], data: [{ field: 'participantId', values: participants }] });
  const streams = [...new Set(named.map((event) => event.stream))];
  if (streams.length === 0) return [];
  // An entry-{id} stream holds entry events only, but the fold takes exactly its own types.
  return log.readEvents({ streams, types: [...ENTRY_EVENTS] });
}
