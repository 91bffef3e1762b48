/**
 * Every domain event's type and payload, by stream. Events are facts in the past tense; their
 * payloads are plain JSON. Units: distances in km (numbers with at most two decimals), dates as
 * ISO `YYYY-MM-DD` in the edition's time zone (Europe/Tallinn), instants as ISO-8601 UTC strings.
 *
 * Personal data (spec: email, full name, birth year) sits only in the fields listed by
 * PERSONAL_DATA_FIELDS; the store encrypts those per participant (crypto-shredding, docs/decisions).
 * Secrets (password hashes, confirmation and reset token hashes) never enter an event: they live
 * in tables of schema `app` (packages/commands, accountMigrations).
 */

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
   * lower-case hex digits): its ActivityFileUsed events prove which entry counts the file.
   */
  activityFile: (sha256: string) => `activity-file-${sha256}`,
  /** The edition's prize draw: one stream per edition year. */
  draw: (year: number) => `draw-${year}`,
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
    /**
     * A company team (spec §9 "company team 15 EUR per person"): every member's
     * fee is the edition's `fees.companyPerPersonCents`, whatever their birth year, and the
     * captain may pay for all unpaid members at once. Present (true) only for company teams:
     * absent — as on every older event — means false. Set at registration and
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
/**
 * The participant's paid flag changed (spec §4 "admin may mark paid"; a succeeded fee
 * payment marks it in the same append as its PaymentSucceeded; a team fee marks every
 * member it covers, a full refund takes the mark back).
 */
export interface ParticipantPaymentMarked {
  type: 'ParticipantPaymentMarked';
  data: {
    participantId: number;
    isPaid: boolean;
    /**
     * Who set it: 'admin' (the admin console: a payment verified by hand, e.g. a bank transfer),
     * 'payment' (a succeeded fee order, with `orderId`), 'refund' (the fee order
     * `orderId` that had paid it was refunded in full; isPaid false). Absent on the importer's
     * marks and on every mark recorded before fee payments existed. 'import': a paid mark of an imported
     * participant (who paid in the old system), whose amount the import assumes (`assumedCents`).
     */
    source?: 'admin' | 'payment' | 'refund' | 'import';
    /** The fee order (stream payment-{orderId}) that set or took back the flag; with source 'payment' or 'refund'. */
    orderId?: string;
    /**
     * Money moved by hand, EUR cents, with source 'admin' only. isPaid true: the
     * manual payment (bank transfer, spec §2/§4) the administrator verified — the participant's
     * fee due when marked (participantFee: the company fee, or 15/5 EUR by birth year) — which the
     * fundraising totals count as a fee. isPaid false: the manual payment this unmark takes back
     * (the amount of the administrator's mark it undoes), which the totals subtract. Absent when
     * no money moved by hand (a provider's payment counts through PaymentSucceeded; imported and
     * older marks count nothing).
     */
    manualCents?: number;
    /**
     * With source 'import' and isPaid true: the fee the import assumes the participant paid in the
     * old system, EUR cents (participantFee for the edition: the company fee, else 15/5 EUR by
     * birth year; spec §9), which the fundraising totals count as a fee. Absent when the fee
     * cannot be known (no birth year): the payment's amount is unknown, and every total it feeds
     * is known to be incomplete.
     */
    assumedCents?: number;
  };
}
/** An administrator corrected the participant's name (spec §2 admin users tab; at most 32). */
export interface ParticipantRenamed {
  type: 'ParticipantRenamed';
  data: {
    participantId: number;
    /** Personal data (encrypted at rest, subject participant-{participantId}). Null once erased. */
    fullName: string | null;
    renamedAt: string;
  };
}
/**
 * The participant was deleted (an administrator deleted the user or the team). Their personal
 * data is erased in the same step (the subject key participant-{id} is destroyed: every
 * ParticipantRegistered, ParticipantRenamed and UserRegistered copy reads null from then on).
 */
export interface ParticipantDeleted {
  type: 'ParticipantDeleted';
  data: { participantId: number; teamId: number; deletedAt: string };
}
export type ParticipantEvent = ParticipantRegistered | ParticipantPaymentMarked | ParticipantRenamed | ParticipantDeleted;

