/**
 * The session identity carried in a login token's claims (spec §3): the web client decodes it
 * without verification for display; the server verifies it (HS256) before trusting it.
 */
import Type from 'typebox';

export const Role = Type.Union([Type.Literal('USER'), Type.Literal('ADMIN')]);
export type Role = Type.Static<typeof Role>;

export const SessionClaims = Type.Object({
  userId: Type.String(),
  fullName: Type.String(),
  is_approved: Type.Boolean(),
  participantId: Type.Union([Type.Integer(), Type.Null()]),
  teamId: Type.Union([Type.Integer(), Type.Null()]),
  role: Role,
  isPaid: Type.Boolean(),
});
export type SessionClaims = Type.Static<typeof SessionClaims>;
