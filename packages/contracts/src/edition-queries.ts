/**
 * The read side's answers about editions (spec §1 "the yearly event"): GET /api/editions (public:
 * the current edition, the next one announced, the archive), GET /api/admin/editions (ADMIN: every
 * edition, drafts included) and GET /api/history/editions/{year} (public: a closed edition's
 * results). An edition's data (`edition`, `route`) is the domain's Edition and Route as JSON
 * (packages/domain/src/edition/types.ts); dates are local 'YYYY-MM-DD' in the edition's zone.
 */
import Type from 'typebox';

const Phase = Type.Union([
  Type.Literal('planned'), Type.Literal('upcoming'), Type.Literal('registration'), Type.Literal('running'),
  Type.Literal('lateEntries'), Type.Literal('final'), Type.Literal('closed'),
]);

/** One edition as the read side shows it: its status, its phase at the clock's instant and its data. */
export const EditionViewAnswer = Type.Object({
  year: Type.Integer(),
  status: Type.Union([Type.Literal('planned'), Type.Literal('opened'), Type.Literal('closed')]),
  /** EditionLifePhase of @sinilill/domain at `now`. */
  phase: Phase,
  /** True while teams and participants may register for it. */
  registrationOpen: Type.Boolean(),
  /** The clock's local day in the edition's time zone. */
  today: Type.String(),
  /** The Edition (domain type) as JSON. */
  edition: Type.Unknown(),
});
export type EditionViewAnswer = Type.Static<typeof EditionViewAnswer>;

/** GET /api/editions: the clock's instant, the current edition, the next announced one and the closed ones (newest first); never drafts. */
export const EditionsAnswer = Type.Object({
  now: Type.String(),
  current: Type.Union([EditionViewAnswer, Type.Null()]),
  next: Type.Union([EditionViewAnswer, Type.Null()]),
  archive: Type.Array(EditionViewAnswer),
});
export type EditionsAnswer = Type.Static<typeof EditionsAnswer>;

/** GET /api/admin/editions: every edition, drafts included, oldest first. */
export const AdminEditionsAnswer = Type.Object({ editions: Type.Array(EditionViewAnswer) });
export type AdminEditionsAnswer = Type.Static<typeof AdminEditionsAnswer>;

/** GET /api/history/editions/{year}: the path's year. */
export const EditionHistoryParams = Type.Object({ year: Type.String({ pattern: '^[0-9]{4}$' }) });
export type EditionHistoryParams = Type.Static<typeof EditionHistoryParams>;

/** One team of a closed edition, as it finished: km (≤ 2 decimals), flowers, laps, its last mission and how far into its lap (%). */
export const EditionHistoryTeam = Type.Object({
  teamId: Type.Integer(),
  teamName: Type.String(),
  km: Type.Number(),
  flowers: Type.Integer(),
  prestige: Type.Integer(),
  /** The mission the team had reached (the route's mission id). */
  missionId: Type.Integer(),
  lapPercentage: Type.Number(),
});

/** GET /api/history/editions/{year}: a closed edition's figures, teams (most km first), route and draw winners (null without a draw). */
export const EditionHistoryAnswer = Type.Object({
  year: Type.Integer(),
  name: Type.Object({ et: Type.String(), en: Type.String() }),
  figures: Type.Object({
    participants: Type.Integer(),
    teams: Type.Integer(),
    km: Type.Number(),
    flowers: Type.Integer(),
    raisedCents: Type.Integer(),
  }),
  teams: Type.Array(EditionHistoryTeam),
  /** The edition's Route (domain type) as JSON. */
  route: Type.Unknown(),
  draw: Type.Union([
    Type.Object({ winners: Type.Array(Type.Object({ teamName: Type.String(), participantName: Type.Union([Type.String(), Type.Null()]) })) }),
    Type.Null(),
  ]),
});
export type EditionHistoryAnswer = Type.Static<typeof EditionHistoryAnswer>;