// ---- entry-{id} ---------------------------------------------------------------------------

/** Formats of activity files. */
export const ACTIVITY_FILE_FORMATS = ['gpx', 'tcx', 'fit'] as const;
export type ActivityFileFormat = (typeof ACTIVITY_FILE_FORMATS)[number];

/**
 * Where an entry's distance came from: typed in by hand, or read from an activity file
 * identified by the SHA-256 of its bytes (64 lower-case hex digits).
 */
export type EntrySource = { kind: 'manual' } | { kind: 'file'; format: ActivityFileFormat; sha256: string };

/**
 * Schema version 2 added `source`; version 1 events are read as version 2 with
 * `source: { kind: 'manual' }` (EVENT_UPCASTERS), as every entry before files was typed in.
 */
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
    /** Typed in, or read from an activity file (schema version 2). */
    source: EntrySource;
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
export type EntryEvent = EntryAdded | EntryEdited | EntryDeleted | EntryModerationEvent;

// ---- entry-{id}: moderation ---------------------------------------------

/** A moderation rule of edition.moderation (entry/moderation.ts). */
export type EntryModerationRule = 'MAX_KM_PER_ENTRY' | 'MAX_KM_PER_DAY' | 'DUPLICATE' | 'TEAM_DAY_OUTLIER';

/** Why an entry was flagged: the rule, its limit and the value found, km. */
export interface EntryFlagReason {
  rule: EntryModerationRule;
  /** km; null for DUPLICATE (no limit). */
  limit: number | null;
  /**
   * km: the entry's distance, the participant's day sum for MAX_KM_PER_DAY, or the team's km that
   * day per member for TEAM_DAY_OUTLIER (its limit: factor × the other teams' percentile, per member).
   */
  value: number;
  /** DUPLICATE only: the id of the live entry this one repeats. */
  duplicateOf?: number;
}

/**
 * An added or edited entry broke a moderation rule: appended in the same atomic append as its
 * EntryAdded/EntryEdited. The entry still counts; it awaits an administrator's decision.
 */
export interface EntryFlagged {
  type: 'EntryFlagged';
  data: { entryId: number; teamId: number; participantId: number; reasons: EntryFlagReason[]; flaggedAt: string };
}
/**
 * An administrator let a flagged entry stand. `decidedBy`: the administrator's account id (UUID),
 * also in the data (not only the metadata) so that read models rebuilt by a replay, which reads
 * no metadata, still show who decided. `note` may be ''.
 */
export interface EntryReviewApproved {
  type: 'EntryReviewApproved';
  data: { entryId: number; teamId: number; participantId: number; note: string; decidedBy: string; decidedAt: string };
}
/**
 * An administrator rejected a flagged entry: it leaves every total (team km, daily km, member km,
 * flowers) and stays on the team page as rejected. Final: the entry can then only be deleted.
 */
export interface EntryReviewRejected {
  type: 'EntryReviewRejected';
  data: { entryId: number; teamId: number; participantId: number; note: string; decidedBy: string; decidedAt: string };
}
export type EntryModerationEvent = EntryFlagged | EntryReviewApproved | EntryReviewRejected;

// ---- activity-file-{sha256} ----------------------------------------------

/**
 * An activity file's distance was logged as an entry: appended in the same atomic append as that
 * EntryAdded, with the stream's expected revision, so one file never counts twice at once. The
 * file is free again once that entry is deleted (the entry's stream says so; no event here).
 */
export interface ActivityFileUsed {
  type: 'ActivityFileUsed';
  data: {
    /** 64 lower-case hex digits, the SHA-256 of the file's bytes. */
    sha256: string;
    format: ActivityFileFormat;
    entryId: number;
    teamId: number;
    participantId: number;
    /** ISO-8601 UTC. */
    usedAt: string;
  };
}
export type ActivityFileEvent = ActivityFileUsed;

// ---- payment-{orderId} (ids and EUR cents only, never personal data) ---------------

/** What a payment order pays: the participation fee (spec §9) or a donation (spec §2 "donate"). */
export type PaymentKind = 'fee' | 'donation';

