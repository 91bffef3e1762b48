import { currentEdition } from '@sinilill/domain';
import { describe, expect, it } from 'vitest';
import { buildMapGeometry, MAP_WIDTH } from './geo';
import { regionFor, type MapRegion } from './regions';

const regions = [...new Set(currentEdition.route.missions.map((m) => m.name.en))].map((key) => regionFor(key)!) satisfies MapRegion[];

describe('buildMapGeometry', () => {
  const geometry = buildMapGeometry(regions);

  it('is wider than tall and places every anchor on the map', () => {
    expect(geometry.width).toBe(MAP_WIDTH);
    expect(geometry.height).toBeGreaterThan(200);
    expect(geometry.height).toBeLessThan(MAP_WIDTH);
    expect(geometry.anchors.size).toBe(regions.length);
    for (const point of geometry.anchors.values()) {
      expect(point.x).toBeGreaterThan(0);
      expect(point.x).toBeLessThan(geometry.width);
      expect(point.y).toBeGreaterThan(0);
      expect(point.y).toBeLessThan(geometry.height);
    }
  });

  it('highlights the route countries, Kosovo included, and draws them last', () => {
    const highlighted = geometry.countries.filter((c) => c.highlighted).map((c) => c.name);
    expect(highlighted).toEqual(expect.arrayContaining(['Croatia', 'Bosnia and Herz.', 'Kosovo', 'Iraq', 'Afghanistan', 'Mali', 'Central African Rep.']));
    expect(geometry.countries.at(-1)?.highlighted).toBe(true);
    expect(geometry.countries.every((c) => c.d.length > 0)).toBe(true);
  });

  it('leaves out countries far from the route and draws the two seas', () => {
    const names = geometry.countries.map((c) => c.name);
    expect(names).not.toContain('Brazil');
    expect(names).not.toContain('Australia');
    expect(geometry.seas.map((s) => s.key).sort()).toEqual(['Gulf of Aden', 'Mediterranean Sea']);
  });

  it('puts Croatia north-west of Afghanistan', () => {
    const croatia = geometry.anchors.get('Croatia')!;
    const afghanistan = geometry.anchors.get('Afghanistan')!;
    expect(croatia.x).toBeLessThan(afghanistan.x);
    expect(croatia.y).toBeLessThan(afghanistan.y);
  });
});
