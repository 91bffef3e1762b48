/**
 * The team page's calls (spec §2 "Team page", §7 `/team/{id}/…`). Every route here answers only
 * a member of the team or an admin: 401 UNAUTHORIZED without a valid token, 403 FORBIDDEN for
 * anyone else. Distances in km with two decimals; instants ISO-8601 UTC; dates
 * YYYY-MM-DD (Europe/Tallinn).
 */
import Type from 'typebox';
import { MultiLine, SingleLine } from './text';
import { TeamPageEntry } from './moderation';

/** Largest team icon accepted, bytes (spec §5, §9: 5 MB; MAX_IMAGE_SIZE above it). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The limit as the error text appends it (spec §5 "MAX_IMAGE_SIZE followed by 5MB"). */
export const MAX_IMAGE_SIZE_LABEL = '5MB';
/** File extensions a team icon may have (spec §5); the server also judges the content. */
export const IMAGE_EXTENSIONS = ['.jpg', '.jpeg', '.png'] as const;
/**
 * Request body limit of PUT /team/{id}/publicattributes, bytes: room for a data URL somewhat over
 * the 5 MB limit (base64 adds a third), so an image just above it gets MAX_IMAGE_SIZE, not a
 * generic refusal. Bodies beyond this are answered MAX_IMAGE_SIZE too.
 */
export const PUBLIC_ATTRIBUTES_BODY_LIMIT = 16 * 1024 * 1024;

/** GET /api/team/{id}/participants: one row per member (spec §2 members table). */
export const TeamMember = Type.Object({
  id: Type.Integer(),
  /** The member's team (spec §3 Participant: team (team_name)). */
  team: Type.Object({ id: Type.Integer(), team_name: Type.Union([Type.String(), Type.Null()]) }),
  /** Null once the person's personal data is erased. */
  full_name: Type.Union([Type.String(), Type.Null()]),
  is_paid: Type.Boolean(),
  is_captain: Type.Boolean(),
  /** km, two decimals (exact sum of the member's entries). */
  distance: Type.Number(),
  created_at: Type.String(),
});
export type TeamMember = Type.Static<typeof TeamMember>;
export const TeamMembersAnswer = Type.Array(TeamMember);
export type TeamMembersAnswer = Type.Static<typeof TeamMembersAnswer>;

/**
 * GET /api/team/{id}/entries: the team's live entries (spec §3 "Entry"), newest first,
 * with the optional `review` (moderation.ts TeamPageEntry).
 */
export const TeamEntriesAnswer = Type.Array(TeamPageEntry);
export type TeamEntriesAnswer = Type.Static<typeof TeamEntriesAnswer>;

/** GET /api/team/{id}/joincode and GET /api/team/{id}/newcode (spec §7). */
export const JoinCodeAnswer = Type.Object({
  code: Type.String(),
  /** When this code became the team's code, ISO-8601 UTC (the notice after "generate new code"). */
  created_at: Type.String(),
  /** newcode only: global position of the JoinCodeReplaced event, for read-your-writes. */
  position: Type.Optional(Type.Integer()),
});
export type JoinCodeAnswer = Type.Static<typeof JoinCodeAnswer>;

/**
 * The rest of a whole §3 Team (and of GET /api/team/{id}'s answer), which a client written from
 * the spec may send back with its icon and description. The fields the server keeps
 * as identity — id (the path's), team_name and join_code (changed only by an admin and by
 * "new code"), created_at (compared as a moment) — are compared with the stored team: different
 * answers 409 FIELD_MISMATCH with `field`. The figures (participant_count, distance, prestige,
 * inLapDistance, blueFlowers, raised_cents and raised_unknown_count) are read-model results that move
 * with every entry or payment: accepted as numbers and not compared, and nothing here can change them.
 */
export const EchoedTeamFields = {
  id: Type.Optional(Type.Integer({ minimum: 1 })),
  team_name: Type.Optional(Type.String({ maxLength: 200 })),
  join_code: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
  created_at: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
  participant_count: Type.Optional(Type.Integer({ minimum: 0 })),
  distance: Type.Optional(Type.Number({ minimum: 0 })),
  prestige: Type.Optional(Type.Integer({ minimum: 0 })),
  inLapDistance: Type.Optional(Type.Number({ minimum: 0 })),
  blueFlowers: Type.Optional(Type.Integer({ minimum: 0 })),
  raised_cents: Type.Optional(Type.Integer({ minimum: 0 })),
  raised_unknown_count: Type.Optional(Type.Integer({ minimum: 0 })),
};

/**
 * PUT /api/team/{id}/publicattributes (spec §7 "icon, description"; the rest of a §3 Team may
 * come along, EchoedTeamFields). `icon`: a data URL of a
 * JPEG or PNG (`data:image/png;base64,…`, at most MAX_IMAGE_BYTES decoded) to upload, null to
 * remove the icon, or absent to keep it. `description`: at most 256 characters (spec §5), absent
 * to keep it. Refusals: NOT_ALLOWED_FILE_TYPE (not a JPEG or PNG by its content), MAX_IMAGE_SIZE
 * (larger than 5 MB), VALUE_TOO_LONG, FORBIDDEN.
 */
export const PublicAttributesBody = Type.Object(
  {
    icon: Type.Optional(Type.Union([SingleLine(), Type.Null()])),
    description: Type.Optional(MultiLine()),
    ...EchoedTeamFields,
  },
  { additionalProperties: false },
);
export type PublicAttributesBody = Type.Static<typeof PublicAttributesBody>;

export const PublicAttributesAnswer = Type.Object({
  success: Type.Boolean(),
  team: Type.Object({
    id: Type.Integer(),
    /** The stored icon's URL path (served with long-lived caching headers), or null. */
    icon: Type.Union([Type.String(), Type.Null()]),
    description: Type.String(),
  }),
  /** Global position of the change (0 when nothing changed), for read-your-writes. */
  position: Type.Integer(),
});
export type PublicAttributesAnswer = Type.Static<typeof PublicAttributesAnswer>;

/**
 * GET /api/team/{id}/live: a server-sent event stream (text/event-stream). Event `change` with
 * data TeamChange each time the read models of the team advance; a comment line every 15 s keeps
 * the connection open. Send the position back as x-min-position when refetching.
 */
export const TeamChange = Type.Object({ teamId: Type.Integer(), position: Type.Integer() });
export type TeamChange = Type.Static<typeof TeamChange>;
