/**
 * Pure folds over events read from the log for the administrators' history: the
 * audit view of one event, the per-field changes along a stream, and a team's figures as of an
 * instant. No I/O here; the routes read the events (history-query.ts) and hand them in.
 */
import type { FieldChange, HistoryActor, HistoryEvent, TeamAsOfAnswer, TimelineAnswer } from '@sinilill/contracts';
import {
  dispatchRecorded,
  fromHundredths,
  handledTypes,
  roundedKm,
  teamProgress,
  type Edition,
  type EntryEvent,
  type EventHandlers,
  type ParticipantDeleted,
  type ParticipantRegistered,
  type TeamRegistered,
  type TeamRenamed,
} from '@sinilill/domain';
import type { RecordedEvent } from '@sinilill/event-store';
import { TeamEntriesFold } from './entry-fold';

/**
 * The metadata an audit shows, read defensively: events written before docs/decisions/0007 (or by hand) may lack
 * parts of it, and an audit must show such an event rather than fail on it.
 */
function auditMetadata(event: RecordedEvent): { actor: HistoryActor; correlationId: string | null; causationId: string | null } {
  const metadata = (event.metadata ?? {}) as Partial<RecordedEvent['metadata']>;
  const actor = metadata.actor && typeof metadata.actor === 'object'
    ? { userId: metadata.actor.userId ?? null, role: String(metadata.actor.role) }
    : null;
  return { actor, correlationId: metadata.correlationId ?? null, causationId: metadata.causationId ?? null };
}

/** An event as GET /api/admin/history answers it (instants ISO-8601 UTC). */
export function toHistoryEvent(event: RecordedEvent): HistoryEvent {
  return {
    position: event.globalPosition,
    stream: event.stream,
    revision: event.revision,
    type: event.type,
    data: event.data,
    ...auditMetadata(event),
    recordedAt: event.recordedAt.toISOString(),
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Each event of one stream (in revision order) with the fields it changed against the state
 * folded from the events before it: a field's value is the last value any earlier event of the
 * stream gave it. Only fields present in an event's data count (partial events, such as
 * TeamPublicAttributesChanged, carry only what changed); a field never seen before has `before`
 * null; a field written with its current value is no change. Key order follows the event's data.
 */
export function timeline(events: readonly RecordedEvent[]): TimelineAnswer {
  const state = new Map<string, unknown>();
  return events.map((event) => {
    const changes: FieldChange[] = [];
    const data = typeof event.data === 'object' && event.data !== null && !Array.isArray(event.data)
      ? (event.data as Record<string, unknown>)
      : {};
    for (const [field, after] of Object.entries(data)) {
      const before = state.has(field) ? state.get(field) : null;
      if (!state.has(field) || !same(before, after)) changes.push({ field, before, after });
      state.set(field, after);
    }
    const { actor, correlationId } = auditMetadata(event);
    return { position: event.globalPosition, type: event.type, recordedAt: event.recordedAt.toISOString(), actor, correlationId, changes };
  });
}

/** The events teamAsOf folds. */
type TeamAsOfEvent = TeamRegistered | TeamRenamed | ParticipantRegistered | ParticipantDeleted | EntryEvent;

interface TeamAsOfFold {
  teamId: number;
  teamName: string | null;
  /** participant id → team id. */
  members: Map<number, number>;
  entries: TeamEntriesFold;
}

const entry = (event: EntryEvent, fold: TeamAsOfFold) => {
  fold.entries.apply(event);
};

/** What each event does to teamAsOf's fold; entry events go to the entry ledger (TeamEntriesFold). */
export const teamAsOfHandlers: EventHandlers<TeamAsOfEvent, [TeamAsOfFold]> = {
  TeamRegistered: ({ data }, fold) => {
    if (data.teamId === fold.teamId) fold.teamName = data.teamName;
  },
  TeamRenamed: ({ data }, fold) => {
    if (data.teamId === fold.teamId) fold.teamName = data.teamName;
  },
  ParticipantRegistered: ({ data }, fold) => {
    fold.members.set(data.participantId, data.teamId);
  },
  ParticipantDeleted: ({ data }, fold) => {
    fold.members.delete(data.participantId);
  },
  EntryAdded: entry,
  EntryEdited: entry,
  EntryDeleted: entry,
  EntryFlagged: entry,
  EntryReviewApproved: entry,
  EntryReviewRejected: entry,
};

/** The event types teamAsOf folds; reading others for it is wasted work. */
export const TEAM_AS_OF_EVENTS = handledTypes(teamAsOfHandlers);

/**
 * A team's figures from the events recorded up to `at` (the caller reads only those): its name
 * (TeamRegistered, TeamRenamed), its members (ParticipantRegistered minus ParticipantDeleted) and
 * its entries (the entry ledger's counting entries naming the team — not deleted, not rejected
 * by then: TeamEntriesFold, shared with "what this did"). As of: a rejection recorded after `at`
 * was not yet made, so the entry counts in figures as of before it (docs/decisions/0069). Distances are summed in hundredths and rounded
 * as spec §4 says; the progress figures come from teamProgress, as the team-stats read model's do.
 *
 * @param events the team's, its members' and its entries' events in global order; other teams'
 *   events are ignored.
 * @returns null when the team was not registered by then.
 * @throws DomainError('INVALID_DISTANCE') for an entry distance with more than two decimals.
 */
export function teamAsOf(teamId: number, at: Date, events: readonly RecordedEvent[], edition: Edition): TeamAsOfAnswer | null {
  const fold: TeamAsOfFold = { teamId, teamName: null, members: new Map(), entries: new TeamEntriesFold(teamId) };
  for (const event of events) dispatchRecorded(teamAsOfHandlers, event, fold);
  const { teamName, members, entries } = fold;
  if (teamName === null) return null;
  const hundredths = entries.hundredths;
  const distance = roundedKm(hundredths);
  const progress = teamProgress(distance, edition);
  return {
    teamId,
    teamName,
    at: at.toISOString(),
    participants: [...members.values()].filter((team) => team === teamId).length,
    distance,
    distanceExact: fromHundredths(hundredths),
    prestige: progress.prestige,
    inLapDistance: progress.inLapDistance,
    blueFlowers: progress.blueFlowers,
  };
}
