/**
 * Every domain event's type and payload, by stream. Events are facts in the past tense; their
 * payloads are plain JSON. Units: distances in km (numbers with at most two decimals), dates as
 * ISO `YYYY-MM-DD` in the edition's time zone (Europe/Tallinn), instants as ISO-8601 UTC strings.
 *
 * Personal data (spec: email, full name, birth year) sits only in the fields listed by
 * PERSONAL_DATA_FIELDS; the store encrypts those per participant (crypto-shredding, docs/decisions).
 */

/** Stream names: one stream per team, participant and entry. */
export const streams = {
  team: (teamId: number) => `team-${teamId}`,
  participant: (participantId: number) => `participant-${participantId}`,
  entry: (entryId: number) => `entry-${entryId}`,
} as const;

/** Preset entry types (spec §1). Anything else is free text entered under "Other". */
export const ACTIVITY_TYPES = [
  'OUTDOOR_RUN',
  'INDOOR_RUN',
  'WALK',
  'OUTDOOR_CYCLE',
  'INDOOR_CYCLE',
  'ROLLERSKATING',
  'SKIING',
  'SWIMMING',
  'GOLF',
  'DISCGOLF',
  'ASSISTIVE_DEVICE',
  'OTHER',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export type Gender = 'MALE' | 'FEMALE' | 'UNDEFINED';

// ---- team-{id} ----------------------------------------------------------------------------
export interface TeamRegistered {
  type: 'TeamRegistered';
  data: {
    teamId: number;
    teamName: string;
    description: string;
    joinCode: string;
    /** Icon reference (URL or data URL) or null. */
    icon: string | null;
    /** ISO-8601 UTC. */
    registeredAt: string;
  };
}
export type TeamEvent = TeamRegistered;

// ---- participant-{id} ---------------------------------------------------------------------
export interface ParticipantRegistered {
  type: 'ParticipantRegistered';
  data: {
    participantId: number;
    teamId: number;
    /** Personal data (encrypted at rest). Null once erased. */
    fullName: string | null;
    /** Personal data (encrypted at rest). Null once erased. */
    email: string | null;
    /** Personal data (encrypted at rest). Null once erased. */
    birthYear: number | null;
    gender: Gender;
    isCaptain: boolean;
    newsletter: boolean;
    /** ISO-8601 UTC. */
    registeredAt: string;
  };
}
export interface ParticipantPaymentMarked {
  type: 'ParticipantPaymentMarked';
  data: { participantId: number; isPaid: boolean };
}
export type ParticipantEvent = ParticipantRegistered | ParticipantPaymentMarked;

// ---- entry-{id} ---------------------------------------------------------------------------
export interface EntryAdded {
  type: 'EntryAdded';
  data: {
    entryId: number;
    teamId: number;
    participantId: number;
    /** km, > 0, at most two decimals. */
    distance: number;
    /** A preset ActivityType key, or the free text typed under Other. */
    entryType: string;
    /** YYYY-MM-DD (edition time zone), inside the edition's April. */
    performedAt: string;
    /** ISO-8601 UTC. */
    createdAt: string;
  };
}
export interface EntryEdited {
  type: 'EntryEdited';
  data: {
    entryId: number;
    teamId: number;
    participantId: number;
    /** km, >= 0 (spec §5: editing allows 0), at most two decimals. */
    distance: number;
    entryType: string;
    performedAt: string;
    /** ISO-8601 UTC. */
    editedAt: string;
  };
}
export interface EntryDeleted {
  type: 'EntryDeleted';
  data: { entryId: number; teamId: number; participantId: number; deletedAt: string };
}
export type EntryEvent = EntryAdded | EntryEdited | EntryDeleted;

export type DomainEvent = TeamEvent | ParticipantEvent | EntryEvent;
export type DomainEventType = DomainEvent['type'];

/** Current payload schema version of each event type (upcasters lift older ones). */
export const SCHEMA_VERSIONS: Record<DomainEventType, number> = {
  TeamRegistered: 1,
  ParticipantRegistered: 1,
  ParticipantPaymentMarked: 1,
  EntryAdded: 1,
  EntryEdited: 1,
  EntryDeleted: 1,
};

/**
 * Where personal data sits: per event type, the field naming the data subject (whose key
 * encrypts it) and the fields that are personal data. Erasing the subject's key makes these
 * fields read as null everywhere (events, read models rebuilt by replay, exports).
 */
export const PERSONAL_DATA_FIELDS: Partial<
  Record<DomainEventType, { subject: string; fields: readonly string[] }>
> = {
  ParticipantRegistered: { subject: 'participantId', fields: ['fullName', 'email', 'birthYear'] },
};
