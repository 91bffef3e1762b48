/**
 * Read-model tables (Kysely table types). They live in PostgreSQL schema `rm` (READ_MODEL_SCHEMA);
 * a replay builds a fresh copy in `rm_next` and renames it into place in one transaction.
 *
 * Units: `*_hundredths` are integer hundredths of a km (exact sums, house style); `distance`
 * columns are rounded whole km (spec §4); dates are 'YYYY-MM-DD' strings (Europe/Tallinn);
 * instants are timestamptz.
 */
import type { ColumnType } from 'kysely';

export const READ_MODEL_SCHEMA = 'rm';
export const REBUILD_SCHEMA = 'rm_next';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** One row per projection: the global position up to which it has applied events. */
export interface CheckpointsTable {
  projection: string;
  position: number;
  updated_at: Timestamp;
}

/** team-stats: one row per team, the figures of the public stats (spec §3 "Team stat entry"). */
export interface TeamStatsTable {
  team_id: number;
  /** The team's edition (TeamRegistered.edition): its route gives prestige, in-lap distance and flowers. */
  edition: number;
  team_name: string;
  icon: string | null;
  description: string;
  created_at: Timestamp;
  /** Exact sum of the team's entries, hundredths of a km. */
  distance_hundredths: number;
  /** Rounded km (spec §4). */
  distance: number;
  participants: number;
  prestige: number;
  /** km, whole (derived from the rounded distance). */
  in_lap_distance: number;
  blue_flowers: number;
}

/** team-stats: km performed per team per local day (for "today's daily advance"). */
export interface TeamDailyDistanceTable {
  team_id: number;
  day: string;
  distance_hundredths: number;
}

/** team-stats: the totals row (id 1). */
export interface StatsTotalsTable {
  id: number;
  teams: number;
  participants: number;
  /** Sum of the teams' rounded distances, km. */
  distance: number;
  blue_flowers: number;
}

/** team-directory: the members of each team with their distances (team page's members table). */
export interface TeamMembersTable {
  participant_id: number;
  team_id: number;
  /** The participant's edition (ParticipantRegistered.edition). */
  edition: number;
  /** Null once the person's personal data is erased. */
  full_name: string | null;
  is_paid: boolean;
  is_captain: boolean;
  distance_hundredths: number;
  created_at: Timestamp;
}

/** team-directory: the live entries of each team (team page's entries table). */
export interface TeamEntriesTable {
  entry_id: number;
  team_id: number;
  participant_id: number;
  distance_hundredths: number;
  entry_type: string;
  performed_at: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Moderation (migration 2026-010): 'flagged' | 'approved' | 'rejected'; null when never flagged. */
  review_status: string | null;
  /** The latest flag's reasons as JSON text (EntryFlagReason[], km). */
  review_reasons: string | null;
  flagged_at: Timestamp | null;
  /** The deciding administrator's account id (UUID). */
  decided_by: string | null;
  decided_at: Timestamp | null;
  review_note: string | null;
}

/** team-directory: each team's current join code (team page's join-code box, spec §2). */
export interface TeamJoinCodesTable {
  team_id: number;
  join_code: string;
  /** When this code became the team's code (registration or the last replacement). */
  created_at: Timestamp;
}

/** settings: the global switches (spec §4), one row (id 1). */
export interface SettingsTable {
  id: number;
  registration_enabled: boolean;
  entry_insertion_enabled: boolean;
  updated_at: Timestamp;
}

/**
 * admin-directory: one row per account, the admin console's users tab (spec §3 "User (admin
 * view)"): the account with its participant and team copied in. Personal data (email, names) is
 * null once erased; a deleted account has no row.
 */
export interface AdminUsersTable {
  /** UUID. */
  user_id: string;
  /** Null for an account without a participant (the administrator of ADMIN_EMAIL). */
  participant_id: number | null;
  role: string;
  email: string | null;
  /** The participant's current name (renames included), else the account's. */
  full_name: string | null;
  approved: boolean;
  is_paid: boolean;
  team_id: number | null;
  team_name: string | null;
  /** When the account was registered. */
  created_at: Timestamp;
  /** When the participant was registered (the console's default sort), null without one. */
  participant_created_at: Timestamp | null;
}

/**
 * admin-directory's memory of each live participant, so that an account registered after its
 * participant (or a participant after its account) still gets the participant's fields.
 */
export interface AdminParticipantsTable {
  participant_id: number;
  team_id: number;
  full_name: string | null;
  is_paid: boolean;
  created_at: Timestamp;
}

/** admin-directory's memory of each live team's name (for the members' rows). */
export interface AdminTeamsTable {
  team_id: number;
  team_name: string;
}