/**
 * A participant ordered a payment through the payment provider (spec §7 POST /payment/order):
 * the provider's checkout comes next. Amounts in EUR cents.
 */
export interface PaymentOrdered {
  type: 'PaymentOrdered';
  data: {
    /** UUID; also the provider's merchant reference. */
    orderId: string;
    participantId: number;
    /** The participant's team when ordering (fundraising per team counts it there). */
    teamId: number;
    kind: PaymentKind;
    /** What the payer pays, EUR cents (a fee order may exceed the fee: a custom amount, spec §2). */
    amountCents: number;
    /**
     * The fee per person at ordering time, EUR cents: by birth year (1500 or 500 in 2025), or the
     * company fee (fees.companyPerPersonCents, 1500) for a member of a company team.
     */
    feeCents: number;
    /**
     * A team fee: the participants this fee order pays for — the unpaid members
     * of the captain's company team when ordered (ascending ids), the payer among them when
     * unpaid. Absent on an order for the payer alone (and on every older order).
     */
    covers?: number[];
    /** The provider's name ('sandbox', 'montonio'). */
    provider: string;
    /** ISO 3166-1 alpha-2 country of the chosen bank's setup. */
    country: string;
    /** The chosen bank's provider code; '' when the payer chooses it at the provider (a donation). */
    method: string;
    /** The short code shown to the payer (orderReference of the order id: 8 upper-case hex digits). */
    reference: string;
    /** ISO-8601 UTC. */
    orderedAt: string;
  };
}
/** What a provider's confirmation says about an order (PaymentSucceeded, DonationReceived). */
export interface PaymentSettlement {
  orderId: string;
  participantId: number;
  teamId: number;
  /** EUR cents, as confirmed (equal to the order's amount). */
  amountCents: number;
  provider: string;
  /** The provider's own id of the order (Montonio's order UUID), when it gave one. */
  providerOrderId: string | null;
}
/**
 * The provider confirmed a fee order as paid. The participant's ParticipantPaymentMarked (source
 * 'payment') is appended in the same atomic append when they were not marked paid yet.
 */
export interface PaymentSucceeded {
  type: 'PaymentSucceeded';
  /** succeededAt: ISO-8601 UTC. */
  data: PaymentSettlement & { succeededAt: string };
}
/** The provider confirmed a donation order as paid. */
export interface DonationReceived {
  type: 'DonationReceived';
  /** receivedAt: ISO-8601 UTC. */
  data: PaymentSettlement & { receivedAt: string };
}
/**
 * The payment did not go through (abandoned or refused at the bank, voided, or the provider did
 * not take the order). Not final: a bank's late confirmation (spec §4: up to 72 h) still records
 * the payment.
 */
export interface PaymentFailed {
  type: 'PaymentFailed';
  data: Omit<PaymentSettlement, 'amountCents'> & {
    /** Why, as a code: the provider's status (ABANDONED, VOIDED, …) or PROVIDER_UNAVAILABLE. */
    reason: string;
    /** ISO-8601 UTC. */
    failedAt: string;
  };
}
/**
 * An administrator recorded a refund of a paid order: money given back to the
 * payer outside the application (the provider's or the bank's own refund). The fundraising totals
 * go down by `amountCents`; when `full` (the refunds reach the whole amount) of a fee order, the
 * participants it had marked paid are marked unpaid in the same atomic append
 * (ParticipantPaymentMarked {isPaid: false, source: 'refund'}).
 */
export interface PaymentRefunded {
  type: 'PaymentRefunded';
  data: {
    orderId: string;
    /** The payer. */
    participantId: number;
    /** The order's team (fundraising per team counts it there). */
    teamId: number;
    kind: PaymentKind;
    /** Refunded now, EUR cents, more than 0 and at most what was paid and not yet refunded. */
    amountCents: number;
    /** Refunded of this order in all, this refund included, EUR cents. */
    refundedCents: number;
    /** True when the refunds reach the order's whole amount. */
    full: boolean;
    /** Why, in the administrator's words (at most 500 characters; no personal data, please). */
    reason: string;
    /** ISO-8601 UTC. */
    refundedAt: string;
  };
}
export type PaymentEvent = PaymentOrdered | PaymentSucceeded | DonationReceived | PaymentFailed | PaymentRefunded;

