/**
 * Geometry of the home page's progress bar (spec §2 "Home", §4, §9), in percent of the bar so
 * that CSS does the pixels: mission segments as wide as their km, except that none is narrower
 * than a usable target (WCAG 2.2 target size: the shortest missions were 3 px wide); a flower
 * marker at each mission end, team dots across by in-lap distance inside their mission's
 * segment and up by team size.
 */

/** Horizontal position of `km` on a lap of `lapLength` km, 0–100 (clamped). */
export function percentOfLap(km: number, lapLength: number): number {
  if (!(lapLength > 0)) return 0;
  return Math.min(100, Math.max(0, (km / lapLength) * 100));
}

/** A mission's stretch of the lap, km. */
export interface Span {
  start: number;
  end: number;
}

/** The bar's layout: each mission's segment, `left` and `width` in percent of the bar. */
export interface MissionBar {
  spans: readonly Span[];
  segments: readonly { left: number; width: number }[];
}

/**
 * Lays the missions out on the bar: each segment's width is its share of the km, but at least
 * `minWidthPercent`; the missions that need no widening share the rest in proportion to their
 * km. When the minimum leaves no room for proportions, every segment is equally wide.
 */
export function missionBar(spans: readonly Span[], minWidthPercent: number): MissionBar {
  const lengths = spans.map((span) => Math.max(0, span.end - span.start));
  const count = spans.length;
  let widths: number[];
  if (count === 0) widths = [];
  else if (count * minWidthPercent >= 100 || lengths.every((length) => length === 0)) widths = spans.map(() => 100 / count);
  else {
    // Widen the short ones to the minimum, share the rest among the others; repeat while the
    // sharing makes another one too short (at most once per mission).
    const widened = new Set<number>();
    for (;;) {
      const free = 100 - widened.size * minWidthPercent;
      const km = lengths.reduce((sum, length, index) => (widened.has(index) ? sum : sum + length), 0);
      const next = lengths.map((length, index) => (widened.has(index) ? minWidthPercent : km > 0 ? (length / km) * free : 0));
      const short = next.flatMap((width, index) => (!widened.has(index) && width < minWidthPercent ? [index] : []));
      if (short.length === 0) {
        widths = next;
        break;
      }
      for (const index of short) widened.add(index);
    }
  }
  let left = 0;
  const segments = widths.map((width) => {
    const segment = { left, width };
    left += width;
    return segment;
  });
  return { spans, segments };
}

/**
 * Where `km` lies on the bar, 0–100: inside its mission's segment in proportion to the km
 * (clamped to the bar; the end of a mission is the start of the next one's segment).
 */
export function barPercent(km: number, bar: MissionBar): number {
  const first = bar.spans[0];
  const last = bar.spans[bar.spans.length - 1];
  if (!first || !last || !(km > first.start)) return 0;
  if (km >= last.end) return 100;
  const index = bar.spans.findIndex((span) => km < span.end);
  const span = bar.spans[index]!;
  const segment = bar.segments[index]!;
  const inside = span.end > span.start ? (km - span.start) / (span.end - span.start) : 0;
  return Math.min(100, Math.max(0, segment.left + Math.max(0, inside) * segment.width));
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

/** Where a team's dot sits: `left` its in-lap distance on the bar, `bottom` 5 % per member up to 13. */
export function teamDotPosition(
  team: { inLapDistance: number; participants: number },
  bar: MissionBar,
  rule: TeamDotRule,
): { leftPercent: number; bottomPercent: number } {
  return {
    leftPercent: barPercent(team.inLapDistance, bar),
    bottomPercent: teamDotHeight(team.participants, rule),
  };
}

/** Position of `km` inside a span `[start, end]`, 0–100 (for the close-up of one mission). */
export function percentOfSpan(km: number, span: { start: number; end: number }): number {
  return percentOfLap(km - span.start, span.end - span.start);
}
