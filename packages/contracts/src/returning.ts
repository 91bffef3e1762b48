/**
 * Returning participants (docs/decisions/0083): a person with an account from an earlier edition
 * joins the edition taking registrations in one step, and a re-opened team invites its earlier
 * members back.
 *
 * - POST /api/me/editions/{year}/join (command API; a logged-in USER): JoinEditionBody → 201
 *   JoinEditionAnswer. A new participant of the edition with the profile of the person's latest
 *   one (name, e-mail, birth year, gender, newsletter choice); the fee is the new edition's. The
 *   session is renewed as a login renews it: a new refresh cookie, and `token`, a new access
 *   token naming the new participant and team (the account's earlier tokens stop working).
 *   Refusals: REGISTRATION_NOT_OPEN (`year` is not the edition taking registrations now),
 *   ALREADY_EXISTS (the person takes part in it already), TEAM_NAME_ALREADY_IN_USE (the name is
 *   taken in that edition; other editions' names are free), INVALID_JOIN_CODE / JOIN_CODE_EXPIRED
 *   (not a live code of a team of that edition), FORBIDDEN (reopenTeam of a team the person was
 *   not in), NOT_FOUND (reopenTeam of an unknown or deleted team), INVALID_REQUEST.
 * - POST /api/team/{id}/invite-returning (command API; a member of team {id}, or an
 *   administrator): the team must continue an earlier team (it was re-opened); every member of
 *   the earlier team who has not joined the new edition gets a mail in their language with the
 *   new team's join code and a login link. Answers InviteReturningAnswer.
 */
import Type from 'typebox';
import { SingleLine } from './text';

/** POST /api/me/editions/{year}/join: the edition's year. */
export const JoinEditionParams = Type.Object({ year: Type.String({ pattern: '^[0-9]{4}$' }) });
export type JoinEditionParams = Type.Static<typeof JoinEditionParams>;

/** POST /api/me/editions/{year}/join: how the person joins. */
export const JoinEditionBody = Type.Union([
  Type.Object({ mode: Type.Literal('newTeam'), teamName: SingleLine(), company: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  Type.Object({ mode: Type.Literal('joinCode'), joinCode: SingleLine() }, { additionalProperties: false }),
  Type.Object({ mode: Type.Literal('reopenTeam'), teamId: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
]);
export type JoinEditionBody = Type.Static<typeof JoinEditionBody>;

/** 201 of POST /api/me/editions/{year}/join. */
export const JoinEditionAnswer = Type.Object({
  participantId: Type.Integer(),
  teamId: Type.Integer(),
  /** The new team's join code (newTeam, reopenTeam); null when the person joined a team by its code. */
  joinCode: Type.Union([Type.String(), Type.Null()]),
  /** A new access token (spec §3 claims) naming the new participant and team. */
  token: Type.String(),
  /** Global position of the join's last event (read-your-writes: x-min-position). */
  position: Type.Integer(),
});
export type JoinEditionAnswer = Type.Static<typeof JoinEditionAnswer>;

/** 200 of POST /api/team/{id}/invite-returning: how many earlier members were mailed. */
export const InviteReturningAnswer = Type.Object({ invited: Type.Integer({ minimum: 0 }) });
export type InviteReturningAnswer = Type.Static<typeof InviteReturningAnswer>;
