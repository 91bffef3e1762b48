/**
 * Query-side answers (spec §7, plus fields beyond it). Distances in km: team distances are
 * rounded whole km (spec §4 "rounded sum of entry distances"); daily distance keeps two decimals.
 */
import Type from 'typebox';

/** A team as the public stats show it (spec §3 "Team stat entry"). */
export const TeamStat = Type.Object({
  team: Type.Object({
    id: Type.Integer(),
    team_name: Type.String(),
    /** URL or data URL, or null for the default icon. */
    icon: Type.Union([Type.String(), Type.Null()]),
    /** The team's own text (at most 256 characters, spec §9); '' when it has written none. */
    description: Type.String(),
  }),
  /** Rounded total km (spec §4). */
  distance: Type.Integer(),
  /** Number of participants in the team. */
  participants: Type.Integer(),
  /** km performed "today" (edition time zone, simulated clock), two decimals. */
  dailyDistance: Type.Number(),
  /** floor(distance / lap length) (spec §4). */
  prestige: Type.Integer(),
  /** distance - prestige * lap length, km (spec §4). */
  inLapDistance: Type.Number(),
  /** Blue flowers by the rules of spec §4. */
  blueFlowers: Type.Integer(),
  /**
   * Money the team raised, EUR cents: succeeded fees plus donations less refunds (payments read
   * model). Optional: added after spec §7's contract.
   */
  raised_cents: Type.Optional(Type.Integer()),
  /**
   * How many of the team's paid fees have an unknown amount (imported from the old system without
   * the facts that set the fee): when above 0, raised_cents is a lower bound ("at least"), not the
   * whole. Optional: absent or 0 means raised_cents is complete.
   */
  raised_unknown_count: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type TeamStat = Type.Static<typeof TeamStat>;

/** GET /api/stats */
export const StatsAnswer = Type.Object({
  teams: Type.Array(TeamStat),
  totalParticipants: Type.Integer(),
  /** Sum over teams of their rounded distances, km. */
  totalDistance: Type.Integer(),
  totalBlueFlowers: Type.Integer(),
  /**
   * Money raised by everyone, EUR cents: fees plus donations less refunds, deleted teams' money
   * included (as GET /api/fundraising's total). Optional: added after spec §7.
   */
  raised_cents: Type.Optional(Type.Integer()),
  /** Paid fees of unknown amount overall (see TeamStat.raised_unknown_count): above 0, raised_cents is "at least". Optional. */
  raised_unknown_count: Type.Optional(Type.Integer({ minimum: 0 })),
  /** The simulated or real "today" the daily distances refer to, YYYY-MM-DD (Europe/Tallinn). */
  today: Type.String(),
});
export type StatsAnswer = Type.Static<typeof StatsAnswer>;

/** GET /api/team/{id} (spec §3 "Team" plus progress). */
export const TeamAnswer = Type.Object({
  id: Type.Integer(),
  team_name: Type.String(),
  icon: Type.Union([Type.String(), Type.Null()]),
  description: Type.String(),
  /**
   * The team's current join code (spec §3 Team: join_code); this answer is only for the team's
   * members and admins. Null only when the read models lack it.
   */
  join_code: Type.Union([Type.String(), Type.Null()]),
  participant_count: Type.Integer(),
  /** Rounded total km. */
  distance: Type.Integer(),
  created_at: Type.String(),
  prestige: Type.Integer(),
  inLapDistance: Type.Number(),
  blueFlowers: Type.Integer(),
  /** Money the team raised, EUR cents, as TeamStat.raised_cents. Optional. */
  raised_cents: Type.Optional(Type.Integer()),
  /** As TeamStat.raised_unknown_count: above 0, raised_cents is "at least". Optional. */
  raised_unknown_count: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type TeamAnswer = Type.Static<typeof TeamAnswer>;

/** Every error answer: `message` is a catalogue code (spec §7, §8). */
export const ErrorAnswer = Type.Object({
  message: Type.String(),
  /** FIELD_MISMATCH only: the field sent with another value than the stored one. */
  field: Type.Optional(Type.String()),
});
export type ErrorAnswer = Type.Static<typeof ErrorAnswer>;

/** Header a command answer's `position` is sent back in, for read-your-writes. */
export const MIN_POSITION_HEADER = 'x-min-position';
/** Header the query API answers with: the position its read models reflect. */
export const PROJECTED_POSITION_HEADER = 'x-projected-position';
