/**
 * A returning participant's calls (the editions themselves come from lib/edition.ts, GET
 * /api/editions): GET /api/team/{id} (the session's team, for its name and when
 * it was registered), POST /api/me/editions/{year}/join (the person takes part in the edition
 * taking registrations with the same account: a new team, a join code, or last year's team
 * re-opened) and POST /api/team/{id}/invite-returning (mails last year's members who have not
 * joined yet the new team's join code). Every call throws ApiError: UNAUTHORIZED, FORBIDDEN,
 * NOT_FOUND, INVALID_REQUEST and the codes named below.
 */
import type { InviteReturningAnswer, JoinEditionAnswer, JoinEditionBody, TeamAnswer } from '@sinilill/contracts';
import { API_BASE, apiGet, apiPost } from '../../../lib/api-client';
import { minPositionHeaders } from '../../../lib/read-your-writes';

/** GET /api/team/{id}: a team the caller is (or was) a member of. */
export function getTeam(teamId: number, signal?: AbortSignal): Promise<TeamAnswer> {
  return apiGet<TeamAnswer>(`/team/${teamId}`, signal ? { signal } : {});
}

export type { JoinEditionAnswer, JoinEditionBody };

/**
 * POST /api/me/editions/{year}/join. Also REGISTRATION_NOT_OPEN (not the edition taking
 * registrations), ALREADY_EXISTS (the person takes part already), INVALID_JOIN_CODE and
 * JOIN_CODE_EXPIRED (not a live code of a team of this edition), TEAM_NAME_ALREADY_IN_USE,
 * VALUE_TOO_LONG. The answer's token names the new participant and team.
 */
export function joinEdition(year: number, body: JoinEditionBody): Promise<JoinEditionAnswer> {
  return apiPost<JoinEditionAnswer>(`/me/editions/${year}/join`, body);
}

/** POST /api/team/{id}/invite-returning: how many of last year's members were mailed. */
export function inviteReturning(teamId: number): Promise<InviteReturningAnswer> {
  return apiPost<InviteReturningAnswer>(`/team/${teamId}/invite-returning`, {});
}

/**
 * Resolves once the read side shows the joined team: GET /api/team/{id} with the join's new
 * token and its position as x-min-position (the query API answers once the team's read models
 * have reached it). Until then a read of the new team could be refused (403, which ends a
 * session, spec §4), so the session takes the new token only after this. Sent with fetch, not
 * apiGet: the session still holds the old token, which the join has ended. Never rejects; a
 * failure leaves the reads to find out for themselves.
 */
export async function untilTeamReadable(teamId: number, token: string, position: number): Promise<void> {
  try {
    await fetch(`${API_BASE}/team/${teamId}`, {
      headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...minPositionHeaders(position) },
      cache: 'no-store',
    });
  } catch {
    // The network: the pages' own reads will say so.
  }
}
