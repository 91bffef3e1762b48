/**
 * Places the route map's markers so that none hides another (pure): missions in the same region
 * (Iraq holds four) start on a small ring around the region's anchor, then overlapping markers
 * push each other apart until every pair is at least `minDistance` apart. Deterministic, so the
 * markers stand still between renders.
 */
import type { Point } from './view-box';

export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface SpreadOptions {
  /** Smallest distance between two markers' centres (a marker's diameter plus a gap). */
  minDistance: number;
  /** Passes of pushing apart; stops earlier once nothing overlaps. Default 200. */
  iterations?: number;
  /** Keeps every marker inside these bounds. */
  bounds?: Bounds;
}

/** Slightly more than asked, so that rounding does not leave pairs a hair too close. */
const SLACK = 1.02;

function clampToBounds(point: Point, bounds: Bounds | undefined): Point {
  if (!bounds) return point;
  return {
    x: Math.min(bounds.maxX, Math.max(bounds.minX, point.x)),
    y: Math.min(bounds.maxY, Math.max(bounds.minY, point.y)),
  };
}

/**
 * One position per anchor, in the anchors' order and units: an anchor that no other marker
 * crowds keeps its position; crowded ones move as little as the pushing needs.
 */
export function spreadMarkers(anchors: readonly Point[], options: SpreadOptions): Point[] {
  const { minDistance, iterations = 200, bounds } = options;
  const positions = anchors.map((anchor) => ({ x: anchor.x, y: anchor.y }));
  if (!(minDistance > 0)) return positions;

  // Markers on the same anchor: a ring whose neighbours are minDistance apart, first at the top.
  const groups = new Map<string, number[]>();
  anchors.forEach((anchor, index) => {
    const key = `${anchor.x}:${anchor.y}`;
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });
  for (const members of groups.values()) {
    const count = members.length;
    if (count < 2) continue;
    const radius = (minDistance * SLACK) / (2 * Math.sin(Math.PI / count));
    members.forEach((index, k) => {
      const anchor = anchors[index]!;
      const angle = -Math.PI / 2 + (2 * Math.PI * k) / count;
      positions[index] = clampToBounds({ x: anchor.x + radius * Math.cos(angle), y: anchor.y + radius * Math.sin(angle) }, bounds);
    });
  }

  const target = minDistance * SLACK;
  for (let pass = 0; pass < iterations; pass += 1) {
    let moved = false;
    for (let i = 0; i < positions.length; i += 1) {
      for (let j = i + 1; j < positions.length; j += 1) {
        const a = positions[i]!;
        const b = positions[j]!;
        const dx = b.x - a.x;
        const dy = b.y - a.y;
        const distance = Math.hypot(dx, dy);
        if (distance >= minDistance) continue;
        moved = true;
        // Two markers on one spot: part them in a direction that depends only on their indexes.
        const angle = (i * 7 + j * 13) % 360;
        const ux = distance > 1e-9 ? dx / distance : Math.cos((angle * Math.PI) / 180);
        const uy = distance > 1e-9 ? dy / distance : Math.sin((angle * Math.PI) / 180);
        const push = (target - distance) / 2;
        positions[i] = clampToBounds({ x: a.x - ux * push, y: a.y - uy * push }, bounds);
        positions[j] = clampToBounds({ x: b.x + ux * push, y: b.y + uy * push }, bounds);
      }
    }
    if (!moved) break;
  }
  return positions;
}
