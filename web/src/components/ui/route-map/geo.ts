/**
 * The route map's geography, computed once per route (pure): countries from atlas.json (Natural
 * Earth 1:110m, trimmed and already projected at build time, see atlas-source.ts, so the map needs
 * no tile server, key or third party, and no projection library in the browser), fitted to the
 * route's regions. Mercator, as on most maps people know. Everything is in map units: MAP_WIDTH
 * wide, as tall as the regions need.
 *
 * What d3-geo did here before: a Mercator projection fitted to the regions (fitWidth for the
 * height, then fitExtent), clipped to the map (clipExtent), paths with one decimal (digits(1)).
 * atlas.json holds the countries as that projection gives them at a fixed scale, so fitting is a
 * scale and a shift; the clipping is Sutherland–Hodgman against the map's rectangle.
 */
import type { MapRegion } from './regions';
import type { Point } from './view-box';

/** Width of the map in map units (the viewBox at zoom 1). */
export const MAP_WIDTH = 1000;
/** Room around the regions for the markers that sit on their edges, map units. */
export const PADDING = 48;

/** One country of atlas.json. */
export interface AtlasCountry {
  /** Natural Earth short name (world-atlas `properties.name`), as regions.json names countries. */
  name: string;
  /**
   * Its rings in Mercator at `unitsPerRadian` units per radian, y growing southwards: each ring
   * x, y of its first point, then for each further point the differences from the one before.
   */
  rings: number[][];
}

/** atlas.json: the countries a route map can show (atlas-source.ts). */
export interface Atlas {
  unitsPerRadian: number;
  countries: AtlasCountry[];
}

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

/** A ring as x0, y0, x1, y1, …: Mercator radians (y southwards) or map units. */
type Ring = number[];

const RADIANS = Math.PI / 180;
/** Step between the points of a sea circle, degrees of bearing. */
const CIRCLE_STEP = 3;
/** Span given to bounds with no width or height (a single anchor), radians (≈ 3°). */
const MIN_SPAN = 0.05;

/** Mercator x, y of a longitude and latitude in degrees: radians, y growing southwards. */
export function mercator(longitude: number, latitude: number): [number, number] {
  return [longitude * RADIANS, -Math.log(Math.tan(Math.PI / 4 + (latitude * RADIANS) / 2))];
}

/** An atlas country's rings in Mercator radians. */
function decodeRings(country: AtlasCountry, unitsPerRadian: number): Ring[] {
  return country.rings.map((encoded) => {
    const ring: Ring = [];
    let x = 0;
    let y = 0;
    for (let i = 0; i + 1 < encoded.length; i += 2) {
      x += encoded[i]!;
      y += encoded[i + 1]!;
      ring.push(x / unitsPerRadian, y / unitsPerRadian);
    }
    return ring;
  });
}

/** The ring of points `radius` degrees (great-circle) from `centre` [longitude, latitude], in Mercator. */
export function seaCircle(centre: readonly [number, number], radius: number): Ring {
  const [lambda, phi] = [centre[0] * RADIANS, centre[1] * RADIANS];
  const delta = radius * RADIANS;
  const ring: Ring = [];
  for (let bearing = 0; bearing < 360; bearing += CIRCLE_STEP) {
    const theta = bearing * RADIANS;
    const lat = Math.asin(Math.sin(phi) * Math.cos(delta) + Math.cos(phi) * Math.sin(delta) * Math.cos(theta));
    const lon = lambda + Math.atan2(Math.sin(theta) * Math.sin(delta) * Math.cos(phi), Math.cos(delta) - Math.sin(phi) * Math.sin(lat));
    ring.push(...mercator(lon / RADIANS, lat / RADIANS));
  }
  return ring;
}

/**
 * `ring` cut to the rectangle 0..width × 0..height (Sutherland–Hodgman: one pass per edge).
 * A ring outside it comes back empty or without area; one around it, as the rectangle.
 */
export function clipRing(ring: Ring, width: number, height: number): Ring {
  let points = ring;
  for (const [axis, limit, below] of [[0, 0, false], [0, width, true], [1, 0, false], [1, height, true]] as const) {
    const input = points;
    const count = input.length / 2;
    points = [];
    const inside = (i: number) => (below ? input[2 * i + axis]! <= limit : input[2 * i + axis]! >= limit);
    for (let i = 0; i < count; i++) {
      const j = (i + count - 1) % count;
      if (inside(i) !== inside(j)) {
        const [xi, yi, xj, yj] = [input[2 * i]!, input[2 * i + 1]!, input[2 * j]!, input[2 * j + 1]!];
        const t = (limit - (axis === 0 ? xj : yj)) / (axis === 0 ? xi - xj : yi - yj);
        points.push(xj + t * (xi - xj), yj + t * (yi - yj));
      }
      if (inside(i)) points.push(input[2 * i]!, input[2 * i + 1]!);
    }
  }
  return points;
}

