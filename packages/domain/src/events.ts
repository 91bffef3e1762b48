/**
 * The union of every domain event (DomainEvent) and the registry the store reads: stream names,
 * SCHEMA_VERSIONS, EVENT_UPCASTERS, PERSONAL_DATA_FIELDS. Each aggregate's event types live
 * beside its decider in <aggregate>/events.ts and are re-exported here, so '@sinilill/domain'
 * names them all (docs/add-an-event-type.md). Events are facts in the past tense; their
 * payloads are plain JSON. Units: distances in km (numbers with at most two decimals), dates as
 * ISO `YYYY-MM-DD` in the edition's time zone (Europe/Tallinn), instants as ISO-8601 UTC strings.
 *
 * Personal data (spec: email, full name, birth year) sits only in the fields listed by
 * PERSONAL_DATA_FIELDS; the store encrypts those per participant (crypto-shredding, docs/decisions).
 * Secrets (password hashes, confirmation and reset token hashes) never enter an event: they live
 * in tables of schema `app` (packages/commands, accountMigrations).
 */
import type { AccountEvent, SettingsEvent } from './account/events';
import type { AnnouncementEvent } from './announcement/events';
import type { DrawEvent } from './draw/events';
import type { EditionEvent } from './edition/events';
import type { ActivityFileEvent, EntryEvent, StravaActivityEvent } from './entry/events';
import type { OperationsEvent } from './operations/events';
import type { ParticipantEvent } from './participant/events';
import type { PaymentEvent } from './payment/events';
import type { TeamEvent } from './team/events';
import { YEAR_OF_EVENTS_BEFORE_EDITIONS } from './edition/before-editions';

export * from './team/events';
export * from './participant/events';
export * from './entry/events';
export * from './payment/events';
export * from './account/events';
export * from './operations/events';
export * from './draw/events';
export * from './announcement/events';
export type * from './edition/events';

/**
 * Stream names: one stream per team, participant, entry, user account (userId a UUID string) and
 * payment order (orderId a UUID string), and the one `settings` stream of the global switches.
 */
export const streams = {
  team: (teamId: number) => `team-${teamId}`,
  participant: (participantId: number) => `participant-${participantId}`,
  entry: (entryId: number) => `entry-${entryId}`,
  user: (userId: string) => `user-${userId}`,
  settings: () => 'settings',
  operations: () => 'operations',
  /** One stream per payment order; orderId is a UUID. */
  payment: (orderId: string) => `payment-${orderId}`,
  /**
   * One stream per activity file, named by the SHA-256 of its bytes (64
   * lower-case hex digits): its ActivityFileUsed events prove which entries count the file.
   */
  activityFile: (sha256: string) => `activity-file-${sha256}`,
  /** One stream per Strava activity (Strava's id): its StravaActivitySynced events prove which entry counts it. */
  stravaActivity: (activityId: number) => `strava-activity-${activityId}`,
  /** The edition's prize draw: one stream per edition year. */
  draw: (year: number) => `draw-${year}`,
  /** One stream per edition year (EditionPlanned … EditionClosed). */
  edition: (year: number) => `edition-${year}`,
} as const;

/** Stream names of the announcements (one per announcement, id a UUID) and of newsletter choices. */
export const announcementStreams = {
  announcement: (announcementId: string) => `announcement-${announcementId}`,
  newsletter: (participantId: number) => `newsletter-${participantId}`,
} as const;

export type DomainEvent =
  | TeamEvent
  | ParticipantEvent
  | EntryEvent
  | ActivityFileEvent
  | StravaActivityEvent
  | PaymentEvent
  | AccountEvent
  | SettingsEvent
  | OperationsEvent
  | DrawEvent
  | AnnouncementEvent
  | EditionEvent;
export type DomainEventType = DomainEvent['type'];

