/**
 * The route map's geography, computed once (pure): countries from the bundled Natural Earth
 * 1:110m TopoJSON (world-atlas, so the map needs no tile server, key or network), projected and
 * fitted to the route's regions. Everything is in map units: MAP_WIDTH wide, as tall as the
 * regions need.
 */
import { geoCircle, geoMercator, geoPath } from 'd3-geo';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import world110m from 'world-atlas/countries-110m.json';
import type { MapRegion } from './regions';
import type { Point } from './view-box';

interface CountryProperties {
  name: string;
}

type World = Topology<{ countries: GeometryCollection<CountryProperties> }>;

// The JSON's inferred type is only "arrays of numbers"; it is a TopoJSON topology (world-atlas README).
const world = world110m as unknown as World;

/** Width of the map in map units (the viewBox at zoom 1). */
export const MAP_WIDTH = 1000;
/** Room around the regions for the markers that sit on their edges. */
const PADDING = 48;

export interface MapCountry {
  name: string;
  /** SVG path data. */
  d: string;
  /** One of the route's countries. */
  highlighted: boolean;
}

export interface MapGeometry {
  width: number;
  height: number;
  /** The countries that show on the map (those outside it are left out), highlighted ones last. */
  countries: MapCountry[];
  /** Circles for the sea regions (Gulf of Aden, Mediterranean Sea), by region key. */
  seas: { key: string; d: string }[];
  /** Each region's marker anchor in map units, by region key. */
  anchors: Map<string, Point>;
}

/** Every country of the bundled atlas, as GeoJSON. */
export function worldCountries(): Feature<Geometry, CountryProperties>[] {
  return feature(world, world.objects.countries).features;
}

/**
 * Projects the world so that `regions` (their countries, sea circles and anchors) fill the map,
 * Mercator as on most maps people know. Countries a region names but the atlas lacks are
 * skipped: the region's anchor still places its marker.
 */
export function buildMapGeometry(regions: readonly MapRegion[]): MapGeometry {
  const all = worldCountries();
  const wanted = new Set(regions.flatMap((region) => region.countries));
  const highlighted = all.filter((country) => wanted.has(country.properties.name));
  const circles = regions
    .filter((region) => region.seaRadius)
    .map((region) => ({ key: region.key, geometry: geoCircle().center([region.anchor[0], region.anchor[1]]).radius(region.seaRadius ?? 0)() }));
  const fitTo: FeatureCollection = {
    type: 'FeatureCollection',
    features: [
      ...highlighted,
      ...circles.map((circle): Feature => ({ type: 'Feature', properties: {}, geometry: circle.geometry })),
      ...regions.map((region): Feature => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [region.anchor[0], region.anchor[1]] } })),
    ],
  };

  const projection = geoMercator().fitWidth(MAP_WIDTH - 2 * PADDING, fitTo);
  const [[, top], [, bottom]] = geoPath(projection).bounds(fitTo);
  const height = Math.ceil(bottom - top + 2 * PADDING);
  projection.fitExtent(
    [
      [PADDING, PADDING],
      [MAP_WIDTH - PADDING, height - PADDING],
    ],
    fitTo,
  );
  // Nothing outside the map is ever shown (the view stays inside it), so cut it off the paths.
  projection.clipExtent([
    [0, 0],
    [MAP_WIDTH, height],
  ]);
  const path = geoPath(projection).digits(1);

  const countries: MapCountry[] = [];
  for (const country of all) {
    const d = path(country);
    if (d) countries.push({ name: country.properties.name, d, highlighted: wanted.has(country.properties.name) });
  }
  countries.sort((a, b) => Number(a.highlighted) - Number(b.highlighted));

  const anchors = new Map<string, Point>();
  for (const region of regions) {
    const projected = projection([region.anchor[0], region.anchor[1]]);
    if (projected) anchors.set(region.key, { x: projected[0], y: projected[1] });
  }

  return {
    width: MAP_WIDTH,
    height,
    countries,
    seas: circles.map((circle) => ({ key: circle.key, d: path(circle.geometry) ?? '' })).filter((sea) => sea.d),
    anchors,
  };
}
