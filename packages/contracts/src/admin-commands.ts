/**
 * The admin console's commands (spec §2 "Admin", §6 Admin row, §7 `/admin/*` PUT and POST).
 * Every route answers only an authenticated ADMIN: 401 UNAUTHORIZED without a valid token, 403
 * FORBIDDEN for anyone else, checked before the body is read. Bodies refuse unknown fields
 * (INVALID_REQUEST). Every answer that appended carries `position` (send it back as
 * x-min-position); 0 when nothing changed.
 */
import Type from 'typebox';
import { MultiLine, SingleLine } from './text';

/** A user id (spec §3 "User (admin view)": id), a lower-case UUID. */
export const USER_ID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const UserId = Type.String({ pattern: USER_ID_PATTERN });
const Id = Type.Integer({ minimum: 1 });
const Position = Type.Integer();

/** Path of PUT /api/admin/user/{id}: the user id (UUID). */
export const AdminUserParams = Type.Object({ id: UserId });

/** PUT /api/admin/user/{id}: approve the account or withdraw the approval (spec §4 "Admin may approve"). */
export const AdminUserBody = Type.Object({ is_approved: Type.Boolean() }, { additionalProperties: false });
export type AdminUserBody = Type.Static<typeof AdminUserBody>;

/** PUT /api/admin/participant/{id} {is_paid}: mark the participant paid or not (spec §4, §6). */
export const AdminPaymentBody = Type.Object({ is_paid: Type.Boolean() }, { additionalProperties: false });
/**
 * PUT /api/admin/participant/{id} {id, full_name}: correct the full name (spec §2 users tab edit
 * modal; at most 32 characters, spec §5 → VALUE_TOO_LONG). `id` must equal the path's id.
 */
export const AdminRenameParticipantBody = Type.Object(
  { id: Id, full_name: SingleLine({ maxLength: 200 }) },
  { additionalProperties: false },
);
/** PUT /api/admin/participant/{id}: one of the two shapes of spec §7. */
export const AdminParticipantBody = Type.Union([AdminPaymentBody, AdminRenameParticipantBody]);
export type AdminParticipantBody = Type.Static<typeof AdminParticipantBody>;

/**
 * PUT /api/admin/team/{id} (spec §7 {id, team_name, description, icon}); absent fields stay.
 * team_name: unique (TEAM_NAME_ALREADY_IN_USE), at most 50; description at most 256; icon: a data
 * URL of a JPEG or PNG (≤ 5 MB, as PUT /team/{id}/publicattributes), null to delete the image
 * (spec §2 "delete-image button"), or the current reference sent back unchanged. `id` must equal
 * the path's id. Body limit: PUBLIC_ATTRIBUTES_BODY_LIMIT.
 */
export const AdminTeamBody = Type.Object(
  {
    id: Id,
    team_name: Type.Optional(SingleLine({ maxLength: 200 })),
    description: Type.Optional(MultiLine()),
    icon: Type.Optional(Type.Union([SingleLine(), Type.Null()])),
  },
  { additionalProperties: false },
);
export type AdminTeamBody = Type.Static<typeof AdminTeamBody>;

export const AdminTeamAnswer = Type.Object({
  success: Type.Boolean(),
  team: Type.Object({
    id: Type.Integer(),
    team_name: Type.String(),
    description: Type.String(),
    icon: Type.Union([Type.String(), Type.Null()]),
  }),
  position: Position,
});
export type AdminTeamAnswer = Type.Static<typeof AdminTeamAnswer>;

/** The entity kinds of PUT /api/admin/deleteentities/{entity} (spec §3 "Entity kind"). */
export const AdminEntityParams = Type.Object({ entity: Type.Union([Type.Literal('user'), Type.Literal('team'), Type.Literal('entry')]) });
export type AdminEntityParams = Type.Static<typeof AdminEntityParams>;

/**
 * PUT /api/admin/deleteentities/{entity} {ids}: user ids are UUID strings, team and entry ids
 * integers (a kind mismatch → INVALID_REQUEST). Deletion is permanent (spec §2); deleting a user
 * deletes their participant and entries and erases their personal data; deleting a team deletes
 * its members the same way and frees its name. One refused id refuses all.
 */
export const AdminDeleteEntitiesBody = Type.Object(
  { ids: Type.Array(Type.Union([UserId, Id]), { minItems: 1, maxItems: 500 }) },
  { additionalProperties: false },
);
export type AdminDeleteEntitiesBody = Type.Static<typeof AdminDeleteEntitiesBody>;

export const AdminDeleteEntitiesAnswer = Type.Object({ success: Type.Boolean(), count: Type.Integer(), position: Position });
export type AdminDeleteEntitiesAnswer = Type.Static<typeof AdminDeleteEntitiesAnswer>;

/**
 * POST /api/admin/resetpassword {userId, newPassword}: the browser generated the password (spec
 * §2); at least 6 characters (PASSWORD_TOO_SHORT), at most 128.
 */
export const AdminResetPasswordBody = Type.Object(
  { userId: UserId, newPassword: SingleLine({ maxLength: 1024 }) },
  { additionalProperties: false },
);
export type AdminResetPasswordBody = Type.Static<typeof AdminResetPasswordBody>;

/** PUT /api/admin/settings: the global switches (spec §4); absent switches stay. */
export const AdminSettingsBody = Type.Object(
  { registrationEnabled: Type.Optional(Type.Boolean()), entryInsertionEnabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type AdminSettingsBody = Type.Static<typeof AdminSettingsBody>;

/** The answer of the admin commands without a body of their own. */
export const AdminSuccessAnswer = Type.Object({ success: Type.Boolean(), position: Position });
export type AdminSuccessAnswer = Type.Static<typeof AdminSuccessAnswer>;
