import { describe, expect, it } from 'vitest';
import { spreadMarkers } from './spread-markers';

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
});