/** Current payload schema version of each event type (upcasters lift older ones). */
export const SCHEMA_VERSIONS: Record<DomainEventType, number> = {
  TeamRegistered: 2,
  TeamPublicAttributesChanged: 1,
  JoinCodeReplaced: 1,
  TeamRenamed: 1,
  TeamDeleted: 1,
  ParticipantRenamed: 1,
  ParticipantDeleted: 1,
  UserDeleted: 1,
  ReadModelsReplayed: 1,
  ProjectionEventSkipped: 1,
  ProjectionEventRetryRequested: 1,
  ParticipantRegistered: 2,
  ParticipantPaymentMarked: 1,
  EntryAdded: 2,
  ActivityFileUsed: 2,
  StravaActivitySynced: 1,
  EntryEdited: 1,
  EntryDeleted: 1,
  EntryFlagged: 1,
  EntryReviewApproved: 1,
  EntryReviewRejected: 1,
  UserRegistered: 1,
  UserJoinedEdition: 1,
  AdminRegistered: 1,
  AccountConfirmed: 1,
  UserApproved: 1,
  UserApprovalRevoked: 1,
  UserRoleChanged: 1,
  PasswordChanged: 1,
  PasswordResetRequested: 1,
  PasswordResetCompleted: 1,
  SettingsChanged: 1,
  PaymentOrdered: 1,
  PaymentSucceeded: 1,
  DonationReceived: 1,
  PaymentFailed: 1,
  PaymentRefunded: 1,
  DrawCommitted: 1,
  DrawSeedRevealed: 1,
  DrawWinnersChosen: 1,
  AnnouncementPublished: 1,
  NewsletterUnsubscribed: 1,
  EditionPlanned: 1,
  EditionChanged: 1,
  EditionOpened: 1,
  EditionClosed: 1,
};

/**
 * Lifts one stored payload of `type` at schema version `fromVersion` to version `fromVersion + 1`.
 * Pure; never changes its argument; never touches personal-data fields (they may still be sealed
 * when it runs).
 */
export interface EventUpcaster {
  type: DomainEventType;
  fromVersion: number;
  upcast(data: Record<string, unknown>): Record<string, unknown>;
}

/**
 * Every upcaster of the domain's events (the event store applies them when events are read, so
 * deciders, projections, history and exports see SCHEMA_VERSIONS only; the stored event stays as
 * written). EntryAdded 1 → 2: entries before activity files were typed in. TeamRegistered and
 * ParticipantRegistered 1 → 2: teams and participants before editions were data belong to the
 * 2025 edition, the only one the application had run (edition/before-editions.ts).
 * ActivityFileUsed 1 → 2: a file then became one entry; now each of its parts does (`entryIds`).
 */
export const EVENT_UPCASTERS: readonly EventUpcaster[] = [
  { type: 'EntryAdded', fromVersion: 1, upcast: (data) => ({ ...data, source: { kind: 'manual' } }) },
  { type: 'TeamRegistered', fromVersion: 1, upcast: (data) => ({ ...data, edition: YEAR_OF_EVENTS_BEFORE_EDITIONS }) },
  { type: 'ParticipantRegistered', fromVersion: 1, upcast: (data) => ({ ...data, edition: YEAR_OF_EVENTS_BEFORE_EDITIONS }) },
  { type: 'ActivityFileUsed', fromVersion: 1, upcast: ({ entryId, ...data }) => ({ ...data, entryIds: [entryId] }) },
];

/**
 * Where personal data sits: per event type, the field naming the data subject (whose key
 * encrypts it) and the fields that are personal data. Erasing the subject's key makes these
 * fields read as null everywhere (events, read models rebuilt by replay, exports).
 *
 * A participant's account shares the participant's subject (`participant-{id}`), so erasing the
 * participant erases the account's copy of the e-mail and name with the same key. An account
 * without a participant (AdminRegistered) is its own subject, `user-{userId}`: that is why it is
 * a separate event type (one event type has one subject field).
 */
export const PERSONAL_DATA_FIELDS: Partial<
  Record<DomainEventType, { subject: string; fields: readonly string[] }>
> = {
  ParticipantRegistered: { subject: 'participantId', fields: ['fullName', 'email', 'birthYear'] },
  ParticipantRenamed: { subject: 'participantId', fields: ['fullName'] },
  UserRegistered: { subject: 'participantId', fields: ['email', 'fullName'] },
  AdminRegistered: { subject: 'userId', fields: ['email', 'fullName'] },
};
