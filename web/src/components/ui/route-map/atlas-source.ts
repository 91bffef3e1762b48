/**
 * How atlas.json, the route map's geodata, is made (build time only: the app never imports this
 * module, so d3-geo, topojson-client and world-atlas stay out of the browser's download). From
 * the Natural Earth 1:110m countries (world-atlas) it keeps what any route of regions.json can
 * show, already in the map's projection:
 *
 * - the envelope: the bounds of every region's countries, sea circle and anchor, plus the most
 *   padding a map fitted to some of them can show (geo.ts PADDING at the widest route's scale,
 *   with room to spare) — a map of any set of known regions lies inside it;
 * - each country's rings projected with d3's Mercator (as the map drew them: edges resampled as
 *   great-circle arcs, at UNITS_PER_RADIAN units per radian, finer than the atlas's own
 *   quantisation and than any zoom of the map shows) and clipped to the envelope; countries
 *   outside it are left out;
 * - coordinates as whole units, each ring's first point absolute and the others as differences
 *   from the point before (small numbers: a smaller file).
 *
 * atlas.test.ts checks that atlas.json is what this makes (`npx vitest run --project unit -u
 * web/src/components/ui/route-map/atlas.test.ts` writes it anew after a change to regions.json).
 */
import { geoCircle, geoMercator, geoPath, geoStream } from 'd3-geo';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Atlas, AtlasCountry } from './geo';
import { MAP_WIDTH, PADDING } from './geo';

/** Map units per radian of the stored coordinates (the atlas's own grid is ≈ 16 000). */
export const UNITS_PER_RADIAN = 20_000;
/** Resampling precision, stored units (d3 projection.precision). */
const PRECISION = 0.5;
/** Extra room around the envelope, as a share of the padding a map can show. */
const SPARE = 0.25;

interface CountryProperties {
  name: string;
}

/** A TopoJSON topology of countries with a `name` each, as world-atlas's countries-110m.json. */
export type WorldTopology = Topology<{ countries: GeometryCollection<CountryProperties> }>;

/** A region of regions.json (its `regions` values). */
export interface RegionSource {
  countries: readonly string[];
  anchor: readonly number[];
  seaRadius?: number;
}

/** Every country of `world`, as GeoJSON. */
export function sourceCountries(world: WorldTopology): Feature<Geometry, CountryProperties>[] {
  return feature(world, world.objects.countries).features;
}

/** What a map of `regions` is fitted to: their countries, sea circles and anchors. */
export function fitFeatures(countries: readonly Feature<Geometry, CountryProperties>[], regions: readonly RegionSource[]): FeatureCollection {
  const wanted = new Set(regions.flatMap((region) => region.countries));
  const point = (region: RegionSource): [number, number] => [region.anchor[0] ?? 0, region.anchor[1] ?? 0];
  return {
    type: 'FeatureCollection',
    features: [
      ...countries.filter((country) => wanted.has(country.properties.name)),
      ...regions
        .filter((region) => region.seaRadius)
        .map((region): Feature => ({ type: 'Feature', properties: {}, geometry: geoCircle().center(point(region)).radius(region.seaRadius ?? 0)() })),
      ...regions.map((region): Feature => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: point(region) } })),
    ],
  };
}

/** Builds atlas.json's content from world-atlas's countries and regions.json's regions. */
export function buildAtlas(world: WorldTopology, regions: readonly RegionSource[]): Atlas {
  const countries = sourceCountries(world);
  const projection = geoMercator().scale(UNITS_PER_RADIAN).translate([0, 0]).precision(PRECISION);
  const [[x0, y0], [x1, y1]] = geoPath(projection).bounds(fitFeatures(countries, regions));
  // The widest map's padding in these units; a narrower route's is smaller.
  const margin = ((x1 - x0) * PADDING * (1 + SPARE)) / (MAP_WIDTH - 2 * PADDING);
  projection.clipExtent([
    [Math.floor(x0 - margin), Math.floor(y0 - margin)],
    [Math.ceil(x1 + margin), Math.ceil(y1 + margin)],
  ]);

  const kept: AtlasCountry[] = [];
  for (const country of countries) {
    const rings: number[][] = [];
    let ring: number[] = [];
    let last: [number, number] = [0, 0];
    geoStream(
      country,
      projection.stream({
        lineStart() {
          ring = [];
        },
        point(x, y) {
          const point: [number, number] = [Math.round(x), Math.round(y)];
          if (ring.length === 0) ring.push(...point);
          else if (point[0] !== last[0] || point[1] !== last[1]) ring.push(point[0] - last[0], point[1] - last[1]);
          else return;
          last = point;
        },
        lineEnd() {
          if (ring.length >= 6) rings.push(ring);
        },
        polygonStart() {},
        polygonEnd() {},
        sphere() {},
      }),
    );
    if (rings.length > 0) kept.push({ name: country.properties.name, rings });
  }
  return { unitsPerRadian: UNITS_PER_RADIAN, countries: kept };
}

/** atlas.json's first field: where it comes from. */
const NOTE =
  'Generated by atlas-source.ts (do not edit): Natural Earth 1:110m countries (public domain, via world-atlas), trimmed to what a route of regions.json can show and projected (Mercator, y southwards, unitsPerRadian units per radian); each ring is its first point, then differences.';

/** atlas.json's text: one country a line, so that a change reads as a short diff. */
export function atlasJson(atlas: Atlas): string {
  const lines = atlas.countries.map((country) => JSON.stringify(country));
  return `{"note":${JSON.stringify(NOTE)},\n"unitsPerRadian":${atlas.unitsPerRadian},"countries":[\n${lines.join(',\n')}\n]}\n`;
}
