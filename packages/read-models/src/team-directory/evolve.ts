/**
 * team-directory's pure fold: events → each team's members (with their km), live entries and
 * current join code, for the team page (spec §2 "Team page": members table, entries table, join
 * code box).
 */
import type { RecordedEvent } from '@sinilill/event-store';
import { toHundredths, type DomainEvent } from '@sinilill/domain';

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
      if (old) credit(set, old.participantId, -old.distanceHundredths);
      const hundredths = toHundredths(event.data.distance);
      const at = event.type === 'EntryAdded' ? event.data.createdAt : event.data.editedAt;
      set.entries.set(event.data.entryId, {
        entryId: event.data.entryId,
        teamId: event.data.teamId,
        participantId: event.data.participantId,
        distanceHundredths: hundredths,
        entryType: event.data.entryType,
        performedAt: event.data.performedAt,
        createdAt: old?.createdAt ?? at,
        updatedAt: at,
      });
      set.changedEntries.add(event.data.entryId);
      credit(set, event.data.participantId, hundredths);
      return;
    }
    case 'EntryDeleted': {
      const old = set.entries.get(event.data.entryId);
      if (old) credit(set, old.participantId, -old.distanceHundredths);
      set.entries.set(event.data.entryId, null);
      set.changedEntries.add(event.data.entryId);
      return;
    }
    default:
      return;
  }
}
