/**
 * The admin console's reads (spec §2 "Admin", §3 "User (admin view)", "Team", "Entry", §7
 * GET /admin/userdata, /admin/teamdata, /admin/entrydata). Administrators only: 401
 * UNAUTHORIZED without a valid token, 403 FORBIDDEN for anyone else. Distances in km (teams:
 * rounded whole km, spec §4; entries: two decimals); instants ISO-8601 UTC; dates YYYY-MM-DD
 * (Europe/Tallinn). Personal data (e-mail, names) is null once a person is erased.
 */
import Type from 'typebox';
import { Entry } from './entries';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A user's participant in the users tab (spec §3 "Participant"), with the team's name. */
export const AdminParticipant = Type.Object({
  id: Type.Integer(),
  full_name: Nullable(Type.String()),
  is_paid: Type.Boolean(),
  created_at: Type.String(),
  team: Nullable(Type.Object({ id: Type.Integer(), team_name: Type.String() })),
});
export type AdminParticipant = Type.Static<typeof AdminParticipant>;

/** One account (spec §3 "User (admin view)"); `participant` null for an account without one. */
export const AdminUser = Type.Object({
  /** The account's id (UUID). */
  id: Type.String(),
  email: Nullable(Type.String()),
  is_approved: Type.Boolean(),
  role: Type.Union([Type.Literal('USER'), Type.Literal('ADMIN')]),
  participant_id: Nullable(Type.Integer()),
  created_at: Type.String(),
  participant: Nullable(AdminParticipant),
});
export type AdminUser = Type.Static<typeof AdminUser>;

/** GET /api/admin/userdata: every live account, newest participant first (accounts without one last). */
export const AdminUsersAnswer = Type.Object({ users: Type.Array(AdminUser) });
export type AdminUsersAnswer = Type.Static<typeof AdminUsersAnswer>;

/** One team (spec §3 "Team"). */
export const AdminTeam = Type.Object({
  id: Type.Integer(),
  team_name: Type.String(),
  icon: Nullable(Type.String()),
  description: Type.String(),
  /** Null only for a team whose code the read models lack (never for a registered team). */
  join_code: Nullable(Type.String()),
  participant_count: Type.Integer(),
  /** Rounded km (spec §4). */
  distance: Type.Integer(),
  created_at: Type.String(),
});
export type AdminTeam = Type.Static<typeof AdminTeam>;

/** GET /api/admin/teamdata: every live team, by team name ascending. */
export const AdminTeamsAnswer = Type.Object({ teams: Type.Array(AdminTeam) });
export type AdminTeamsAnswer = Type.Static<typeof AdminTeamsAnswer>;

/** One entry (spec §3 "Entry"; admin rows add participant full_name and team team_name). */
export const AdminEntry = Type.Object({
  ...Entry.properties,
  participant: Type.Object({ full_name: Nullable(Type.String()) }),
  team: Type.Object({ team_name: Nullable(Type.String()) }),
});
export type AdminEntry = Type.Static<typeof AdminEntry>;

/** GET /api/admin/entrydata: every live entry, newest created first. */
export const AdminEntriesAnswer = Type.Object({ entries: Type.Array(AdminEntry) });
export type AdminEntriesAnswer = Type.Static<typeof AdminEntriesAnswer>;
