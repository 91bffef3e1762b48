/**
 * Moderation of entries: the admin console's review queue and its decisions.
 * Administrators only (401 UNAUTHORIZED, 403 FORBIDDEN). Distances in km (two decimals); dates
 * YYYY-MM-DD (Europe/Tallinn); instants ISO-8601 UTC.
 */
import Type from 'typebox';
import { Entry } from './entries';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The rules of edition.moderation (packages/domain entry/moderation.ts). */
export const ModerationRule = Type.Union([Type.Literal('MAX_KM_PER_ENTRY'), Type.Literal('MAX_KM_PER_DAY'), Type.Literal('DUPLICATE'), Type.Literal('TEAM_DAY_OUTLIER')]);
export type ModerationRule = Type.Static<typeof ModerationRule>;

/** Why an entry was flagged: limit and value in km (limit null for DUPLICATE, which names the entry it repeats). */
export const FlagReason = Type.Object({
  rule: ModerationRule,
  limit: Nullable(Type.Number()),
  value: Type.Number(),
  duplicateOf: Type.Optional(Type.Integer()),
});
export type FlagReason = Type.Static<typeof FlagReason>;

/** Where an entry stands in review: flagged (awaiting, still counts), approved, rejected (counts no more). */
export const ReviewStatus = Type.Union([Type.Literal('flagged'), Type.Literal('approved'), Type.Literal('rejected')]);
export type ReviewStatus = Type.Static<typeof ReviewStatus>;

/** POST /api/admin/review: one decision with one note for 1..500 flagged entries, in one atomic append. */
export const ReviewDecisionBody = Type.Object({
  ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 500 }),
  decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
  /** At most 500 characters; may be empty. */
  note: Type.String({ maxLength: 2000 }),
}, { additionalProperties: false });
export type ReviewDecisionBody = Type.Static<typeof ReviewDecisionBody>;

export const ReviewDecisionAnswer = Type.Object({ success: Type.Literal(true), count: Type.Integer(), position: Type.Integer() });
export type ReviewDecisionAnswer = Type.Static<typeof ReviewDecisionAnswer>;

/** GET /api/admin/review query: filters and the page (1-based, 50 rows). */
export const ReviewQueueQuery = Type.Object({
  status: Type.Optional(ReviewStatus),
  rule: Type.Optional(ModerationRule),
  team_id: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,9}$' })),
  date: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' })),
  page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$' })),
});
export type ReviewQueueQuery = Type.Static<typeof ReviewQueueQuery>;

/** One entry in the review queue. */
export const ReviewRow = Type.Object({
  entry_id: Type.Integer(),
  team_id: Type.Integer(),
  team_name: Nullable(Type.String()),
  participant_id: Type.Integer(),
  full_name: Nullable(Type.String()),
  distance: Type.Number(),
  entry_type: Type.String(),
  performed_at: Type.String(),
  status: ReviewStatus,
  reasons: Type.Array(FlagReason),
  flagged_at: Type.String(),
  /** The deciding administrator's account id (UUID), null while flagged. */
  decided_by: Nullable(Type.String()),
  decided_at: Nullable(Type.String()),
  note: Nullable(Type.String()),
});
export type ReviewRow = Type.Static<typeof ReviewRow>;

/** GET /api/admin/review answer: newest flag first. */
export const ReviewQueueAnswer = Type.Object({ rows: Type.Array(ReviewRow), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() });
export type ReviewQueueAnswer = Type.Static<typeof ReviewQueueAnswer>;

/**
 * An entry's review as the team page shows it (GET /api/team/{id}/entries, optional: absent when
 * never flagged): status, the flag's reasons and the admin's note once decided (null before).
 */
export const EntryReview = Type.Object({
  status: ReviewStatus,
  reasons: Type.Array(FlagReason),
  note: Nullable(Type.String()),
});
export type EntryReview = Type.Static<typeof EntryReview>;

/** One row of GET /api/team/{id}/entries: a spec §3 Entry plus, optionally, its review. */
export const TeamPageEntry = Type.Object({ ...Entry.properties, review: Type.Optional(EntryReview) });
export type TeamPageEntry = Type.Static<typeof TeamPageEntry>;
