/**
 * Whether the server would take a new password (POST /api/passwordstrength: its PASSWORD_TOO_WEAK
 * rule, zxcvbn score ≥ 2 judged with the person's e-mail, name and team name). Asked from the
 * server rather than judged here: the same rule in one place, and zxcvbn's dictionaries (~800 KB)
 * stay out of the bundle (docs/decisions/0059).
 */
import type { PasswordStrengthAnswer, PasswordStrengthBody } from '@sinilill/contracts';
import { apiPost } from './api-client';

/**
 * True when strong enough, false when too easy to guess, null when the check could not be made
 * (network, rate limit): the form then goes on and the server judges at submission.
 */
export async function isStrongPassword(body: PasswordStrengthBody): Promise<boolean | null> {
  try {
    return (await apiPost<PasswordStrengthAnswer>('/passwordstrength', body)).strong;
  } catch {
    return null;
  }
}
