/**
 * team-directory's pure fold: events → each team's members (with their km), live entries and
 * current join code, for the team page (spec §2 "Team page": members table, entries table, join
 * code box).
 */
import type { RecordedEvent } from '@sinilill/event-store';
import { toHundredths, type DomainEvent, type EntryFlagReason } from '@sinilill/domain';

export interface Member {
  participantId: number;
  teamId: number;
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
   * Moderation; null when never flagged. A rejected entry stays (the team page
   * shows it as rejected) but its km leave its member's.
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

/** The km an entry adds to its member's: none once rejected. */
function countedHundredths(entry: TeamEntry): number {
  return entry.review?.status === 'rejected' ? 0 : entry.distanceHundredths;
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

export const TEAM_DIRECTORY_EVENTS = [
  'TeamRegistered',
  'JoinCodeReplaced',
  'TeamDeleted',
  'ParticipantRegistered',
  'ParticipantPaymentMarked',
  'ParticipantRenamed',
  'ParticipantDeleted',
  'EntryAdded',
  'EntryEdited',
  'EntryDeleted',
  'EntryFlagged',
  'EntryReviewApproved',
  'EntryReviewRejected',
] as const;

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

/** Folds one event into the working set (events of other types are ignored). */
export function evolveTeamDirectory(set: DirectoryWorkingSet, recorded: RecordedEvent): void {
  const event = { type: recorded.type, data: recorded.data } as DomainEvent;
  switch (event.type) {
    case 'TeamRegistered':
      set.deletedTeams.delete(event.data.teamId);
      set.joinCodes.set(event.data.teamId, { teamId: event.data.teamId, joinCode: event.data.joinCode, createdAt: event.data.registeredAt });
      return;
    case 'JoinCodeReplaced':
      // The old code stops admitting (spec §4): only the latest one is kept.
      set.joinCodes.set(event.data.teamId, { teamId: event.data.teamId, joinCode: event.data.joinCode, createdAt: event.data.replacedAt });
      return;
    case 'TeamDeleted':
      set.joinCodes.delete(event.data.teamId);
      set.deletedTeams.add(event.data.teamId);
      return;
    case 'ParticipantRegistered': {
      set.deletedMembers.delete(event.data.participantId);
      const existing = set.members.get(event.data.participantId);
      set.members.set(event.data.participantId, {
        participantId: event.data.participantId,
        teamId: event.data.teamId,
        fullName: event.data.fullName,
        isPaid: existing?.isPaid ?? false,
        isCaptain: event.data.isCaptain,
        distanceHundredths: existing?.distanceHundredths ?? 0,
        createdAt: event.data.registeredAt,
      });
      set.changedMembers.add(event.data.participantId);
      return;
    }
    case 'ParticipantPaymentMarked': {
      const member = set.members.get(event.data.participantId);
      if (!member) return;
      member.isPaid = event.data.isPaid;
      set.changedMembers.add(member.participantId);
      return;
    }
    case 'ParticipantRenamed': {
      const member = set.members.get(event.data.participantId);
      if (!member) return;
      member.fullName = event.data.fullName;
      set.changedMembers.add(member.participantId);
      return;
    }
    case 'ParticipantDeleted':
      set.members.delete(event.data.participantId);
      set.changedMembers.delete(event.data.participantId);
      set.deletedMembers.add(event.data.participantId);
      return;
    case 'EntryAdded':
    case 'EntryEdited': {
      const old = set.entries.get(event.data.entryId);
      if (old) credit(set, old.participantId, -countedHundredths(old));
      const hundredths = toHundredths(event.data.distance);
      const at = event.type === 'EntryAdded' ? event.data.createdAt : event.data.editedAt;
      const entry: TeamEntry = {
        entryId: event.data.entryId,
        teamId: event.data.teamId,
        participantId: event.data.participantId,
        distanceHundredths: hundredths,
        entryType: event.data.entryType,
        performedAt: event.data.performedAt,
        createdAt: old?.createdAt ?? at,
        updatedAt: at,
        review: old?.review ?? null,
      };
      set.entries.set(event.data.entryId, entry);
      set.changedEntries.add(event.data.entryId);
      credit(set, event.data.participantId, countedHundredths(entry));
      return;
    }
    case 'EntryFlagged': {
      const entry = set.entries.get(event.data.entryId);
      if (!entry) return; // an entry this model does not hold (its team deleted): nothing to mark
      credit(set, entry.participantId, -countedHundredths(entry));
      entry.review = { status: 'flagged', reasons: event.data.reasons, flaggedAt: event.data.flaggedAt, decidedBy: null, decidedAt: null, note: null };
      credit(set, entry.participantId, countedHundredths(entry));
      set.changedEntries.add(entry.entryId);
      return;
    }
    case 'EntryReviewApproved':
    case 'EntryReviewRejected': {
      const entry = set.entries.get(event.data.entryId);
      if (!entry) return;
      credit(set, entry.participantId, -countedHundredths(entry));
      entry.review = {
        status: event.type === 'EntryReviewApproved' ? 'approved' : 'rejected',
        reasons: entry.review?.reasons ?? [],
        flaggedAt: entry.review?.flaggedAt ?? event.data.decidedAt,
        decidedBy: event.data.decidedBy, decidedAt: event.data.decidedAt, note: event.data.note,
      };
      credit(set, entry.participantId, countedHundredths(entry));
      set.changedEntries.add(entry.entryId);
      return;
    }
    case 'EntryDeleted': {
      const old = set.entries.get(event.data.entryId);
      if (old) credit(set, old.participantId, -countedHundredths(old));
      set.entries.set(event.data.entryId, null);
      set.changedEntries.add(event.data.entryId);
      return;
    }
    default:
      return;
  }
}
