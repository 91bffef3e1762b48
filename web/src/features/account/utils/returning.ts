/**
 * Whom the account page invites to the edition taking registrations: a person whose
 * participant belongs to an earlier edition (a person takes part in each edition as a new
 * participant with the same account). The session names the participant's team; a team belongs
 * to the edition in whose registration window it was registered, and editions' windows never
 * overlap (the server refuses overlapping dates), so a team registered before the current
 * edition's registration opened (on its local calendar) is an earlier edition's.
 */
import { localDate } from '@sinilill/domain';
import type { EditionsAnswer, EditionView } from '../../../lib/edition';

/** What the page knows of the session: its participant and team, and whether it is an admin's. */
export interface ReturningSession {
  participantId: number | null;
  teamId: number | null;
  isAdmin: boolean;
}

/**
 * The edition the person may join now, or null: none takes registrations, the session has no
 * participant or team (nothing to carry over), it is an administrator's, its team is not known
 * yet, or the team was registered in the current edition already.
 *
 * @param teamCreatedAt the session's team's registration instant (ISO-8601), undefined while unknown
 */
export function joinableEdition(editions: EditionsAnswer | undefined, session: ReturningSession, teamCreatedAt: string | undefined): EditionView | null {
  const current = editions?.current ?? null;
  if (!current || !current.registrationOpen || current.status !== 'opened') return null;
  if (session.isAdmin || session.participantId === null || session.teamId === null || teamCreatedAt === undefined) return null;
  let registered: string;
  try {
    registered = localDate(teamCreatedAt, current.edition.timeZone);
  } catch {
    return null; // not an instant: better no offer than a wrong one
  }
  return registered < current.edition.registrationOpens ? current : null;
}
