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

/**
 * The map regions of a route's missions, one per region key (the first mission's wins): a
 * mission with a `position` ([longitude, latitude], the edition's data) is placed there,
 * highlighting its region's countries when regions.json knows the name; one without is placed by
 * its name alone; one with neither gets no region (the map lists it below itself).
 */
export function mapRegions(missions: readonly { region: string; position?: readonly [number, number] }[]): MapRegion[] {
  const byKey = new Map<string, MapRegion>();
  for (const mission of missions) {
    if (byKey.has(mission.region)) continue;
    const known = regionFor(mission.region);
    const position = mission.position;
    if (position && Number.isFinite(position[0]) && Number.isFinite(position[1])) {
      byKey.set(mission.region, {
        key: mission.region,
        countries: known?.countries ?? [],
        anchor: [position[0], position[1]],
        ...(known?.seaRadius ? { seaRadius: known.seaRadius } : {}),
      });
    } else if (known) {
      byKey.set(mission.region, known);
    }
  }
  return [...byKey.values()];
}
