import type { RegistrationBody, SuccessAnswer } from '@sinilill/contracts';
import { apiPost } from '../../../lib/api-client';

/**
 * POST /api/registerteam (a new team and its captain) or POST /api/jointeam (a member joining
 * with a join code), by the payload's type (spec §7). Throws ApiError with a catalogue code, e.g.
 * EMAIL_ALREADY_IN_USE, TEAM_NAME_ALREADY_IN_USE, INVALID_JOIN_CODE, JOIN_CODE_EXPIRED,
 * REGISTRATION_DISABLED.
 */
export function register(body: RegistrationBody): Promise<SuccessAnswer> {
  return apiPost<SuccessAnswer>(body.type === 'REGISTER_TEAM' ? '/registerteam' : '/jointeam', body);
}
