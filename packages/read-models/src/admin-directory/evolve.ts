/**
 * admin-directory's pure fold: account, participant and team events → one row per account with
 * its participant and team copied in (the admin console's users tab, spec §2 "Admin", §3 "User
 * (admin view)"). Accounts and participants are separate streams whose events may come in either
 * order, so the fold also keeps each live participant and each live team's name: whichever comes
 * second finds the other.
 *
 * Deletions remove rows (UserDeleted the account, ParticipantDeleted the participant, TeamDeleted
 * the team and its members); nothing of a deleted person stays here, and after their erasure a
 * replay reads their names and e-mail as null anyway (docs/decisions/0002).
 */
import type { RecordedEvent } from '@sinilill/event-store';
import type { DomainEvent } from '@sinilill/domain';

/** One account's row (admin_users). Instants ISO-8601 UTC. */
export interface AdminUser {
  userId: string;
  participantId: number | null;
  role: string;
  email: string | null;
  /** The participant's current name when there is one, else the account's own. */
  fullName: string | null;
  approved: boolean;
  isPaid: boolean;
  teamId: number | null;
  teamName: string | null;
  createdAt: string;
  participantCreatedAt: string | null;
}

/** One live participant (admin_participants). */
export interface AdminParticipant {
  participantId: number;
  teamId: number;
  fullName: string | null;
  isPaid: boolean;
  createdAt: string;
}

/**
 * The rows a batch touches, keyed by id; `null` marks a row deleted in this batch. The `changed*`
 * sets name what the projection writes back (upsert, or delete for null).
 */
export interface AdminWorkingSet {
  users: Map<string, AdminUser | null>;
  participants: Map<number, AdminParticipant | null>;
  teams: Map<number, string | null>;
  changedUsers: Set<string>;
  changedParticipants: Set<number>;
  changedTeams: Set<number>;
}

export const ADMIN_DIRECTORY_EVENTS = [
  'UserRegistered',
  'AdminRegistered',
  'AccountConfirmed',
  'UserApproved',
  'UserApprovalRevoked',
  'UserRoleChanged',
  'UserDeleted',
  'UserJoinedEdition',
  'ParticipantRegistered',
  'ParticipantPaymentMarked',
  'ParticipantRenamed',
  'ParticipantDeleted',
  'TeamRegistered',
  'TeamRenamed',
  'TeamDeleted',
] as const;

/** A working set with nothing loaded (the projection fills it before folding). */
export function emptyAdminWorkingSet(): AdminWorkingSet {
  return {
    users: new Map(), participants: new Map(), teams: new Map(),
    changedUsers: new Set(), changedParticipants: new Set(), changedTeams: new Set(),
  };
}

/** Copies the participant's (and its team's) current fields into the account's row. */
function copyParticipant(set: AdminWorkingSet, user: AdminUser): void {
  const participant = user.participantId === null ? undefined : set.participants.get(user.participantId);
  if (!participant) {
    // No live participant (none yet, deleted, or an admin's own account): the account stands
    // alone, with its own name.
    user.isPaid = false;
    user.teamId = null;
    user.teamName = null;
    user.participantCreatedAt = null;
    return;
  }
  user.fullName = participant.fullName;
  user.isPaid = participant.isPaid;
  user.teamId = participant.teamId;
  user.teamName = set.teams.get(participant.teamId) ?? null;
  user.participantCreatedAt = participant.createdAt;
}

function refreshUsers(set: AdminWorkingSet, matches: (user: AdminUser) => boolean): void {
  for (const user of set.users.values()) {
    if (!user || !matches(user)) continue;
    copyParticipant(set, user);
    set.changedUsers.add(user.userId);
  }
}

function updateUser(set: AdminWorkingSet, userId: string, change: (user: AdminUser) => void): void {
  const user = set.users.get(userId);
  if (!user) return; // an account this model never saw registered, or deleted: nothing to change
  change(user);
  set.changedUsers.add(userId);
}

