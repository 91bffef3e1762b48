/**
 * Who may read a team's page (spec §6 "team member: team page"; admins see every team):
 * the team's own members and administrators. The query side reads the actor's team from the read
 * models (rm.team_members), never from the token's `teamId` claim, which is only for display
 * (docs/decisions/0008, 0012): a stale or forged claim grants nothing.
 */
import { sql, type Kysely } from 'kysely';
import { DomainError, isPrivileged, isUserId, mayActForTeam, streams, type ActingUser } from '@sinilill/domain';
import type { EventStore } from '@sinilill/event-store';
import type { ReadModelDatabase } from '@sinilill/read-models';

/**
 * Every participant an account has been (ids ascending): a person takes part in each edition as a
 * new participant, and the account's stream names each (its registration's participant, and each
 * later edition's it joined).
 */
export type AccountParticipants = (userId: string) => Promise<readonly number[]>;

/** AccountParticipants read from the account's stream `user-{uuid}`: every participantId its events name. */
export function accountParticipantsFromLog(store: Pick<EventStore, 'readStream'>): AccountParticipants {
  return async (userId) => {
    const ids = new Set<number>();
    for (const event of await store.readStream(streams.user(userId))) {
      const { participantId } = event.data as { participantId?: unknown };
      if (typeof participantId === 'number') ids.add(participantId);
    }
    return [...ids].sort((a, b) => a - b);
  };
}

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
 * A member of the team reads it: the participant the session names, or, with `participantsOf`,
 * any earlier participant of the same account (a team of a past edition stays its members' to
 * read after they joined a later one). A non-member gets FORBIDDEN whether or not the team exists,
 * so the answer reveals nothing about other teams; an administrator asking for a team the read
 * models do not know gets NOT_FOUND (a member's team exists: their membership row came from it).
 * @throws DomainError FORBIDDEN (neither a member nor an admin), NOT_FOUND (admin, unknown team).
 */
export async function requireTeamAccess(
  db: Kysely<ReadModelDatabase>, actor: ActingUser, teamId: number, participantsOf?: AccountParticipants,
): Promise<void> {
  if (!mayActForTeam(actor, teamId)) {
    if (participantsOf && actor.role === 'USER' && isUserId(actor.userId) && await wasMember(db, await participantsOf(actor.userId), teamId)) return;
    throw new DomainError('FORBIDDEN', `not a member of team ${teamId}`);
  }
  if (!isPrivileged(actor)) return;
  const team = await db.withSchema('rm').selectFrom('team_stats').select('team_id')
    .where('team_id', '=', teamId).executeTakeFirst();
  if (!team) throw new DomainError('NOT_FOUND', `team ${teamId}`);
}

/** True when one of `participantIds` is a member of team `teamId` (rm.team_members). */
async function wasMember(db: Kysely<ReadModelDatabase>, participantIds: readonly number[], teamId: number): Promise<boolean> {
  if (participantIds.length === 0) return false;
  const row = await db.withSchema('rm').selectFrom('team_members').select('participant_id')
    .where('team_id', '=', teamId).where('participant_id', '=', sql<number>`any(${[...participantIds]}::int[])`).executeTakeFirst();
  return row !== undefined;
}
