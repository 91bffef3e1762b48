import type { TeamStat } from '@sinilill/contracts';

/**
 * The three orders of the home page's top teams (spec §2 "Home", §9 "Ranking"):
 * 0 = distance per member (default), 1 = blue flowers, 2 = today's distance per member.
 */
export type SortOrder = 0 | 1 | 2;
export const SORT_ORDERS: readonly SortOrder[] = [0, 1, 2];
export const DEFAULT_SORT_ORDER: SortOrder = 0;

/** `km / members`; a team without members has 0 per member, not NaN. */
export function perMember(km: number, participants: number): number {
  return participants > 0 ? km / participants : 0;
}

/** The figure a team is ranked by in `order`: km per member, flowers, or today's km per member. */
export function sortFigure(team: TeamStat, order: SortOrder): number {
  switch (order) {
    case 0:
      return perMember(team.distance, team.participants);
    case 1:
      return team.blueFlowers;
    case 2:
      return perMember(team.dailyDistance, team.participants);
  }
}

const byName = new Intl.Collator('et', { sensitivity: 'base' });

/**
 * The teams, best first by `sortFigure(order)`. Ties (common: everyone has 0 km today after
 * the event) fall back to total distance, then name in Estonian alphabetical order, then id,
 * so the order is the same on every load. Does not modify `teams`.
 */
export function sortTeams(teams: readonly TeamStat[], order: SortOrder): TeamStat[] {
  return [...teams].sort(
    (a, b) =>
      sortFigure(b, order) - sortFigure(a, order) ||
      b.distance - a.distance ||
      byName.compare(a.team.team_name, b.team.team_name) ||
      a.team.id - b.team.id,
  );
}

/** The first `count` teams of `sortTeams(teams, order)`. */
export function topTeams(teams: readonly TeamStat[], order: SortOrder, count: number): TeamStat[] {
  return sortTeams(teams, order).slice(0, Math.max(0, count));
}