/** payments: each live participant's payment info (spec §3 "Payment info"; GET /api/payment/info). */
export interface PaymentInfoTable {
  participant_id: number;
  team_id: number;
  /** The participant's edition (its fees). */
  edition: number;
  is_paid: boolean;
  /** Born in the edition's childFromBirthYear or later (the child fee applies). */
  is_child: boolean;
  /** The participation fee, EUR cents: the company fee in a company team, else by birth year. */
  fee_cents: number;
  /** The participant's team is a company team (2026-008). */
  company: boolean;
  /** The participant registered the team (its captain pays for a company team's members). */
  is_captain: boolean;
}

/** payments: the company teams (TeamRegistered.company), for members who join later. */
export interface CompanyTeamsTable {
  team_id: number;
}

/**
 * payments: money raised per team from succeeded payments, EUR cents (GET /api/fundraising). A
 * deleted team's row stays, hidden (`deleted`), so that the totals keep its money.
 */
export interface FundraisingTeamsTable {
  team_id: number;
  /** The team's edition (money raised per edition: GET /api/stats answers for the current one). */
  edition: number;
  fees_cents: number;
  donations_cents: number;
  deleted: boolean;
  /** Paid marks of the team whose amount is unknown (2026-011): its money raised is at least the cents. */
  unknown_count: number;
}

/**
 * payments: every payment order (GET /api/payment/order/{reference}, the caller's own
 * only). Ids and cents, no personal data.
 */
export interface PaymentOrdersTable {
  order_id: string;
  /** The order's reference as the payer sees it (orderReference: 8 upper-case hex digits). */
  reference: string;
  participant_id: number;
  kind: 'fee' | 'donation';
  /** What the payer pays, EUR cents. */
  amount_cents: number;
  /** pending (ordered), paid (confirmed: final), failed (a late confirmation can still pay it). */
  status: 'pending' | 'paid' | 'failed';
  /** Refunded by an administrator so far, EUR cents (2026-008). */
  refunded_cents: number;
  /** A team fee's covered participants; null for an order of the payer alone. */
  covers: number[] | null;
}

/** payments: money raised overall, EUR cents, one row (id 1); deleted teams' money included. */
export interface FundraisingTotalsTable {
  id: number;
  fees_cents: number;
  donations_cents: number;
  /** Paid marks whose amount is unknown (2026-011): the money raised is at least the cents. */
  unknown_count: number;
}

/**
 * An event a projection could not apply: parked with its error, passed by the
 * checkpoint, and waiting for an administrator's retry or skip (events in stream `operations`).
 * One row per projection and global position.
 */
export interface ParkedEventsTable {
  projection: string;
  position: number;
  event_id: string;
  event_type: string;
  /** SQLSTATE of a PostgreSQL error, or 'FOLD' for an error thrown by the projection's fold. */
  error_code: string;
  /** The error's message, values cut out (never the event's personal data). */
  error: string;
  parked_at: Timestamp;
  /** Times applied without success, or in all once retried successfully (1 when parked). */
  attempts: ColumnType<number, number | undefined, number>;
  status: 'parked' | 'retried' | 'skipped';
  resolved_at: Timestamp | null;
  /** A skip's reason. */
  reason: string | null;
}

/**
 * editions: one row per edition of the log (projection `editions`; GET /api/editions). A log
 * without edition events has no row: the read side then knows 2025 as opened (editions.ts).
 */
export interface EditionsTable {
  year: number;
  status: 'planned' | 'opened' | 'closed';
  /** The Edition as JSON (the latest EditionPlanned or EditionChanged). */
  data: ColumnType<unknown, string, string>;
  planned_at: Timestamp;
  opened_at: Timestamp | null;
  closed_at: Timestamp | null;
}

/**
 * The editions a projection computes with (team-stats: routes, payments: fees), each projection
 * its own rows, folded from the edition events it reads itself (decision 0079).
 */
export interface ProjectionEditionsTable {
  projection: string;
  year: number;
  data: ColumnType<unknown, string, string>;
}

export interface ReadModelDatabase {
  editions: EditionsTable;
  projection_editions: ProjectionEditionsTable;
  settings: SettingsTable;
  checkpoints: CheckpointsTable;
  team_stats: TeamStatsTable;
  team_daily_distance: TeamDailyDistanceTable;
  stats_totals: StatsTotalsTable;
  team_members: TeamMembersTable;
  team_entries: TeamEntriesTable;
  team_join_codes: TeamJoinCodesTable;
  admin_users: AdminUsersTable;
  admin_participants: AdminParticipantsTable;
  admin_teams: AdminTeamsTable;
  payment_info: PaymentInfoTable;
  fundraising_teams: FundraisingTeamsTable;
  fundraising_totals: FundraisingTotalsTable;
  payment_orders: PaymentOrdersTable;
  company_teams: CompanyTeamsTable;
  parked_events: ParkedEventsTable;
}
