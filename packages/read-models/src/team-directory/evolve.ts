/**
 * team-directory's pure fold: events → each team's members (with their km), live entries and
 * current join code, for the team page (spec §2 "Team page": members table, entries table, join
 * code box). What an entry event does to an entry and to its member's km comes from the domain's
 * entry ledger (evolveLedgerEntry); this module keeps the rows the page shows.
 */
import type { RecordedEvent } from '@sinilill/event-store';
import {
  countedHundredths,
  dispatch,
  dispatchRecorded,
  evolveLedgerEntry,
  handledTypes,
  type EntryEvent,
  type EntryFlagReason,
  type EventHandlers,
  type JoinCodeReplaced,
  type LedgerEntry,
  type ParticipantDeleted,
  type ParticipantPaymentMarked,
  type ParticipantRegistered,
  type ParticipantRenamed,
  type TeamDeleted,
  type TeamRegistered,
} from '@sinilill/domain';

export interface Member {
  participantId: number;
  teamId: number;
  /** The participant's edition (ParticipantRegistered.edition). */
  edition: number;
  fullName: string | null;
  isPaid: boolean;
  isCaptain: boolean;
  distanceHundredths: number;
  createdAt: string;
}

export interface TeamEntry {
  entryId: number;
  teamId: number;
  participantId: number;
  distanceHundredths: number;
  entryType: string;
  performedAt: string;
  createdAt: string;
  updatedAt: string;
  /**
   * Moderation; null when never flagged. A rejected entry stays (the team page shows it as
   * rejected) but its km leave its member's.
   */
  review: EntryReview | null;
}

/** An entry's review state (instants ISO-8601 UTC; reasons in km). */
export interface EntryReview {
  status: 'flagged' | 'approved' | 'rejected';
  reasons: EntryFlagReason[];
  flaggedAt: string;
  /** The deciding administrator's account id; null while flagged. */
  decidedBy: string | null;
  decidedAt: string | null;
  note: string | null;
}

/** A team's current join code and since when (ISO-8601 UTC). */
export interface TeamJoinCode {
  teamId: number;
  joinCode: string;
  createdAt: string;
}

/**
 * Loaded rows a batch touches; `null` in `entries` marks an entry deleted in this batch.
 * `joinCodes` holds only codes set in this batch: each event replaces the whole row, so none is
 * loaded.
 */
export interface DirectoryWorkingSet {
  members: Map<number, Member>;
  entries: Map<number, TeamEntry | null>;
  joinCodes: Map<number, TeamJoinCode>;
  changedMembers: Set<number>;
  changedEntries: Set<number>;
  /** Participants deleted in this batch (their rows go; their entries go by their own events). */
  deletedMembers: Set<number>;
  /** Teams deleted in this batch: their join code goes, and any member or entry row left of them. */
  deletedTeams: Set<number>;
}

/** A working set with nothing loaded (the projection fills it before folding). */
export function emptyDirectory(): DirectoryWorkingSet {
  return {
    members: new Map(), entries: new Map(), joinCodes: new Map(), changedMembers: new Set(), changedEntries: new Set(),
    deletedMembers: new Set(), deletedTeams: new Set(),
  };
}

function credit(set: DirectoryWorkingSet, participantId: number, hundredths: number): void {
  const member = set.members.get(participantId);
  if (!member) return; // a member this model never saw registered: nothing to credit
  member.distanceHundredths += hundredths;
  set.changedMembers.add(participantId);
}

/**
 * An entry row as the ledger's entry: team_entries keeps no source (the page does not show it),
 * and what an entry counts for never depends on it. A row stands for a live entry.
 */
function ledgerEntryOfRow(row: TeamEntry): LedgerEntry {
  const review = row.review?.status ?? 'none';
  return {
    entryId: row.entryId, teamId: row.teamId, participantId: row.participantId, day: row.performedAt,
    hundredths: row.distanceHundredths, entryType: row.entryType, source: { kind: 'manual' }, review, deleted: false,
    counts: review !== 'rejected',
  };
}

/** An added or edited entry's row: the ledger's facts, the row's first instant and its review kept. */
function editedRow(after: LedgerEntry | null, old: TeamEntry | null, at: string): TeamEntry | undefined {
  if (!after) return undefined;
  return {
    entryId: after.entryId, teamId: after.teamId, participantId: after.participantId, distanceHundredths: after.hundredths,
    entryType: after.entryType, performedAt: after.day, createdAt: old?.createdAt ?? at, updatedAt: at, review: old?.review ?? null,
  };
}

/** A decision's row; undefined for an entry this model does not hold (its team deleted): nothing to mark. */
function decidedRow(old: TeamEntry | null, status: 'approved' | 'rejected', data: { decidedBy: string; decidedAt: string; note: string }): TeamEntry | undefined {
  if (!old) return undefined;
  return {
    ...old,
    review: {
      status, reasons: old.review?.reasons ?? [], flaggedAt: old.review?.flaggedAt ?? data.decidedAt,
      decidedBy: data.decidedBy, decidedAt: data.decidedAt, note: data.note,
    },
  };
}

