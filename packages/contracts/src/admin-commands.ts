/**
 * The admin console's commands (spec §2 "Admin", §6 Admin row, §7 `/admin/*` PUT and POST).
 * Every route answers only an authenticated ADMIN: 401 UNAUTHORIZED without a valid token, 403
 * FORBIDDEN for anyone else, checked before the body is read. Bodies refuse unknown fields
 * (INVALID_REQUEST). Every answer that appended carries `position` (send it back as
 * x-min-position); 0 when nothing changed.
 */
import Type from 'typebox';
import { EntityName, LooseId } from './loose';
import { MultiLine, SingleLine } from './text';
import { EchoedTeamFields } from './team';

/** A user id (spec §3 "User (admin view)": id), a lower-case UUID. */
export const USER_ID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const UserId = Type.String({ pattern: USER_ID_PATTERN });
const Id = Type.Integer({ minimum: 1 });
const Position = Type.Integer();

/** Path of PUT /api/admin/user/{id}: the user id (UUID). */
export const AdminUserParams = Type.Object({ id: UserId });

/** Role in a request: by name or as spec §3 numbers it (USER 0, ADMIN 1). */
export const RoleInput = Type.Union([Type.Literal('USER'), Type.Literal('ADMIN'), Type.Literal(0), Type.Literal(1)]);
export type RoleInput = Type.Static<typeof RoleInput>;

/** A role sent as a name or a spec §3 number, as its name. */
export function roleName(role: RoleInput): 'USER' | 'ADMIN' {
  return role === 0 ? 'USER' : role === 1 ? 'ADMIN' : role;
}

const NullableString = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()]);
/** A participant as the admin tables show it (spec §3 Participant), when a client sends it back. */
const EchoedParticipant = Type.Object(
  {
    id: Type.Optional(Id),
    // Stored when it differs (a rename): safe text, as every stored name.
    full_name: Type.Optional(Type.Union([SingleLine({ maxLength: 200 }), Type.Null()])),
    is_paid: Type.Optional(Type.Boolean()),
    created_at: Type.Optional(NullableString(40)),
    team: Type.Optional(Type.Union([
      Type.Object({ id: Type.Optional(Id), team_name: Type.Optional(NullableString(200)) }, { additionalProperties: false }),
      Type.Null(),
    ])),
  },
  { additionalProperties: false },
);

/**
 * PUT /api/admin/user/{id}: approve the account or withdraw the approval (spec §4 "Admin may
 * approve"). A client written from the spec may send the whole §3 User (admin view) with it
 *: id (the path's), email, participant_id, role (a name or 0/1), created_at and
 * participant.id are compared with the stored account — different answers 409 FIELD_MISMATCH
 * with `field`; the participant's other fields are changed through /admin/participant and are
 * not compared here. Any other field is INVALID_REQUEST.
 */
export const AdminUserBody = Type.Object(
  {
    is_approved: Type.Boolean(),
    id: Type.Optional(UserId),
    email: Type.Optional(NullableString(264)),
    participant_id: Type.Optional(Type.Union([Id, Type.Null()])),
    role: Type.Optional(RoleInput),
    created_at: Type.Optional(NullableString(40)),
    participant: Type.Optional(Type.Union([EchoedParticipant, Type.Null()])),
  },
  { additionalProperties: false },
);
export type AdminUserBody = Type.Static<typeof AdminUserBody>;

/**
 * PUT /api/admin/participant/{id} (spec §7 "{is_paid} or {id, full_name}"; also takes
 * the whole §3 Participant): `is_paid` marks the participant paid or not (spec §4, §6);
 * `full_name` corrects the name (spec §2 users tab edit modal; at most 32 characters, spec §5 →
 * VALUE_TOO_LONG). At least one of the two (else INVALID_REQUEST). Sent together (a whole
 * Participant), each is applied only where it differs from the stored value. `id` (the path's),
 * `created_at` and `team` ({id, team_name}) are compared with the stored participant: different
 * answers 409 FIELD_MISMATCH with `field`.
 */
export const AdminParticipantBody = EchoedParticipant;
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
    // The rest of a whole §3 Team: join_code and created_at compared (409
    // FIELD_MISMATCH), the figures accepted and not compared (EchoedTeamFields, team.ts).
    join_code: EchoedTeamFields.join_code,
    created_at: EchoedTeamFields.created_at,
    participant_count: EchoedTeamFields.participant_count,
    distance: EchoedTeamFields.distance,
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
/**
 * Path of PUT /api/admin/deleteentities/{entity}: spec §7 "entity user, team or entry", each
 * singular or plural in lower, upper or title case (loose.ts; entityOf gives the one meaning).
 */
export const AdminEntityParams = Type.Object({
  entity: Type.Union([
    EntityName('user', 'users', 'user accounts'),
    EntityName('team', 'teams', 'teams'),
    EntityName('entry', 'entries', 'entries'),
  ], { description: 'user, team or entry; singular or plural, in lower, upper or title case' }),
});
export type AdminEntityParams = Type.Static<typeof AdminEntityParams>;

/**
 * PUT /api/admin/deleteentities/{entity} {ids}: user ids are UUID strings, team and entry ids
 * integers or numeric strings (loose.ts; a kind mismatch → INVALID_REQUEST). Deletion is permanent
 * (spec §2); deleting a user deletes their participant and erases their personal data, while
 * their entries stay in the team's result, as in their own erasure (docs/decisions/0109); deleting a
 * team deletes its members the same way, and its entries, and frees its name. One refused id
 * refuses all.
 */
export const AdminDeleteEntitiesBody = Type.Object(
  {
    ids: Type.Array(Type.Union([UserId, LooseId]), {
      minItems: 1, maxItems: 500, description: 'user ids as UUIDs; team and entry ids as integers or numeric strings',
    }),
  },
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
