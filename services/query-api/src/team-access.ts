/**
 * Who may read a team's page (spec §6 "team member: team page"; admins see every team):
 * the team's own members and administrators. The query side reads the actor's team from the read
 * models (rm.team_members), never from the token's `teamId` claim, which is only for display
 * (docs/decisions/0008, 0012): a stale or forged claim grants nothing.
 */
import type { Kysely } from 'kysely';
import { DomainError, isPrivileged, mayActForTeam, type ActingUser } from '@sinilill/domain';
import type { ReadModelDatabase } from '@sinilill/read-models';

/**
 * The acting user with the team the read models know for their participant: a USER's team is
 * their row in rm.team_members (none there: no team, teamId null); an ADMIN's is null (an admin
 * reads any team by role, not by membership). Used as authPlugin's `resolveActor`.
 */
export async function resolveActorFromReadModels(db: Kysely<ReadModelDatabase>, actor: ActingUser): Promise<ActingUser> {
  if (actor.role !== 'USER' || actor.participantId === null) return { ...actor, teamId: null };
  const row = await db.withSchema('rm').selectFrom('team_members').select('team_id')
    .where('participant_id', '=', actor.participantId).executeTakeFirst();
  return { ...actor, teamId: row?.team_id ?? null };
}

/**
 * Allows `actor` to read team `teamId`, or throws.
 *
 * A non-member gets FORBIDDEN whether or not the team exists, so the answer reveals nothing about
 * other teams; an administrator asking for a team the read models do not know gets NOT_FOUND (a
 * member's team exists: their membership row came from it).
 * @throws DomainError FORBIDDEN (neither a member nor an admin), NOT_FOUND (admin, unknown team).
 */
export async function requireTeamAccess(db: Kysely<ReadModelDatabase>, actor: ActingUser, teamId: number): Promise<void> {
  if (!mayActForTeam(actor, teamId)) throw new DomainError('FORBIDDEN', `not a member of team ${teamId}`);
  if (!isPrivileged(actor)) return;
  const team = await db.withSchema('rm').selectFrom('team_stats').select('team_id')
    .where('team_id', '=', teamId).executeTakeFirst();
  if (!team) throw new DomainError('NOT_FOUND', `team ${teamId}`);
}