function setParticipant(set: AdminWorkingSet, participantId: number, participant: AdminParticipant | null): void {
  set.participants.set(participantId, participant);
  set.changedParticipants.add(participantId);
  refreshUsers(set, (user) => user.participantId === participantId);
}

/** Folds one event into the working set (events of other types are ignored). */
export function evolveAdminDirectory(set: AdminWorkingSet, recorded: RecordedEvent): void {
  const event = { type: recorded.type, data: recorded.data } as DomainEvent;
  switch (event.type) {
    case 'UserRegistered':
    case 'AdminRegistered': {
      const d = event.data;
      const user: AdminUser = {
        userId: d.userId,
        participantId: event.type === 'UserRegistered' ? event.data.participantId : null,
        role: event.type === 'UserRegistered' ? event.data.role : 'ADMIN',
        email: d.email,
        fullName: d.fullName,
        approved: event.type === 'UserRegistered' ? event.data.approved : true,
        isPaid: false, teamId: null, teamName: null,
        createdAt: d.registeredAt,
        participantCreatedAt: null,
      };
      copyParticipant(set, user);
      set.users.set(user.userId, user);
      set.changedUsers.add(user.userId);
      return;
    }
    case 'AccountConfirmed':
    case 'UserApproved':
      updateUser(set, event.data.userId, (u) => { u.approved = true; });
      return;
    case 'UserApprovalRevoked':
      updateUser(set, event.data.userId, (u) => { u.approved = false; });
      return;
    case 'UserRoleChanged':
      updateUser(set, event.data.userId, (u) => { u.role = event.data.role; });
      return;
    case 'UserJoinedEdition':
      // The account takes part in a later edition: its row shows that edition's participant and team.
      updateUser(set, event.data.userId, (u) => {
        u.participantId = event.data.participantId;
        copyParticipant(set, u);
      });
      return;
    case 'UserDeleted':
      set.users.set(event.data.userId, null);
      set.changedUsers.add(event.data.userId);
      return;
    case 'ParticipantRegistered': {
      const d = event.data;
      const existing = set.participants.get(d.participantId);
      setParticipant(set, d.participantId, {
        participantId: d.participantId, teamId: d.teamId, fullName: d.fullName,
        isPaid: existing?.isPaid ?? false, createdAt: d.registeredAt,
      });
      return;
    }
    case 'ParticipantPaymentMarked':
    case 'ParticipantRenamed': {
      const participant = set.participants.get(event.data.participantId);
      if (!participant) return;
      if (event.type === 'ParticipantPaymentMarked') participant.isPaid = event.data.isPaid;
      else participant.fullName = event.data.fullName;
      setParticipant(set, participant.participantId, participant);
      return;
    }
    case 'ParticipantDeleted': {
      // The deletion erases the person (subject participant-{id}), whose key also sealed the
      // account's e-mail and name: a replay reads them as null, so the live rows must too.
      const participantId = event.data.participantId;
      setParticipant(set, participantId, null);
      for (const user of set.users.values()) {
        if (user?.participantId !== participantId) continue;
        user.email = null;
        user.fullName = null;
      }
      return;
    }
    case 'TeamRegistered':
    case 'TeamRenamed': {
      const teamId = event.data.teamId;
      set.teams.set(teamId, event.data.teamName);
      set.changedTeams.add(teamId);
      refreshUsers(set, (user) => user.teamId === teamId);
      return;
    }
    case 'TeamDeleted': {
      const teamId = event.data.teamId;
      set.teams.set(teamId, null);
      set.changedTeams.add(teamId);
      // The members' own ParticipantDeleted and UserDeleted follow in the same append; dropping
      // the team's participants here too keeps the rows right whatever that order.
      for (const [id, participant] of set.participants) {
        if (participant?.teamId === teamId) setParticipant(set, id, null);
      }
      return;
    }
    default:
      return;
  }
}
