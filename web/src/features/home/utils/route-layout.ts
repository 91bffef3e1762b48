/**
 * Geometry of the home page's progress bar (spec §2 "Home", §4, §9), in percent of the bar so
 * that CSS does the pixels: mission segments proportional to their km, a flower marker at each
 * mission end, team dots across by in-lap distance and up by team size.
 */

/** Horizontal position of `km` on a lap of `lapLength` km, 0–100 (clamped). */
export function percentOfLap(km: number, lapLength: number): number {
  if (!(lapLength > 0)) return 0;
  return Math.min(100, Math.max(0, (km / lapLength) * 100));
}

/** Team-dot rule of spec §9: `percentPerParticipant` per member, counting at most `maxParticipants`. */
export interface TeamDotRule {
  percentPerParticipant: number;
  maxParticipants: number;
}

/** Height of a team's dot, 0–100: `percentPerParticipant` per member, at most `maxParticipants` counted. */
export function teamDotHeight(participants: number, rule: TeamDotRule): number {
  return Math.min(Math.max(0, participants), rule.maxParticipants) * rule.percentPerParticipant;
}

/** Where a team's dot sits: `left` = inLapDistance / lapLength, `bottom` = 5 % per member up to 13. */
export function teamDotPosition(
  team: { inLapDistance: number; participants: number },
  lapLength: number,
  rule: TeamDotRule,
): { leftPercent: number; bottomPercent: number } {
  return {
    leftPercent: percentOfLap(team.inLapDistance, lapLength),
    bottomPercent: teamDotHeight(team.participants, rule),
  };
}

/** Position of `km` inside a span `[start, end]`, 0–100 (for the close-up of one mission). */
export function percentOfSpan(km: number, span: { start: number; end: number }): number {
  return percentOfLap(km - span.start, span.end - span.start);
}
