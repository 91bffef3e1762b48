/**
 * A participant erases their own account (POST /api/me/erase): the
 * administrator's deletion of that user (deletion.ts deleteUsers, one atomic append of UserDeleted
 * and ParticipantDeleted, the account tables erased in the same transaction, the key of subject
 * `participant-{id}` destroyed after the commit: docs/decisions/0002 crypto-shredding), with two differences:
 * the actor is the participant themself (the events' metadata name them), and the deciders check
 * the password's verdict (DeleteUser `ownPasswordValid`, INVALID_PASSWORD). The entries stay in
 * both (docs/decisions/0109), so the team keeps its kilometres; they read as a deleted person's
 * from then on.
 *
 * The person is erased in every edition they took part in: each participant of the account
 * (AccountState.participantIds, one per edition) is deleted and each one's key destroyed, so the
 * teams of earlier editions keep their kilometres without the name too.
 */
import { DomainError, isUserId } from '@sinilill/domain';
import { verifyPassword } from '../account/secrets';
import type { CommandRequest } from '../metadata';
import { required, type CommandServiceDependencies } from '../context';
import { deleteUsers } from './handlers';

/**
 * Erases the acting user's own account after checking `password` against its argon2id hash
 * (the same check as the password change). A captain is erased like any member: the team stays,
 * as when an administrator deletes a captain. Every session of the account ends in the append's
 * transaction (AccountTransaction.eraseAccount), so the caller's token is refused from then on.
 * Idempotent by command id, as deleteUsers.
 * @returns the position of the append.
 * @throws DomainError UNAUTHORIZED (no account in the token), INVALID_PASSWORD (wrong password, or
 *   an account without one), FORBIDDEN (an administrator account; a participant id in the token
 *   that is not the account's), NOT_FOUND (already deleted). Error when `directory` is not wired.
 */
export async function eraseOwnAccount(
  deps: CommandServiceDependencies,
  password: string,
  request: CommandRequest,
): Promise<{ position: number }> {
  const userId = request.actor.userId;
  if (!isUserId(userId)) throw new DomainError('UNAUTHORIZED', 'not an account');
  const directory = required(deps.directory, 'directory', 'to check the password of an erasure');
  const hash = await directory.passwordHash(userId);
  const ownPasswordValid = hash !== null && (await verifyPassword(hash, password));
  const { position } = await deleteUsers(deps, [userId], request, { ownPasswordValid });
  return { position };
}
