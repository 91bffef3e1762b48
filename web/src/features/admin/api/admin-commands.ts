/**
 * The admin console's commands (spec §7 `/admin/*` PUT and POST). Each answers `position`: send
 * it back as x-min-position on the next read (use-admin-list.ts does). Every call throws ApiError:
 * UNAUTHORIZED, FORBIDDEN, NOT_FOUND, INVALID_REQUEST and the codes named below.
 */
import type {
  AdminDeleteEntitiesAnswer,
  AdminSuccessAnswer,
  AdminTeamAnswer,
  AdminTeamBody,
} from '@sinilill/contracts';
import { apiPost, apiPut } from '../../../lib/api-client';
import { batches } from '../utils/edit-forms';

/** PUT /api/admin/user/{id} {is_approved}: approves an account (UUID) or withdraws the approval (spec §4). */
export function setApproval(userId: string, isApproved: boolean): Promise<AdminSuccessAnswer> {
  return apiPut<AdminSuccessAnswer>(`/admin/user/${encodeURIComponent(userId)}`, { is_approved: isApproved });
}

/** PUT /api/admin/participant/{id} {is_paid}: marks the participant's fee paid or not (spec §4). */
export function setPaid(participantId: number, isPaid: boolean): Promise<AdminSuccessAnswer> {
  return apiPut<AdminSuccessAnswer>(`/admin/participant/${participantId}`, { is_paid: isPaid });
}

/** PUT /api/admin/participant/{id} {id, full_name}: corrects the full name (≤ 32 characters, else VALUE_TOO_LONG). */
export function renameParticipant(participantId: number, fullName: string): Promise<AdminSuccessAnswer> {
  return apiPut<AdminSuccessAnswer>(`/admin/participant/${participantId}`, { id: participantId, full_name: fullName });
}

/**
 * PUT /api/admin/team/{id} {id, team_name?, description?, icon?}: the icon a JPEG/PNG data URL
 * (≤ 5 MB) or null to delete it. Also TEAM_NAME_ALREADY_IN_USE, VALUE_TOO_LONG,
 * NOT_ALLOWED_FILE_TYPE, MAX_IMAGE_SIZE.
 */
export function updateTeam(body: AdminTeamBody): Promise<AdminTeamAnswer> {
  return apiPut<AdminTeamAnswer>(`/admin/team/${body.id}`, body);
}

/**
 * An entity kind of PUT /api/admin/deleteentities/{entity} (spec §3 "Entity kind"), as this
 * client spells it (the server takes other spellings too: AdminEntityParams of @sinilill/contracts).
 */
export type AdminEntity = 'user' | 'team' | 'entry';

/**
 * PUT /api/admin/deleteentities/{entity} {ids}: deletes for good (spec §2) — users by UUID (with
 * their participant and entries), teams and entries by number (a team with its members). More
 * than 500 ids go in consecutive calls; answers the total count and the last position. A refusal
 * stops there (the batches before it stay deleted).
 */
export async function deleteEntities(entity: AdminEntity, ids: readonly (string | number)[]): Promise<AdminDeleteEntitiesAnswer> {
  let count = 0;
  let position = 0;
  for (const batch of batches(ids)) {
    const answer = await apiPut<AdminDeleteEntitiesAnswer>(`/admin/deleteentities/${entity}`, { ids: batch });
    count += answer.count;
    position = Math.max(position, answer.position);
  }
  return { success: true, count, position };
}

/**
 * POST /api/admin/resetpassword {userId, newPassword}: sets the account's password (spec §2
 * "Reset password"; ≥ 6 characters, else PASSWORD_TOO_SHORT).
 */
export function resetPassword(userId: string, newPassword: string): Promise<AdminSuccessAnswer> {
  return apiPost<AdminSuccessAnswer>('/admin/resetpassword', { userId, newPassword });
}
