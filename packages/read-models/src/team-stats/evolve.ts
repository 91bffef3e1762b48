/**
 * team-stats' pure fold: events → team figures, per-day distances and the entry ledger.
 * The working set is loaded by the projection; `evolveTeamStats` mutates it in memory (no I/O),
 * and `deriveTeamFigures` applies the progress rules of spec §4 to a team's exact distance.
 * What an entry event does to an entry's km comes from the domain's entry ledger
 * (evolveEntryCount); what an entry counted for before a batch is read from the log by the
 * projection (projection.ts), not kept in a table.
 */
import type { RecordedEvent } from '@sinilill/event-store';
import { YEAR_OF_EVENTS_BEFORE_EDITIONS } from '@sinilill/domain/seed';
import {
  blueFlowers,
  dispatchRecorded,
  evolveEntryCount,
  handledTypes,
  inLapDistance,
  prestige,
  roundedKm,
  sameCount,
  type CountedEntry,
  type Edition,
  type EntryEvent,
  type EventHandlers,
  type ParticipantDeleted,
  type ParticipantRegistered,
  type TeamDeleted,
  type TeamPublicAttributesChanged,
  type TeamRegistered,
  type TeamRenamed,
} from '@sinilill/domain';

export interface TeamFigures {
  teamId: number;
  /** The team's edition (TeamRegistered.edition): whose route its figures follow. */
  edition: number;
  teamName: string;
  icon: string | null;
  description: string;
  createdAt: string;
  distanceHundredths: number;
  participants: number;
}

/** What one counting entry counts for (the domain ledger's CountedEntry). */
export type LedgerRow = CountedEntry;

/** The rows a batch touches, keyed by id; `null` in `ledger` marks an entry removed in this batch. */
export interface TeamStatsWorkingSet {
  teams: Map<number, TeamFigures>;
  ledger: Map<number, LedgerRow | null>;
  /** Change of km per `${teamId}|${day}`, hundredths (added to the stored value). */
  dailyDelta: Map<string, number>;
  /** Teams whose figures changed. */
  changedTeams: Set<number>;
  /**
   * Teams deleted in this batch: their rows, daily km and ledger go, and later events of the
   * same deletion (the members' ParticipantDeleted, the entries' EntryDeleted) must not bring
   * a placeholder row back.
   */
  deletedTeams: Set<number>;
}

/** A working set with nothing loaded (the projection fills it before folding). */
export function emptyWorkingSet(): TeamStatsWorkingSet {
  return { teams: new Map(), ledger: new Map(), dailyDelta: new Map(), changedTeams: new Set(), deletedTeams: new Set() };
}

function team(set: TeamStatsWorkingSet, teamId: number): TeamFigures {
  let row = set.teams.get(teamId);
  if (!row) {
    // An entry for a team this read model has not seen: keep its km rather than drop them. Every
    // team registered since editions are data has its row from its TeamRegistered, so an unseen
    // team is one of the log from before them.
    row = { teamId, edition: YEAR_OF_EVENTS_BEFORE_EDITIONS, teamName: '', icon: null, description: '', createdAt: new Date(0).toISOString(), distanceHundredths: 0, participants: 0 };
    set.teams.set(teamId, row);
  }
  set.changedTeams.add(teamId);
  return row;
}

function addDaily(set: TeamStatsWorkingSet, teamId: number, day: string, hundredths: number): void {
  const key = `${teamId}|${day}`;
  set.dailyDelta.set(key, (set.dailyDelta.get(key) ?? 0) + hundredths);
}

function unbook(set: TeamStatsWorkingSet, entryId: number): void {
  const old = set.ledger.get(entryId);
  if (!old) return;
  if (set.deletedTeams.has(old.teamId)) {
    // The team's km left with the team; only the ledger row still has to go.
    set.ledger.set(entryId, null);
    return;
  }
  team(set, old.teamId).distanceHundredths -= old.hundredths;
  addDaily(set, old.teamId, old.day, -old.hundredths);
  set.ledger.set(entryId, null);
}

