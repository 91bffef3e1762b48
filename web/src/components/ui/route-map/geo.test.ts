import { edition2025 } from '@sinilill/domain/seed';
import { geoMercator, geoPath } from 'd3-geo';
import world110m from 'world-atlas/countries-110m.json';
import { describe, expect, it } from 'vitest';
import atlasData from './atlas.json';
import { fitFeatures, sourceCountries, type WorldTopology } from './atlas-source';
import { buildMapGeometry, clipRing, MAP_WIDTH, PADDING, type Atlas } from './geo';
import { regionFor, regionKeys, type MapRegion } from './regions';

const atlas: Atlas = atlasData;
const world = world110m as unknown as WorldTopology;
const regions = [...new Set(edition2025.route.missions.map((m) => m.name.en))].map((key) => regionFor(key)!) satisfies MapRegion[];

/**
 * The map as d3-geo drew it from world-atlas in the browser before atlas.json:
 * the reference that the trimmed, pre-projected atlas must match. Height, anchors and the set of
 * countries shown.
 */
function d3Reference(wantedRegions: readonly MapRegion[]) {
  const fitTo = fitFeatures(sourceCountries(world), wantedRegions);
  const projection = geoMercator().fitWidth(MAP_WIDTH - 2 * PADDING, fitTo);
  const [[, top], [, bottom]] = geoPath(projection).bounds(fitTo);
  const height = Math.ceil(bottom - top + 2 * PADDING);
  projection.fitExtent([[PADDING, PADDING], [MAP_WIDTH - PADDING, height - PADDING]], fitTo);
  projection.clipExtent([[0, 0], [MAP_WIDTH, height]]);
  const path = geoPath(projection).digits(1);
  const shown = sourceCountries(world).filter((country) => {
    const area = path.area(country);
    return area > 0.01;
  });
  return {
    height,
    countries: shown.map((country) => country.properties.name).sort(),
    anchors: new Map(wantedRegions.map((region) => [region.key, projection([region.anchor[0], region.anchor[1]])!])),
    areas: new Map(shown.map((country) => [country.properties.name, path.area(country)])),
  };
}

/** Area enclosed by an SVG path of M/L/Z commands, map units² (shoelace per ring). */
function pathArea(d: string): number {
  return d
    .split('Z')
    .filter(Boolean)
    .reduce((total, ring) => {
      const points = ring.slice(1).split('L').map((pair) => pair.split(',').map(Number) as [number, number]);
      let sum = 0;
      points.forEach(([x, y], i) => {
        const [nx, ny] = points[(i + 1) % points.length]!;
        sum += x * ny - nx * y;
      });
      return total + sum / 2;
    }, 0);
}

describe('buildMapGeometry', () => {
  const geometry = buildMapGeometry(atlas, regions);

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

  // Routes: the current one, every known region, and a few small ones (a map of few regions is
  // drawn at a larger scale, where differences would show more).
  const routes: [string, MapRegion[]][] = [
    ['the current route', regions],
    ['every region of regions.json', regionKeys().map((key) => regionFor(key)!)],
    ['the Balkans', ['Croatia', 'Bosnia and Herzegovina', 'Kosovo'].map((key) => regionFor(key)!)],
    ['Lebanon and the Gulf of Aden', ['Lebanon', 'Gulf of Aden'].map((key) => regionFor(key)!)],
    ['Mali alone', [regionFor('Mali')!]],
  ];
  for (const [name, route] of routes) {
    it(`draws ${name} as d3-geo did from the whole world atlas`, () => {
      const ours = buildMapGeometry(atlas, route);
      const reference = d3Reference(route);
      expect(Math.abs(ours.height - reference.height)).toBeLessThanOrEqual(1);
      for (const [key, [x, y]] of reference.anchors) {
        const anchor = ours.anchors.get(key)!;
        expect(Math.hypot(anchor.x - x, anchor.y - y)).toBeLessThan(0.5);
      }
      // The same countries, each covering the same part of the map (within 1 % or one unit²).
      const shown = ours.countries.filter((country) => Math.abs(pathArea(country.d)) > 0.01);
      expect(shown.map((country) => country.name).sort()).toEqual(reference.countries);
      for (const country of shown) {
        const expected = reference.areas.get(country.name)!;
        expect(Math.abs(Math.abs(pathArea(country.d)) - expected)).toBeLessThan(Math.max(1, expected * 0.01));
      }
    });
  }
});

describe('clipRing', () => {
  it('keeps a ring inside, cuts one across an edge and drops one outside', () => {
    expect(clipRing([1, 1, 2, 1, 2, 2], 10, 10)).toEqual([1, 1, 2, 1, 2, 2]);
    expect(clipRing([-5, 5, 5, 5, 5, 8], 10, 10)).toEqual([0, 6.5, 0, 5, 5, 5, 5, 8]);
    expect(clipRing([-5, -5, -4, -5, -4, -4], 10, 10)).toEqual([]);
  });

  it('turns a ring around the whole map into the map', () => {
    const clipped = clipRing([-1, -1, 11, -1, 11, 11, -1, 11], 10, 10);
    expect(clipped).toHaveLength(8);
    expect(new Set(clipped.join(',').match(/-?[\d.]+,-?[\d.]+/g))).toEqual(new Set(['0,0', '10,0', '10,10', '0,10']));
  });
});
