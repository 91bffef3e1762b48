/**
 * Stream names of the timelines the history tab opens from a typed number (packages/domain
 * events.ts `streams`): `team-12`, `participant-34`.
 */
import { streams } from '@sinilill/domain';

/** The stream of team `id` (`team-12`); `id` as the form holds it (digits, checked by the caller). */
export function teamStream(id: string): string {
  return streams.team(Number(id.trim()));
}

/** The stream of participant `id` (`participant-34`). */
export function participantStream(id: string): string {
  return streams.participant(Number(id.trim()));
}
