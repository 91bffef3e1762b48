/**
 * The events of stream `team-{id}` (team/decider.ts decides them). The union of all events and
 * their registry (schema versions, upcasters, personal-data fields) are in ../events.ts.
 */

export interface TeamRegistered {
  type: 'TeamRegistered';
  data: {
    teamId: number;
    /** The edition's year the team runs in (schema 2; schema 1 events are upcast to 2025). */
    edition: number;
    /** The team of an earlier edition this one continues (a captain re-opened it); absent otherwise. */
    continues?: number;
    teamName: string;
    description: string;
    joinCode: string;
    /** Icon reference (URL or data URL) or null. */
    icon: string | null;
    /** ISO-8601 UTC. */
    registeredAt: string;
    /**
     * A company team (spec §9 "company team 15 EUR per person"): every member's
     * fee is the edition's `fees.companyPerPersonCents`, whatever their birth year, and the
     * captain may pay for all unpaid members at once. Present (true) only for company teams:
     * absent — as on every event recorded before company teams existed — means false. Set at registration and
     * never changed.
     */
    company?: boolean;
  };
}
/**
 * A member (or an admin) changed the team's public card (spec §7 PUT /team/{id}/publicattributes).
 * Only the fields that changed are present.
 */
export interface TeamPublicAttributesChanged {
  type: 'TeamPublicAttributesChanged';
  data: {
    teamId: number;
    /**
     * The new icon's reference (the media store's URL path, e.g. `/api/images/<sha256>.webp`; the
     * image itself never enters the event), or null when the icon was removed.
     */
    icon?: string | null;
    /** The new description, trimmed, at most 256 characters (spec §5). */
    description?: string;
    /** ISO-8601 UTC. */
    changedAt: string;
  };
}
/** The team's join code was replaced by a new random one; the old one stops admitting (spec §4). */
export interface JoinCodeReplaced {
  type: 'JoinCodeReplaced';
  data: { teamId: number; joinCode: string; replacedAt: string };
}
/** An administrator renamed the team (spec §2 admin teams tab; name unique, at most 50). */
export interface TeamRenamed {
  type: 'TeamRenamed';
  data: { teamId: number; teamName: string; renamedAt: string };
}
/**
 * An administrator deleted the team (spec §2 admin: "Deletion is permanent"). Its members and
 * their entries are deleted by their own events in the same append (ParticipantDeleted,
 * UserDeleted, EntryDeleted); the read models drop the team; the history keeps every event.
 */
export interface TeamDeleted {
  type: 'TeamDeleted';
  data: { teamId: number; deletedAt: string };
}
export type TeamEvent = TeamRegistered | TeamPublicAttributesChanged | JoinCodeReplaced | TeamRenamed | TeamDeleted;
