/**
 * A returning participant's calls: GET /api/editions (public: the current edition, the next one
 * and the archive, drafts never), GET /api/team/{id} (the session's team, for its name and when
 * it was registered), POST /api/me/editions/{year}/join (the person takes part in the edition
 * taking registrations with the same account: a new team, a join code, or last year's team
 * re-opened) and POST /api/team/{id}/invite-returning (mails last year's members who have not
 * joined yet the new team's join code). Every call throws ApiError: UNAUTHORIZED, FORBIDDEN,
 * NOT_FOUND, INVALID_REQUEST and the codes named below.
 */
import type { TeamAnswer } from '@sinilill/contracts';
import type { Edition, EditionLifePhase } from '@sinilill/domain';
import { apiGet, apiPost } from '../../../lib/api-client';

/** One edition as GET /api/editions shows it. */
export interface PublicEditionView {
  year: number;
  status: 'planned' | 'opened' | 'closed';
  phase: EditionLifePhase;
  /** True while teams and participants may register (registration day reached, entries still open). */
  registrationOpen: boolean;
  /** The edition's local day at the server's clock, YYYY-MM-DD. */
  today: string;
  edition: Edition;
}

/** GET /api/editions. */
export interface EditionsAnswer {
  now: string;
  current: PublicEditionView | null;
  next: PublicEditionView | null;
  archive: PublicEditionView[];
}

/** The cache key of GET /api/editions. */
export const EDITIONS_KEY = ['editions'] as const;

export function getEditions(signal?: AbortSignal): Promise<EditionsAnswer> {
  return apiGet<EditionsAnswer>('/editions', signal ? { signal } : {});
}

/** GET /api/team/{id}: a team the caller is (or was) a member of. */
export function getTeam(teamId: number, signal?: AbortSignal): Promise<TeamAnswer> {
  return apiGet<TeamAnswer>(`/team/${teamId}`, signal ? { signal } : {});
}

/** The three ways of joining an edition (the body of POST /api/me/editions/{year}/join). */
export type JoinEditionBody =
  | { mode: 'newTeam'; teamName: string; company?: boolean }
  | { mode: 'joinCode'; joinCode: string }
  | { mode: 'reopenTeam'; teamId: number };

/** 201 of the join: the new participant and team; the team's join code (null: not the caller's to see). */
export interface JoinEditionAnswer {
  participantId: number;
  teamId: number;
  joinCode: string | null;
  /** A new access token when the server answers one (else the session is refreshed). */
  token?: string;
}

/**
 * POST /api/me/editions/{year}/join. Also REGISTRATION_NOT_OPEN (not the edition taking
 * registrations), ALREADY_EXISTS (the person takes part already), INVALID_JOIN_CODE (no team of
 * this edition has that code), TEAM_NAME_ALREADY_IN_USE, VALUE_TOO_LONG.
 */
export function joinEdition(year: number, body: JoinEditionBody): Promise<JoinEditionAnswer> {
  return apiPost<JoinEditionAnswer>(`/me/editions/${year}/join`, body);
}

/** POST /api/team/{id}/invite-returning: how many of last year's members were mailed. */
export function inviteReturning(teamId: number): Promise<{ invited: number }> {
  return apiPost<{ invited: number }>(`/team/${teamId}/invite-returning`, {});
}
