import type { TeamStat } from '@sinilill/contracts';

/** One row of the participants page's teams table (spec §2 "Participants"). */
export interface TeamRow {
  /** The team id as text: the table's row id (`data-row-id`, test ids). */
  id: string;
  name: string;
  /** Picture URL or data URL; null for the default flower (an empty string counts as none). */
  icon: string | null;
  /** The team's own text, trimmed; '' when it has written none (the page shows a default). */
  description: string;
  /** Rounded total km. */
  distance: number;
  /** Members ("teammates"). */
  participants: number;
  blueFlowers: number;
  /** Money the team raised, EUR cents (fees and donations; 0 when the answer has none). */
  raised: number;
  /** Paid fees of unknown amount: above 0, `raised` is "at least". */
  raisedUnknown: number;
}

/**
 * The table's rows from GET /api/stats/teams' `rows` (spec §3 "Team stat entry", as in GET
 * /api/stats' `teams`), in the answer's order (the server sorts). A description of only spaces
 * counts as none.
 */
export function teamRows(teams: readonly TeamStat[]): TeamRow[] {
  return teams.map(({ team, distance, participants, blueFlowers, raised_cents, raised_unknown_count }) => ({
    id: String(team.id),
    name: team.team_name,
    icon: team.icon === null || team.icon.trim() === '' ? null : team.icon,
    description: team.description.trim(),
    distance,
    participants,
    blueFlowers,
    raised: raised_cents ?? 0,
    raisedUnknown: raised_unknown_count ?? 0,
  }));
}