/** Twice the ring's signed area (shoelace), map units². */
function doubleArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0, n = ring.length; i < n; i += 2) {
    const j = (i + 2) % n;
    sum += ring[i]! * ring[j + 1]! - ring[j]! * ring[i + 1]!;
  }
  return sum;
}

/** SVG path data of rings in map units, one decimal, as d3's geoPath().digits(1) writes it. */
function pathData(rings: readonly Ring[]): string {
  const round = (value: number) => Math.round(value * 10) / 10;
  return rings
    .map((ring) => {
      let d = '';
      for (let i = 0; i < ring.length; i += 2) d += `${i === 0 ? 'M' : 'L'}${round(ring[i]!)},${round(ring[i + 1]!)}`;
      return `${d}Z`;
    })
    .join('');
}

/** Every country name atlas.json has. */
export function atlasCountryNames(atlas: Atlas): string[] {
  return atlas.countries.map((country) => country.name);
}

/**
 * Projects `atlas` so that `regions` (their countries, sea circles and anchors) fill the map.
 * Countries a region names but the atlas lacks are skipped: the region's anchor still places
 * its marker. Without any region the map shows the whole atlas.
 */
export function buildMapGeometry(atlas: Atlas, regions: readonly MapRegion[]): MapGeometry {
  const all = atlas.countries.map((country) => ({ name: country.name, rings: decodeRings(country, atlas.unitsPerRadian) }));
  const wanted = new Set(regions.flatMap((region) => region.countries));
  const circles = regions.flatMap((region) => (region.seaRadius ? [{ key: region.key, ring: seaCircle(region.anchor, region.seaRadius) }] : []));
  const anchors = regions.map((region) => ({ key: region.key, at: mercator(region.anchor[0], region.anchor[1]) }));

  // The bounds of what the map is fitted to, in Mercator radians.
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  const include = (x: number, y: number) => {
    [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  };
  const fitted = regions.length > 0 ? all.filter((country) => wanted.has(country.name)) : all;
  for (const ring of [...fitted.flatMap((country) => country.rings), ...circles.map((circle) => circle.ring)]) {
    for (let i = 0; i < ring.length; i += 2) include(ring[i]!, ring[i + 1]!);
  }
  for (const { at } of anchors) include(at[0], at[1]);
  if (x1 - x0 < MIN_SPAN) [x0, x1] = [(x0 + x1 - MIN_SPAN) / 2, (x0 + x1 + MIN_SPAN) / 2];
  if (y1 - y0 < MIN_SPAN) [y0, y1] = [(y0 + y1 - MIN_SPAN) / 2, (y0 + y1 + MIN_SPAN) / 2];

  // As d3's fitWidth, then fitExtent into the map less its padding.
  const innerWidth = MAP_WIDTH - 2 * PADDING;
  const height = Math.ceil(((y1 - y0) * innerWidth) / (x1 - x0) + 2 * PADDING);
  const innerHeight = height - 2 * PADDING;
  const scale = Math.min(innerWidth / (x1 - x0), innerHeight / (y1 - y0));
  const shiftX = PADDING + (innerWidth - scale * (x1 + x0)) / 2;
  const shiftY = PADDING + (innerHeight - scale * (y1 + y0)) / 2;
  const project = (ring: Ring): Ring => ring.map((value, i) => value * scale + (i % 2 === 0 ? shiftX : shiftY));
  // Nothing outside the map is ever shown (the view stays inside it), so cut it off the paths.
  const onMap = (rings: readonly Ring[]) => rings.map((ring) => clipRing(project(ring), MAP_WIDTH, height)).filter((ring) => Math.abs(doubleArea(ring)) > 1e-6);

  const countries: MapCountry[] = [];
  for (const country of all) {
    const rings = onMap(country.rings);
    if (rings.length > 0) countries.push({ name: country.name, d: pathData(rings), highlighted: wanted.has(country.name) });
  }
  countries.sort((a, b) => Number(a.highlighted) - Number(b.highlighted));

  return {
    width: MAP_WIDTH,
    height,
    countries,
    seas: circles.map((circle) => ({ key: circle.key, d: pathData(onMap([circle.ring])) })).filter((sea) => sea.d),
    anchors: new Map(anchors.map(({ key, at }) => [key, { x: at[0] * scale + shiftX, y: at[1] * scale + shiftY }])),
  };
}
