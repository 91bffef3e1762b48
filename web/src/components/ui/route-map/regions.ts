// Only `regions`: the file's note stays out of the bundle.
import { regions as data } from './regions.json';

/** Where one mission region lies on the map (see regions.json). */
export interface MapRegion {
  /** The region's key: the mission's English name, e.g. "Bosnia and Herzegovina". */
  key: string;
  /** Natural Earth short names of the countries to highlight (world-atlas `properties.name`). */
  countries: readonly string[];
  /** [longitude, latitude] of the region's marker, degrees. */
  anchor: readonly [number, number];
  /** For a sea region (no country): radius in degrees of the circle drawn around the anchor. */
  seaRadius?: number;
}

interface RegionData {
  countries: string[];
  anchor: number[];
  seaRadius?: number;
}

const regions: Record<string, RegionData> = data;

/**
 * The map region of a mission, by the mission's English name (Mission.name.en), or undefined
 * when regions.json does not know it (the map then lists the mission below itself instead).
 */
export function regionFor(key: string): MapRegion | undefined {
  const region = Object.hasOwn(regions, key) ? regions[key] : undefined;
  if (!region) return undefined;
  const [longitude = 0, latitude = 0] = region.anchor;
  return { key, countries: region.countries, anchor: [longitude, latitude], ...(region.seaRadius ? { seaRadius: region.seaRadius } : {}) };
}

/** Every region regions.json knows, by key. */
export function regionKeys(): string[] {
  return Object.keys(regions);
}