function book(set: TeamStatsWorkingSet, entry: LedgerRow): void {
  team(set, entry.teamId).distanceHundredths += entry.hundredths;
  addDaily(set, entry.teamId, entry.day, entry.hundredths);
  set.ledger.set(entry.entryId, entry);
}

/**
 * An entry event: the domain's ledger says what the entry counts for after it; the team's km and
 * its days' km follow the difference. A rejected entry leaves them as a deleted one does.
 */
function rebook(event: EntryEvent, set: TeamStatsWorkingSet): void {
  const before = set.ledger.get(event.data.entryId) ?? null;
  const after = evolveEntryCount(before, event);
  if (sameCount(before, after)) return;
  unbook(set, event.data.entryId);
  if (after) book(set, after);
}

/** The events team-stats folds. */
export type TeamStatsEvent =
  | TeamRegistered
  | TeamPublicAttributesChanged
  | TeamRenamed
  | TeamDeleted
  | ParticipantRegistered
  | ParticipantDeleted
  | EntryEvent;

/** What each event does to the working set: one handler per type (a new event type of these unions must be named here). */
export const teamStatsHandlers: EventHandlers<TeamStatsEvent, [TeamStatsWorkingSet]> = {
  TeamRegistered: ({ data }, set) => {
    set.deletedTeams.delete(data.teamId);
    const row = team(set, data.teamId);
    row.edition = data.edition;
    row.teamName = data.teamName;
    row.icon = data.icon;
    row.description = data.description;
    row.createdAt = data.registeredAt;
  },
  TeamPublicAttributesChanged: ({ data }, set) => {
    // Only the fields that changed are present; icon null means "removed" (spec §7).
    const row = team(set, data.teamId);
    if (data.icon !== undefined) row.icon = data.icon;
    if (data.description !== undefined) row.description = data.description;
  },
  TeamRenamed: ({ data }, set) => {
    if (set.deletedTeams.has(data.teamId)) return;
    team(set, data.teamId).teamName = data.teamName;
  },
  TeamDeleted: ({ data }, set) => {
    const teamId = data.teamId;
    set.teams.delete(teamId);
    set.changedTeams.delete(teamId);
    set.deletedTeams.add(teamId);
    for (const key of [...set.dailyDelta.keys()]) if (key.startsWith(`${teamId}|`)) set.dailyDelta.delete(key);
    for (const [entryId, entry] of set.ledger) if (entry?.teamId === teamId) set.ledger.set(entryId, null);
  },
  ParticipantRegistered: ({ data }, set) => {
    team(set, data.teamId).participants += 1;
  },
  ParticipantDeleted: ({ data }, set) => {
    // Only a team the model knows: a member of a team deleted earlier has nothing to undo.
    const row = set.teams.get(data.teamId);
    if (!row || set.deletedTeams.has(data.teamId)) return;
    row.participants = Math.max(0, row.participants - 1);
    set.changedTeams.add(row.teamId);
  },
  EntryAdded: rebook,
  EntryEdited: rebook,
  EntryDeleted: rebook,
  EntryFlagged: rebook,
  EntryReviewApproved: rebook,
  EntryReviewRejected: rebook,
};

/** The event types team-stats folds (the keys of teamStatsHandlers). */
export const TEAM_STATS_EVENTS = handledTypes(teamStatsHandlers);

/**
 * Folds one event into the working set (events of other types are ignored).
 * @throws DomainError('INVALID_DISTANCE') for an entry distance with more than two decimals.
 */
export function evolveTeamStats(set: TeamStatsWorkingSet, recorded: RecordedEvent): void {
  dispatchRecorded(teamStatsHandlers, recorded, set);
}

/**
 * The public figures of a team from its exact distance (spec §4: rounded km, prestige, flowers)
 * on the route and flower rules of `edition`, the team's own.
 */
export function deriveTeamFigures(distanceHundredths: number, edition: Edition) {
  const distance = roundedKm(distanceHundredths);
  return {
    distance,
    prestige: prestige(distance, edition.route),
    inLapDistance: inLapDistance(distance, edition.route),
    blueFlowers: blueFlowers(distance, edition),
  };
}
