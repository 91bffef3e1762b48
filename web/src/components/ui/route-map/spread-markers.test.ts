import { edition2025 } from '@sinilill/domain/seed';
import { describe, expect, it } from 'vitest';
import atlas from './atlas.json';
import { buildMapGeometry } from './geo';
import { regionFor } from './regions';
import { spreadMarkers, type Extent } from './spread-markers';

/** Whether the boxes of two placed markers overlap. */
function overlap(a: { x: number; y: number }, ea: Extent, b: { x: number; y: number }, eb: Extent): boolean {
  return Math.min(a.x + ea.right, b.x + eb.right) > Math.max(a.x - ea.left, b.x - eb.left) + 1e-6
    && Math.min(a.y + ea.bottom, b.y + eb.bottom) > Math.max(a.y - ea.top, b.y - eb.top) + 1e-6;
}

function closestPair(points: { x: number; y: number }[]): number {
  let best = Infinity;
  for (let i = 0; i < points.length; i += 1) {
    for (let j = i + 1; j < points.length; j += 1) best = Math.min(best, Math.hypot(points[i]!.x - points[j]!.x, points[i]!.y - points[j]!.y));
  }
  return best;
}

describe('spreadMarkers', () => {
  it('leaves markers that do not crowd each other where they are', () => {
    const anchors = [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
    ];
    expect(spreadMarkers(anchors, { minDistance: 30 })).toEqual(anchors);
  });

  it('puts two markers of one region side by side around their anchor', () => {
    const [a, b] = spreadMarkers(
      [
        { x: 50, y: 50 },
        { x: 50, y: 50 },
      ],
      { minDistance: 30 },
    );
    expect(Math.hypot(a!.x - b!.x, a!.y - b!.y)).toBeGreaterThanOrEqual(30);
    expect((a!.x + b!.x) / 2).toBeCloseTo(50);
    expect((a!.y + b!.y) / 2).toBeCloseTo(50);
  });

  it('parts a crowd of neighbouring regions (the Balkans) so that no two markers overlap', () => {
    const anchors = [
      { x: 10, y: 10 }, // Croatia
      { x: 20, y: 18 }, // Bosnia ×3
      { x: 20, y: 18 },
      { x: 20, y: 18 },
      { x: 35, y: 28 }, // Kosovo
      { x: 20, y: 18 },
    ];
    const spread = spreadMarkers(anchors, { minDistance: 28 });
    expect(closestPair(spread)).toBeGreaterThanOrEqual(28 * 0.99);
    // They stay near home: nobody is pushed further than a few marker widths.
    spread.forEach((point, index) => expect(Math.hypot(point.x - anchors[index]!.x, point.y - anchors[index]!.y)).toBeLessThan(28 * 3));
  });

  it('is deterministic', () => {
    const anchors = Array.from({ length: 12 }, (_, i) => ({ x: (i % 3) * 5, y: Math.floor(i / 3) * 5 }));
    expect(spreadMarkers(anchors, { minDistance: 20 })).toEqual(spreadMarkers(anchors, { minDistance: 20 }));
    expect(closestPair(spreadMarkers(anchors, { minDistance: 20 }))).toBeGreaterThanOrEqual(19.8);
  });

  it('keeps markers inside the bounds', () => {
    const spread = spreadMarkers(
      [
        { x: 0, y: 0 },
        { x: 0, y: 0 },
        { x: 0, y: 0 },
      ],
      { minDistance: 20, bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 } },
    );
    for (const point of spread) {
      expect(point.x).toBeGreaterThanOrEqual(0);
      expect(point.y).toBeGreaterThanOrEqual(0);
    }
    expect(closestPair(spread)).toBeGreaterThanOrEqual(19.8);
  });

  it('keeps boxes apart, not only centres: a badge at the top right of a marker needs its room', () => {
    const plain: Extent = { left: 10, top: 10, right: 10, bottom: 10 };
    const badged: Extent = { left: 10, top: 17, right: 19, bottom: 10 };
    // Diagonal neighbours: the centres are 28 apart (enough for circles of 20), the boxes meet.
    const anchors = [{ x: 50, y: 50 }, { x: 70, y: 70 }, { x: 30, y: 70 }];
    const extents = [badged, plain, badged];
    const spread = spreadMarkers(anchors, { minDistance: 20, extents });
    for (let i = 0; i < spread.length; i += 1) {
      for (let j = i + 1; j < spread.length; j += 1) expect(overlap(spread[i]!, extents[i]!, spread[j]!, extents[j]!), `${i}~${j}`).toBe(false);
    }
  });

  it('parts all 24 markers of the 2025 route on a 296 px map (a 360 px screen), badges and all', () => {
    const regions = [...new Set(edition2025.route.missions.map((m) => m.name.en))].map((key) => regionFor(key)!);
    const geometry = buildMapGeometry(atlas, regions);
    const anchors = edition2025.route.missions.map((m) => geometry.anchors.get(m.name.en)!);
    const pxPerUnit = 296 / geometry.width;
    // A 24 px marker with a 4 px gap; every other one with a badge (9 px right, 7 px up).
    const half = 14 / pxPerUnit;
    const extents = anchors.map((_, index): Extent => (index % 2 === 0
      ? { left: half, top: half + 7 / pxPerUnit, right: half + 9 / pxPerUnit, bottom: half }
      : { left: half, top: half, right: half, bottom: half }));
    const bounds = { minX: 0, minY: 0, maxX: geometry.width, maxY: geometry.height };
    const spread = spreadMarkers(anchors, { minDistance: 2 * half, extents, bounds });
    for (let i = 0; i < spread.length; i += 1) {
      expect(spread[i]!.x - extents[i]!.left).toBeGreaterThanOrEqual(-1e-9);
      expect(spread[i]!.y + extents[i]!.bottom).toBeLessThanOrEqual(geometry.height + 1e-9);
      for (let j = i + 1; j < spread.length; j += 1) expect(overlap(spread[i]!, extents[i]!, spread[j]!, extents[j]!), `${i + 1}~${j + 1}`).toBe(false);
    }
  });
});