// ---- user-{userId} (accounts; secrets such as password and token hashes never appear here) --

/** Spec §3 roles (USER 0, ADMIN 1). */
export type Role = 'USER' | 'ADMIN';
/** The language an account's mails are written in (spec §4 stored values). */
export type MailLanguage = 'est' | 'eng';

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
export type AccountEvent =
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

// ---- settings -----------------------------------------------------------------------------
/** The global switches (spec §4 "Entry insertion and registration are each globally switchable"). */
export interface SettingsChanged {
  type: 'SettingsChanged';
  /** Only the switches that changed are present. */
  data: { registrationEnabled?: boolean; entryInsertionEnabled?: boolean; changedAt: string };
}
export type SettingsEvent = SettingsChanged;

// ---- operations (operators' acts on the whole system) ---------------------------------------
/** Figures of the whole event at one moment (the stats totals). */
export interface ReplayTotals {
  teams: number;
  participants: number;
  /** km (sum of the teams' rounded distances). */
  distance: number;
  blueFlowers: number;
}
/**
 * Every read model was rebuilt from the log (an operator's replay, e.g. after the route's
 * mission lengths changed). Recorded in stream `operations` with the totals before and after.
 */
export interface ReadModelsReplayed {
  type: 'ReadModelsReplayed';
  data: {
    /** The BullMQ job id, or null for the CLI. */
    jobId: string | null;
    /** Events read by the rebuild. */
    events: number;
    /** The global position the rebuilt read models reflect. */
    position: number;
    before: ReplayTotals;
    after: ReplayTotals;
    startedAt: string;
    finishedAt: string;
    /**
     * Each read-model table, rebuilt vs live, compared just before the swap.
     * Absent in older replays (an optional addition: no new schema version).
     */
    checksums?: ReplayTableChecksum[];
  };
}
/** One read-model table compared by a replay before its swap (read-models checksums.ts). */
export interface ReplayTableChecksum {
  table: string;
  /** Rows of the rebuilt table. */
  rows: number;
  /** 16 hex digits over the rebuilt rows. */
  rebuilt: string;
  /** Rows of the live table, null when the live schema had no such table. */
  liveRows: number | null;
  /** 16 hex digits over the live rows, null when the live schema had no such table. */
  live: string | null;
  match: boolean;
}
/**
 * An administrator decided that a projection passes over an event it had parked: the
 * event could not be applied (a data error, e.g. text PostgreSQL cannot store) and waits in the
 * projection's parked_events; this decision marks it resolved as skipped, so the read model stays
 * without it. Recorded in stream `operations`, so a replay that parks the same event again finds
 * the decision later in the log and skips it the same way.
 */
export interface ProjectionEventSkipped {
  type: 'ProjectionEventSkipped';
  data: {
    /** The projection (checkpoint name, e.g. `team-directory`), or null for every projection that parked it. */
    projection: string | null;
    /** Global position of the parked event. */
    position: number;
    /** The parked event's id and type (for the audit; the position names it). */
    eventId: string;
    eventType: string;
    /** Why, in the administrator's words ('' when none was given); at most 500 characters. */
    reason: string;
    /** ISO-8601 UTC. */
    skippedAt: string;
  };
}
/**
 * An administrator asked the projections to apply a parked event again, after the
 * cause was fixed (a projection's code, a conflicting row). Each projection that parked it
 * re-applies it when it reaches this event in the log: on success the park is resolved as
 * retried, on the same kind of failure it stays parked with the new error.
 */
export interface ProjectionEventRetryRequested {
  type: 'ProjectionEventRetryRequested';
  data: {
    /** The projection, or null for every projection that parked it. */
    projection: string | null;
    position: number;
    eventId: string;
    eventType: string;
    /** ISO-8601 UTC. */
    requestedAt: string;
  };
}
export type OperationsEvent = ReadModelsReplayed | ProjectionEventSkipped | ProjectionEventRetryRequested;