/**
 * The entry's row after each entry event (`old` the row before, `after` the ledger's entry):
 * a row, null for a deleted entry, undefined for no change.
 */
export const teamEntryRows: EventHandlers<EntryEvent, [TeamEntry | null, LedgerEntry | null], TeamEntry | null | undefined> = {
  EntryAdded: ({ data }, old, after) => editedRow(after, old, data.createdAt),
  EntryEdited: ({ data }, old, after) => editedRow(after, old, data.editedAt),
  EntryDeleted: () => null,
  EntryFlagged: ({ data }, old) => old ? { ...old, review: { status: 'flagged', reasons: data.reasons, flaggedAt: data.flaggedAt, decidedBy: null, decidedAt: null, note: null } } : undefined,
  EntryReviewApproved: ({ data }, old) => decidedRow(old, 'approved', data),
  EntryReviewRejected: ({ data }, old) => decidedRow(old, 'rejected', data),
};

/** An entry event: the row follows entryRows, the member's km the ledger's count (none once rejected). */
function entryEvent(event: EntryEvent, set: DirectoryWorkingSet): void {
  const id = event.data.entryId;
  const old = set.entries.get(id) ?? null;
  const before = old && ledgerEntryOfRow(old);
  const after = evolveLedgerEntry(before, event);
  const row = dispatch(teamEntryRows, event, old, after);
  if (row === undefined) return;
  if (old) credit(set, old.participantId, -countedHundredths(before));
  set.entries.set(id, row);
  set.changedEntries.add(id);
  if (row) credit(set, row.participantId, countedHundredths(after));
}

/** The events team-directory folds. */
export type TeamDirectoryEvent =
  | TeamRegistered
  | JoinCodeReplaced
  | TeamDeleted
  | ParticipantRegistered
  | ParticipantPaymentMarked
  | ParticipantRenamed
  | ParticipantDeleted
  | EntryEvent;

/** What each event does to the working set: one handler per type (a new event type of these unions must be named here). */
export const teamDirectoryHandlers: EventHandlers<TeamDirectoryEvent, [DirectoryWorkingSet]> = {
  TeamRegistered: ({ data }, set) => {
    set.deletedTeams.delete(data.teamId);
    set.joinCodes.set(data.teamId, { teamId: data.teamId, joinCode: data.joinCode, createdAt: data.registeredAt });
  },
  JoinCodeReplaced: ({ data }, set) => {
    // The old code stops admitting (spec §4): only the latest one is kept.
    set.joinCodes.set(data.teamId, { teamId: data.teamId, joinCode: data.joinCode, createdAt: data.replacedAt });
  },
  TeamDeleted: ({ data }, set) => {
    set.joinCodes.delete(data.teamId);
    set.deletedTeams.add(data.teamId);
  },
  ParticipantRegistered: ({ data }, set) => {
    set.deletedMembers.delete(data.participantId);
    const existing = set.members.get(data.participantId);
    set.members.set(data.participantId, {
      participantId: data.participantId,
      teamId: data.teamId,
      edition: data.edition,
      fullName: data.fullName,
      isPaid: existing?.isPaid ?? false,
      isCaptain: data.isCaptain,
      distanceHundredths: existing?.distanceHundredths ?? 0,
      createdAt: data.registeredAt,
    });
    set.changedMembers.add(data.participantId);
  },
  ParticipantPaymentMarked: ({ data }, set) => {
    const member = set.members.get(data.participantId);
    if (!member) return;
    member.isPaid = data.isPaid;
    set.changedMembers.add(member.participantId);
  },
  ParticipantRenamed: ({ data }, set) => {
    const member = set.members.get(data.participantId);
    if (!member) return;
    member.fullName = data.fullName;
    set.changedMembers.add(member.participantId);
  },
  ParticipantDeleted: ({ data }, set) => {
    set.members.delete(data.participantId);
    set.changedMembers.delete(data.participantId);
    set.deletedMembers.add(data.participantId);
  },
  EntryAdded: entryEvent,
  EntryEdited: entryEvent,
  EntryDeleted: entryEvent,
  EntryFlagged: entryEvent,
  EntryReviewApproved: entryEvent,
  EntryReviewRejected: entryEvent,
};

/** The event types team-directory folds (the keys of teamDirectoryHandlers). */
export const TEAM_DIRECTORY_EVENTS = handledTypes(teamDirectoryHandlers);

/**
 * Folds one event into the working set (events of other types are ignored).
 * @throws DomainError('INVALID_DISTANCE') for an entry distance with more than two decimals.
 */
export function evolveTeamDirectory(set: DirectoryWorkingSet, recorded: RecordedEvent): void {
  dispatchRecorded(teamDirectoryHandlers, recorded, set);
}
