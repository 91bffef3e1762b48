/**
 * Places the route map's markers so that none hides another (pure). A marker's box is the
 * marker with what hangs off it (the team-count badge) and half the gap wanted between
 * neighbours: boxes, not circles, because a target's box is what a pointer hits and what WCAG
 * 2.2's target-size check measures. Missions of one region (Iraq holds four) would all sit on
 * its anchor, so they start from a small ring around it. Then, in mission order, each marker
 * takes the free place nearest to where it wants to be, on a spiral around it: no two boxes
 * meet, whatever the width of the map or the badges. Deterministic, so the markers stand still
 * between renders.
 */
import type { Point } from './view-box';

export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** A marker's box around its position: the distance from the position to each edge (≥ 0). */
export interface Extent {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface SpreadOptions {
  /**
   * Side of a plain marker's box: the smallest distance between two plain markers' centres
   * along x or y (a marker's width plus the gap). The box is a square centred on the marker.
   */
  minDistance: number;
  /** Per marker, its own box instead of the square (e.g. larger at the top right for a badge). */
  extents?: readonly (Extent | undefined)[];
  /** Keeps every marker's box inside these bounds (as far as the box fits). */
  bounds?: Bounds;
}

/** A little more room than touching, as a share of minDistance, so that rounding does not make boxes meet. */
const SLACK = 0.01;
/** Spiral step, as a share of minDistance: finer finds places nearer home, coarser is quicker. */
const STEP = 0.2;

function clampToBounds(point: Point, extent: Extent, bounds: Bounds | undefined): Point {
  if (!bounds) return point;
  const clamp = (value: number, low: number, high: number) => (low > high ? (low + high) / 2 : Math.min(high, Math.max(low, value)));
  return {
    x: clamp(point.x, bounds.minX + extent.left, bounds.maxX - extent.right),
    y: clamp(point.y, bounds.minY + extent.top, bounds.maxY - extent.bottom),
  };
}

/** Whether two boxes overlap by more than a hair. */
function overlaps(a: Point, ea: Extent, b: Point, eb: Extent): boolean {
  const epsilon = 1e-9;
  return (
    Math.min(a.x + ea.right, b.x + eb.right) - Math.max(a.x - ea.left, b.x - eb.left) > epsilon &&
    Math.min(a.y + ea.bottom, b.y + eb.bottom) - Math.max(a.y - ea.top, b.y - eb.top) > epsilon
  );
}

/** Extents grown by `by` on every side. */
function grown(extent: Extent, by: number): Extent {
  return { left: extent.left + by, top: extent.top + by, right: extent.right + by, bottom: extent.bottom + by };
}

/**
 * One position per anchor, in the anchors' order and units: an anchor that no other marker
 * crowds keeps its position; crowded ones move as little as the free room allows. Should the
 * map be too small for every box, the marker that finds no place stays on its anchor.
 */
export function spreadMarkers(anchors: readonly Point[], options: SpreadOptions): Point[] {
  const { minDistance, bounds } = options;
  if (!(minDistance > 0)) return anchors.map((anchor) => ({ x: anchor.x, y: anchor.y }));
  const half = minDistance / 2;
  const square: Extent = { left: half, top: half, right: half, bottom: half };
  const extents = anchors.map((_, index) => options.extents?.[index] ?? square);
  const slack = minDistance * SLACK;

  // Where each marker would like to be: its anchor, or for several on one anchor a ring around
  // it whose neighbours are minDistance apart, the first at the top.
  const wanted = anchors.map((anchor) => ({ x: anchor.x, y: anchor.y }));
  const groups = new Map<string, number[]>();
  anchors.forEach((anchor, index) => {
    const key = `${anchor.x}:${anchor.y}`;
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });
  for (const members of groups.values()) {
    const count = members.length;
    if (count < 2) continue;
    const radius = (minDistance * (1 + SLACK)) / (2 * Math.sin(Math.PI / count));
    members.forEach((index, k) => {
      const anchor = anchors[index]!;
      const angle = -Math.PI / 2 + (2 * Math.PI * k) / count;
      wanted[index] = { x: anchor.x + radius * Math.cos(angle), y: anchor.y + radius * Math.sin(angle) };
    });
  }

  // Far enough to reach every corner of the bounds (or a generous reach without bounds).
  const reach = bounds ? Math.hypot(bounds.maxX - bounds.minX, bounds.maxY - bounds.minY) : minDistance * anchors.length * 2;
  const step = minDistance * STEP;
  const placed: number[] = [];
  const positions: Point[] = anchors.map((anchor) => ({ x: anchor.x, y: anchor.y }));
  for (let index = 0; index < anchors.length; index += 1) {
    const extent = extents[index]!;
    const padded = grown(extent, slack / 2);
    const free = (point: Point) => placed.every((other) => !overlaps(point, padded, positions[other]!, grown(extents[other]!, slack / 2)));
    let found: Point | null = null;
    for (let radius = 0; radius <= reach && !found; radius += step) {
      const around = radius === 0 ? 1 : Math.max(8, Math.ceil((2 * Math.PI * radius) / step));
      for (let k = 0; k < around; k += 1) {
        const angle = -Math.PI / 2 + (2 * Math.PI * k) / around;
        const candidate = clampToBounds({ x: wanted[index]!.x + radius * Math.cos(angle), y: wanted[index]!.y + radius * Math.sin(angle) }, extent, bounds);
        if (free(candidate)) {
          found = candidate;
          break;
        }
      }
    }
    positions[index] = found ?? clampToBounds(anchors[index]!, extent, bounds);
    placed.push(index);
  }
  return positions;
}
