/**
 * Strava sync (docs/decisions/0095), command API. Every refusal is `{ message: CODE }`.
 *
 * - GET /api/me/strava (a logged-in participant) → StravaStatusAnswer: whether the site has a
 *   Strava application (`available`), the account's connection, and the activities held for
 *   the member to confirm (mode confirm).
 * - POST /api/me/strava/connect StravaConnectBody → StravaConnectAnswer: Strava's authorize page
 *   to send the browser to; its state is signed and binds the member, the mode and 10 minutes.
 * - GET /api/strava/callback?code&scope&state[&error] (Strava's redirect) → 303 to
 *   /account?strava=connected, ?strava=denied (refused, or without activity:read) or ?strava=error.
 * - PUT /api/me/strava StravaModeBody → StravaConnectionAnswer.
 * - DELETE /api/me/strava → StravaConnectionAnswer (status disconnected).
 * - POST /api/me/strava/proposals/{activityId}/confirm StravaConfirmBody → EntryAnswer;
 *   DELETE /api/me/strava/proposals/{activityId} → 204.
 * - GET /api/strava/webhook (hub.mode, hub.verify_token, hub.challenge) → `{ "hub.challenge" }`;
 *   POST /api/strava/webhook (Strava's event) → 200 `{ received: true }` at once; the work is queued.
 *
 * Refusals: STRAVA_NOT_CONFIGURED (404: no application configured), STRAVA_NOT_CONNECTED (409),
 * STRAVA_STATE_INVALID (400), STRAVA_UNAVAILABLE (502), NOT_FOUND (no such proposal),
 * INVALID_ENTRY_TYPE (a proposal without a type confirmed without one), UNAUTHORIZED, FORBIDDEN
 * (not a participant), and the entry codes on confirming.
 */
import Type from 'typebox';

export const StravaMode = Type.Union([Type.Literal('auto'), Type.Literal('confirm')]);
export type StravaMode = Type.Static<typeof StravaMode>;

/** A connection as the account page shows it. Instants ISO-8601 UTC. */
export const StravaConnection = Type.Object({
  athleteId: Type.Integer(),
  athleteName: Type.String(),
  mode: StravaMode,
  status: Type.Union([Type.Literal('connected'), Type.Literal('deauthorized'), Type.Literal('disconnected')]),
  connectedAt: Type.String(),
  lastSyncAt: Type.Union([Type.String(), Type.Null()]),
  /** A catalogue code: the last skipped activity's (STRAVA_ACTIVITY_OUTSIDE_EDITION, …), or null. */
  lastError: Type.Union([Type.String(), Type.Null()]),
  /** Activities skipped since connecting. */
  skipped: Type.Integer({ minimum: 0 }),
});
export type StravaConnection = Type.Static<typeof StravaConnection>;

/** An activity held for the member to confirm. distance km, performedAt YYYY-MM-DD, startedAt ISO-8601 UTC. */
export const StravaProposal = Type.Object({
  activityId: Type.Integer(),
  name: Type.String(),
  sportType: Type.String(),
  entryType: Type.Union([Type.String(), Type.Null()]),
  distance: Type.Number(),
  performedAt: Type.String(),
  startedAt: Type.String(),
});
export type StravaProposal = Type.Static<typeof StravaProposal>;

/** 200 of GET /api/me/strava. */
export const StravaStatusAnswer = Type.Object({
  available: Type.Boolean(),
  connection: Type.Union([StravaConnection, Type.Null()]),
  proposals: Type.Array(StravaProposal),
});
export type StravaStatusAnswer = Type.Static<typeof StravaStatusAnswer>;

export const StravaConnectBody = Type.Object({ mode: StravaMode }, { additionalProperties: false });
export type StravaConnectBody = Type.Static<typeof StravaConnectBody>;

export const StravaConnectAnswer = Type.Object({ authorizeUrl: Type.String() });
export type StravaConnectAnswer = Type.Static<typeof StravaConnectAnswer>;

export const StravaModeBody = Type.Object({ mode: StravaMode }, { additionalProperties: false });
export type StravaModeBody = Type.Static<typeof StravaModeBody>;

export const StravaConnectionAnswer = Type.Object({ connection: StravaConnection });
export type StravaConnectionAnswer = Type.Static<typeof StravaConnectionAnswer>;

export const StravaConfirmBody = Type.Object({ entry_type: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }, { additionalProperties: false });
export type StravaConfirmBody = Type.Static<typeof StravaConfirmBody>;

export const StravaProposalParams = Type.Object({ activityId: Type.String({ pattern: '^[1-9][0-9]{0,17}$' }) });
export type StravaProposalParams = Type.Static<typeof StravaProposalParams>;

/** Strava's webhook event (developers.strava.com/docs/webhooks): the fields we act on. */
export const StravaWebhookEvent = Type.Object({
  object_type: Type.Union([Type.Literal('activity'), Type.Literal('athlete')]),
  object_id: Type.Integer({ minimum: 1 }),
  aspect_type: Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('delete')]),
  owner_id: Type.Integer({ minimum: 1 }),
  subscription_id: Type.Integer(),
  event_time: Type.Integer({ minimum: 0 }),
  updates: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type StravaWebhookEvent = Type.Static<typeof StravaWebhookEvent>;
