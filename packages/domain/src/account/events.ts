/**
 * The events of streams `user-{userId}` (account/decider.ts; secrets such as password and token
 * hashes never appear here) and `settings` (account/settings.ts). The union of all events and
 * their registry are in ../events.ts; personal-data fields are listed there too.
 */
import type { SpecLanguage } from '../language';

/** Spec §3 roles (USER 0, ADMIN 1). */
export type Role = 'USER' | 'ADMIN';
/** The language an account's mails are written in (spec §4 stored values). */
export type MailLanguage = SpecLanguage;

/** The account of a participant (registration, or the importer for the 2025 people). */
export interface UserRegistered {
  type: 'UserRegistered';
  data: {
    /** UUID. */
    userId: string;
    /** The participant the account belongs to (also the personal-data subject). */
    participantId: number;
    role: Role;
    /** Personal data (encrypted at rest, subject participant-{participantId}). Null once erased. */
    email: string | null;
    /** Personal data (encrypted at rest, subject participant-{participantId}). Null once erased. */
    fullName: string | null;
    /** True for accounts the system created (imported people); a visitor's starts false (spec §4). */
    approved: boolean;
    /** False for imported people: they set one through the password reset. */
    hasPassword: boolean;
    /** The language of the registration, used for mails sent later without a request language. */
    lang: MailLanguage;
    /** ISO-8601 UTC. */
    registeredAt: string;
  };
}
/** An account of its own, without a participant: the first administrator (ADMIN_EMAIL). */
export interface AdminRegistered {
  type: 'AdminRegistered';
  data: {
    userId: string;
    /** Personal data (encrypted at rest, subject user-{userId}). Null once erased. */
    email: string | null;
    /** Personal data (encrypted at rest, subject user-{userId}). Null once erased. */
    fullName: string | null;
    /** ISO-8601 UTC. */
    registeredAt: string;
  };
}
/** The confirmation link was followed (spec §4: unapproved until then). */
export interface AccountConfirmed {
  type: 'AccountConfirmed';
  data: { userId: string; confirmedAt: string };
}
/** An administrator (or the system) approved the account (spec §4 "Admin may approve"). */
export interface UserApproved {
  type: 'UserApproved';
  /** approvedBy: the admin's user id; null for the system. */
  data: { userId: string; approvedBy: string | null; approvedAt: string };
}
/** An administrator withdrew the approval (the admin console's approved toggle, spec §2). */
export interface UserApprovalRevoked {
  type: 'UserApprovalRevoked';
  data: { userId: string; revokedBy: string | null; revokedAt: string };
}
export interface UserRoleChanged {
  type: 'UserRoleChanged';
  data: { userId: string; role: Role; changedAt: string };
}
/** The password was set or changed (the hash itself lives in app.credentials, never here). */
export interface PasswordChanged {
  type: 'PasswordChanged';
  data: { userId: string; changedAt: string };
}
/** A reset link was mailed; it is valid until expiresAt (the token's hash lives in app.account_tokens). */
export interface PasswordResetRequested {
  type: 'PasswordResetRequested';
  data: { userId: string; requestedAt: string; expiresAt: string };
}
export interface PasswordResetCompleted {
  type: 'PasswordResetCompleted';
  data: { userId: string; completedAt: string };
}
/** The account was deleted by an administrator; it can no longer log in. */
export interface UserDeleted {
  type: 'UserDeleted';
  data: { userId: string; deletedAt: string };
}
/**
 * The person takes part in another edition (spec §1 "the yearly event"): `participantId` is their
 * new participant of `edition`, and the account names it from now on (login, session identity).
 * The earlier participants stay the person's: their entries keep counting for their editions. No
 * personal data: the profile is copied into the new participant's ParticipantRegistered.
 */
export interface UserJoinedEdition {
  type: 'UserJoinedEdition';
  data: {
    userId: string;
    participantId: number;
    /** The edition's year. */
    edition: number;
    /** ISO-8601 UTC. */
    joinedAt: string;
  };
}
export type AccountEvent =
  | UserJoinedEdition
  | UserDeleted
  | UserRegistered
  | AdminRegistered
  | AccountConfirmed
  | UserApproved
  | UserApprovalRevoked
  | UserRoleChanged
  | PasswordChanged
  | PasswordResetRequested
  | PasswordResetCompleted;

// ---- stream settings (the global switches; settings.ts decides them) -----------------------
/** The global switches (spec §4 "Entry insertion and registration are each globally switchable"). */
export interface SettingsChanged {
  type: 'SettingsChanged';
  /** Only the switches that changed are present. */
  data: { registrationEnabled?: boolean; entryInsertionEnabled?: boolean; changedAt: string };
}
export type SettingsEvent = SettingsChanged;
