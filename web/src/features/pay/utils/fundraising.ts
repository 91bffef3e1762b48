import type { FundraisingAnswer } from '@sinilill/contracts';

import { centsOfEuros } from './amount';

/**
 * What team `teamId` has raised, in EUR cents, from GET /api/fundraising (which answers EUR): its
 * row's total, 0 when it has none (the answer leaves out teams that raised nothing), null without
 * a team.
 */
export function teamRaisedCents(answer: FundraisingAnswer, teamId: number | null): number | null {
  if (teamId === null) return null;
  return centsOfEuros(answer.teams.find((team) => team.teamId === teamId)?.total ?? 0);
}
