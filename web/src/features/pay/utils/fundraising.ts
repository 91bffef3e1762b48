import type { FundraisingAnswer } from '@sinilill/contracts';

/**
 * What team `teamId` has raised, in EUR cents, from GET /api/fundraising: its row's totalCents,
 * 0 when it has none (the answer leaves out teams that raised nothing), null without a team.
 */
export function teamRaisedCents(answer: FundraisingAnswer, teamId: number | null): number | null {
  if (teamId === null) return null;
  return answer.teams.find((team) => team.teamId === teamId)?.totalCents ?? 0;
}
