import type { ActingUser } from './decider';

/**
 * True for the actors the global switches and the late-entry deadline do not bind, and who may
 * act on any team: administrators (spec §6) and the system itself (imports, operators' tools).
 */
export function isPrivileged(actor: ActingUser): boolean {
  return actor.role === 'ADMIN' || actor.role === 'SYSTEM';
}

/**
 * True when `actor` may act on the team's data (entries): a privileged actor, or a participant
 * whose own team is `teamId` (spec §6: team members add, edit and delete their team's entries).
 */
export function mayActForTeam(actor: ActingUser, teamId: number | null): boolean {
  if (isPrivileged(actor)) return true;
  return actor.role === 'USER' && actor.teamId !== null && teamId !== null && actor.teamId === teamId;
}
