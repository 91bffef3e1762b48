/**
 * A file's sport (FIT sport and sub-sport, GPX <type>, TCX Activity@Sport) as one of the preset
 * entry types (ActivityType of @sinilill/domain, spec §1), or null when the file has none or one
 * without a preset (the member then chooses).
 */
import type { ActivityType } from '@sinilill/domain';

/** Lower-cased, without spaces, dashes or underscores: "Cross-Country Skiing" → "crosscountryskiing". */
const squash = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, '');

const INDOOR = new Set(['treadmill', 'indoorrunning', 'indoorcycling', 'spin', 'virtualactivity', 'indoorwalking', 'trackme']);

/** Sport names (squashed) of FIT, GPX and TCX files to preset types; indoor variants come from the sub-sport. */
const BY_SPORT: Readonly<Record<string, { outdoor: ActivityType; indoor?: ActivityType }>> = {
  running: { outdoor: 'OUTDOOR_RUN', indoor: 'INDOOR_RUN' },
  run: { outdoor: 'OUTDOOR_RUN', indoor: 'INDOOR_RUN' },
  trailrunning: { outdoor: 'OUTDOOR_RUN' },
  cycling: { outdoor: 'OUTDOOR_CYCLE', indoor: 'INDOOR_CYCLE' },
  biking: { outdoor: 'OUTDOOR_CYCLE', indoor: 'INDOOR_CYCLE' },
  ride: { outdoor: 'OUTDOOR_CYCLE', indoor: 'INDOOR_CYCLE' },
  ebiking: { outdoor: 'OUTDOOR_CYCLE' },
  mountainbiking: { outdoor: 'OUTDOOR_CYCLE' },
  walking: { outdoor: 'WALK' },
  walk: { outdoor: 'WALK' },
  hiking: { outdoor: 'WALK' },
  hike: { outdoor: 'WALK' },
  crosscountryskiing: { outdoor: 'SKIING' },
  alpineskiing: { outdoor: 'SKIING' },
  skiing: { outdoor: 'SKIING' },
  swimming: { outdoor: 'SWIMMING' },
  swim: { outdoor: 'SWIMMING' },
  inlineskating: { outdoor: 'ROLLERSKATING' },
  rollerskating: { outdoor: 'ROLLERSKATING' },
  golf: { outdoor: 'GOLF' },
  discgolf: { outdoor: 'DISCGOLF' },
};

/**
 * The preset entry type of a sport name and optional sub-sport (any file format's spelling), or
 * null: mapActivityType('running', 'treadmill') === 'INDOOR_RUN'; mapActivityType('Biking') ===
 * 'OUTDOOR_CYCLE'; mapActivityType('Other') === null.
 */
export function mapActivityType(sport: string | null | undefined, subSport?: string | null): ActivityType | null {
  if (typeof sport !== 'string') return null;
  const preset = BY_SPORT[squash(sport)];
  if (!preset) return null;
  return subSport && INDOOR.has(squash(subSport)) && preset.indoor ? preset.indoor : preset.outdoor;
}
