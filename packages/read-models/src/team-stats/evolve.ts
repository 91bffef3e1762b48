/**
 * team-stats' pure fold: events → team figures, per-day distances and the entry ledger.
 * The working set is loaded by the projection; `evolveTeamStats` mutates it in memory (no I/O),
 * and `deriveTeamFigures` applies the progress rules of spec §4 to a team's exact distance.
 */
import type { RecordedEvent } from '@sinilill/event-store';
import {
  blueFlowers,
  currentEdition,
  inLapDistance,
  prestige,
  roundedKm,
  toHundredths,
  type DomainEvent,
  type Edition,
} from '@sinilill/domain';

export interface TeamFigures {
  teamId: number;
  teamName: string;
  icon: string | null;
  description: string;
  createdAt: string;
  distanceHundredths: number;
  participants: number;
}

export interface LedgerEntry {
  entryId: number;
  teamId: number;
  participantId: number;
  distanceHundredths: number;
  performedAt: string;
}

/** The rows a batch touches, keyed by id; `null` in `ledger` marks an entry removed in this batch. */
export interface TeamStatsWorkingSet {
  teams: Map<number, TeamFigures>;
  ledger: Map<number, LedgerEntry | null>;
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

export const TEAM_STATS_EVENTS = [
  'TeamRegistered',
  'TeamPublicAttributesChanged',
  'TeamRenamed',
  'TeamDeleted',
  'ParticipantRegistered',
  'ParticipantDeleted',
  'EntryAdded',
  'EntryEdited',
  'EntryDeleted',
  'EntryReviewRejected',
] as const;

/** A working set with nothing loaded (the projection fills it before folding). */
export function emptyWorkingSet(): TeamStatsWorkingSet {
  return { teams: new Map(), ledger: new Map(), dailyDelta: new Map(), changedTeams: new Set(), deletedTeams: new Set() };
}

function team(set: TeamStatsWorkingSet, teamId: number): TeamFigures {
  let row = set.teams.get(teamId);
  if (!row) {
    // An entry for a team this read model has not seen: keep its km rather than drop them.
    row = { teamId, teamName: '', icon: null, description: '', createdAt: new Date(0).toISOString(), distanceHundredths: 0, participants: 0 };
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
  team(set, old.teamId).distanceHundredths -= old.distanceHundredths;
  addDaily(set, old.teamId, old.performedAt, -old.distanceHundredths);
  set.ledger.set(entryId, null);
}

function book(set: TeamStatsWorkingSet, entry: LedgerEntry): void {
  team(set, entry.teamId).distanceHundredths += entry.distanceHundredths;
  addDaily(set, entry.teamId, entry.performedAt, entry.distanceHundredths);
  set.ledger.set(entry.entryId, entry);
}

/** Folds one event into the working set (events of other types are ignored). */
export function evolveTeamStats(set: TeamStatsWorkingSet, recorded: RecordedEvent): void {
  const event = { type: recorded.type, data: recorded.data } as DomainEvent;
  switch (event.type) {
    case 'TeamRegistered': {
      set.deletedTeams.delete(event.data.teamId);
      const row = team(set, event.data.teamId);
      row.teamName = event.data.teamName;
      row.icon = event.data.icon;
      row.description = event.data.description;
      row.createdAt = event.data.registeredAt;
      return;
    }
    case 'TeamPublicAttributesChanged': {
      // Only the fields that changed are present; icon null means "removed" (spec §7).
      const row = team(set, event.data.teamId);
      if (event.data.icon !== undefined) row.icon = event.data.icon;
      if (event.data.description !== undefined) row.description = event.data.description;
      return;
    }
    case 'TeamRenamed': {
      if (set.deletedTeams.has(event.data.teamId)) return;
      team(set, event.data.teamId).teamName = event.data.teamName;
      return;
    }
    case 'TeamDeleted': {
      const teamId = event.data.teamId;
      set.teams.delete(teamId);
      set.changedTeams.delete(teamId);
      set.deletedTeams.add(teamId);
      for (const key of [...set.dailyDelta.keys()]) if (key.startsWith(`${teamId}|`)) set.dailyDelta.delete(key);
      for (const [entryId, entry] of set.ledger) if (entry?.teamId === teamId) set.ledger.set(entryId, null);
      return;
    }
    case 'ParticipantRegistered':
      team(set, event.data.teamId).participants += 1;
      return;
    case 'ParticipantDeleted': {
      // Only a team the model knows: a member of a team deleted earlier has nothing to undo.
      const row = set.teams.get(event.data.teamId);
      if (!row || set.deletedTeams.has(event.data.teamId)) return;
      row.participants = Math.max(0, row.participants - 1);
      set.changedTeams.add(row.teamId);
      return;
    }
    case 'EntryAdded':
    case 'EntryEdited': {
      unbook(set, event.data.entryId);
      book(set, {
        entryId: event.data.entryId,
        teamId: event.data.teamId,
        participantId: event.data.participantId,
        distanceHundredths: toHundredths(event.data.distance),
        performedAt: event.data.performedAt,
      });
      return;
    }
    case 'EntryDeleted':
    // A rejected entry leaves the team's km, its day's km and the flowers as a
    // deleted one does; the decider refuses to edit it afterwards, so nothing books it again.
    case 'EntryReviewRejected':
      unbook(set, event.data.entryId);
      return;
    default:
      return;
  }
}

/** The public figures of a team from its exact distance (spec §4: rounded km, prestige, flowers). */
export function deriveTeamFigures(distanceHundredths: number, edition: Edition = currentEdition) {
  const distance = roundedKm(distanceHundredths);
  return {
    distance,
    prestige: prestige(distance, edition.route),
    inLapDistance: inLapDistance(distance, edition.route),
    blueFlowers: blueFlowers(distance, edition),
  };
}