// ---- draw-{year} (the prize draw anyone can check) ----------------------------
/**
 * An administrator published the commitment of the edition's prize draw: the SHA-256 (64
 * lower-case hex digits) of a secret seed kept by the administrator, the announced instant of the
 * draw (ISO-8601 UTC, not before the eligibility deadline) and the number of winners.
 */
export interface DrawCommitted {
  type: 'DrawCommitted';
  data: { year: number; commitment: string; drawAt: string; winners: number; committedAt: string };
}
/** The administrator revealed the seed; its SHA-256 equals the commitment. */
export interface DrawSeedRevealed {
  type: 'DrawSeedRevealed';
  data: { year: number; seed: string; revealedAt: string };
}
/**
 * The winners computed from the seed and the eligible list (packages/commands draw procedure,
 * scripts/verify-draw.mjs): `eligible` the eligible participant ids ascending (as of the
 * deadline `asOf`, ISO-8601 UTC), `eligibleListHash` the SHA-256 hex of them joined by "\n",
 * `winners` in draw order. No names: the public answer reads them from the read models, so an
 * erased person's name disappears (docs/decisions/0002).
 */
export interface DrawWinnersChosen {
  type: 'DrawWinnersChosen';
  data: {
    year: number;
    asOf: string;
    eligible: number[];
    eligibleCount: number;
    eligibleListHash: string;
    winners: { participantId: number; teamId: number }[];
  };
}
export type DrawEvent = DrawCommitted | DrawSeedRevealed | DrawWinnersChosen;

// ---- announcement-{id}, newsletter-{participantId} -----------------------
/** Stream names of the announcements (one per announcement, id a UUID) and of newsletter choices. */
export const announcementStreams = {
  announcement: (announcementId: string) => `announcement-${announcementId}`,
  newsletter: (participantId: number) => `newsletter-${participantId}`,
} as const;
/**
 * An administrator sent an announcement: the text in both languages (plain text, paragraphs
 * separated by blank lines) and its audience — `newsletter` (participants who opted in and have
 * not unsubscribed) or `all` (operational notices: every participant). Recipients are chosen and
 * erased people skipped when each mail is sent, not here.
 */
export interface AnnouncementPublished {
  type: 'AnnouncementPublished';
  data: {
    /** UUID. */
    announcementId: string;
    subject_et: string;
    body_et: string;
    subject_en: string;
    body_en: string;
    audience: 'newsletter' | 'all';
    /** The administrator's userId. */
    publishedBy: string | null;
    /** ISO-8601 UTC. */
    publishedAt: string;
  };
}
/** A participant followed an announcement's unsubscribe link: no more newsletter mails. */
export interface NewsletterUnsubscribed {
  type: 'NewsletterUnsubscribed';
  data: { participantId: number; unsubscribedAt: string };
}
export type AnnouncementEvent = AnnouncementPublished | NewsletterUnsubscribed;

export type DomainEvent =
  | TeamEvent
  | ParticipantEvent
  | EntryEvent
  | ActivityFileEvent
  | PaymentEvent
  | AccountEvent
  | SettingsEvent
  | OperationsEvent
  | DrawEvent
  | AnnouncementEvent;
export type DomainEventType = DomainEvent['type'];

/** Current payload schema version of each event type (upcasters lift older ones). */
export const SCHEMA_VERSIONS: Record<DomainEventType, number> = {
  TeamRegistered: 1,
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
  ParticipantRegistered: 1,
  ParticipantPaymentMarked: 1,
  EntryAdded: 2,
  ActivityFileUsed: 1,
  EntryEdited: 1,
  EntryDeleted: 1,
  EntryFlagged: 1,
  EntryReviewApproved: 1,
  EntryReviewRejected: 1,
  UserRegistered: 1,
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
 * written). EntryAdded 1 → 2: entries before activity files were typed in.
 */
export const EVENT_UPCASTERS: readonly EventUpcaster[] = [
  { type: 'EntryAdded', fromVersion: 1, upcast: (data) => ({ ...data, source: { kind: 'manual' } }) },
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
