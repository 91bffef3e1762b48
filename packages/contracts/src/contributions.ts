/**
 * "What this did" ("explain my score"): what one entry's latest event did to its
 * team, folded from the event log (not the read models): the team's distance, blue flowers and
 * prestige just before and just after that event, and the missions it reached.
 *
 * - GET /api/team/{id}/entries/{entryId}/contribution: one live entry of the team; the team's
 *   members and administrators (401 UNAUTHORIZED, 403 FORBIDDEN, 404 NOT_FOUND);
 * - GET /api/participant/{id}/contributions: each live entry of one participant; the participant,
 *   their team mates and administrators (same refusals).
 *
 * Distances in km: team figures rounded as spec §4 says (`distance`), exact sums with two decimals
 * (`distanceExact`); instants ISO-8601 UTC; dates YYYY-MM-DD (Europe/Tallinn).
 */
import Type from 'typebox';

/** Before, after and after − before of one team figure. */
const Change = <T extends Type.TSchema>(value: T) => Type.Object({ before: value, after: value, gained: value });

/** A mission whose end the team passed (or, going back, fell below) with the event. */
export const ContributionMission = Type.Object({
  /** The mission's number on the route (1–24 in 2025). */
  id: Type.Integer(),
  /** The lap in which it was reached, from 1 (lap 2 after one full lap, prestige 1). */
  lap: Type.Integer(),
  /** The mission region's name in both languages (the edition's route). */
  name: Type.Object({ et: Type.String(), en: Type.String() }),
});
export type ContributionMission = Type.Static<typeof ContributionMission>;

/**
 * What an entry's latest event did to its team. `change` says which event: the entry added, or
 * edited (then the figures are the edit's effect, as of the edit), or deleted.
 */
export const Contribution = Type.Object({
  entryId: Type.Integer(),
  teamId: Type.Integer(),
  participantId: Type.Integer(),
  change: Type.Union([Type.Literal('added'), Type.Literal('edited'), Type.Literal('deleted')]),
  /**
   * When it happened, ISO-8601 UTC: the event's own createdAt, editedAt or deletedAt (the
   * command's clock), else when it was recorded.
   */
  at: Type.String(),
  /** When the event was recorded in the log, ISO-8601 UTC. */
  recordedAt: Type.String(),
  /** The entry's own km before the event (null when added) and after it (null when deleted). */
  entryDistance: Type.Object({ before: Type.Union([Type.Number(), Type.Null()]), after: Type.Union([Type.Number(), Type.Null()]) }),
  /** The team's rounded km (spec §4), the figure the progress rules use. */
  distance: Change(Type.Integer()),
  /** The team's exact km, two decimals. */
  distanceExact: Change(Type.Number()),
  blueFlowers: Change(Type.Integer()),
  prestige: Change(Type.Integer()),
  /** The lap the team was on after the event, from 1 (prestige + 1). */
  lap: Type.Integer(),
  /** Missions whose end the team passed, in route order (empty when none). */
  missionsReached: Type.Array(ContributionMission),
  /** Missions whose end the team fell back below (an edit down, a deletion; empty otherwise). */
  missionsLost: Type.Array(ContributionMission),
});
export type Contribution = Type.Static<typeof Contribution>;

/** GET /api/team/{id}/entries/{entryId}/contribution. */
export const ContributionAnswer = Contribution;
export type ContributionAnswer = Contribution;

/** One live entry of a participant with what its latest event did. */
export const ParticipantContribution = Type.Object({
  entryId: Type.Integer(),
  /** km, two decimals. */
  distance: Type.Number(),
  /** A preset activity key or the free text typed under Other. */
  entryType: Type.String(),
  /** YYYY-MM-DD (Europe/Tallinn). */
  performedAt: Type.String(),
  contribution: Contribution,
});
export type ParticipantContribution = Type.Static<typeof ParticipantContribution>;

/** GET /api/participant/{id}/contributions: the participant's live entries, newest first. */
export const ParticipantContributionsAnswer = Type.Object({
  participantId: Type.Integer(),
  teamId: Type.Integer(),
  contributions: Type.Array(ParticipantContribution),
});
export type ParticipantContributionsAnswer = Type.Static<typeof ParticipantContributionsAnswer>;
