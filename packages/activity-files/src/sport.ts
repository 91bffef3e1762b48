/**
 * A sport name as devices, apps and Strava write it, as one of the preset entry types
 * (ActivityType of @sinilill/domain, spec §1), or null when it has none (the member then chooses).
 *
 * Spellings covered (compared lower-case without spaces, dashes or underscores):
 * - FIT profile `sport` and `sub_sport` (Garmin, Wahoo, Coros, Suunto, Hammerhead, Zwift FIT files;
 *   the FIT SDK spells them camelCase: 'crossCountrySkiing', 'eBiking', 'wheelchairPushRun');
 * - Garmin Connect activity types ('road_biking', 'treadmill_running', 'lap_swimming', …);
 * - Wahoo workout types ('BIKING_INDOOR', 'RUNNING_TREADMILL', …), Polar Flow export sports
 *   ('ROAD_BIKING', 'INDOOR_CYCLING', …), Suunto app and Movescount names ('Trail running',
 *   'Cross-country skiing', …), Coros sport names ('Indoor Run', 'Gravel Bike', 'XC Ski', …);
 * - TCX Activity@Sport ('Running', 'Biking'; 'Other' has no type) and GPX <type> text;
 * - Strava's `sport_type` and legacy `type` ('TrailRun', 'VirtualRide', 'EMountainBikeRide', …,
 *   Strava API v3 "SportType"/"ActivityType") and the numeric types of Strava's GPX exports
 *   (1 Ride, 2 AlpineSki, 3 BackcountrySki, 4 Hike, 6 InlineSkate, 7 NordicSki, 8 RollerSki,
 *   9 Run, 10 Walk, 16 Swim, 17 VirtualRide, 18 EBikeRide: the codes of Strava's own GPX writer
 *   as its SDKs list them).
 * Indoor variants go to the indoor types: by name ('VirtualRun', 'indoor_cycling', 'treadmill')
 * or by a sub-sport ('treadmill', 'indoorCycling', 'virtualActivity', 'trainer' — the last is what
 * a caller passes for a Strava activity whose `trainer` flag is set).
 */
import type { ActivityType } from '@sinilill/domain';

/** Lower-cased, without spaces, dashes, dots or underscores: "Cross-Country Skiing" → "crosscountryskiing". */
const squash = (text: string) => text.toLowerCase().replace(/[\s_.-]+/g, '');

const RUN = { outdoor: 'OUTDOOR_RUN', indoor: 'INDOOR_RUN' } as const;
const INDOOR_RUN = { outdoor: 'INDOOR_RUN' } as const;
const CYCLE = { outdoor: 'OUTDOOR_CYCLE', indoor: 'INDOOR_CYCLE' } as const;
const INDOOR_CYCLE = { outdoor: 'INDOOR_CYCLE' } as const;
const WALK = { outdoor: 'WALK' } as const;
const SKI = { outdoor: 'SKIING' } as const;
const SWIM = { outdoor: 'SWIMMING' } as const;
const SKATE = { outdoor: 'ROLLERSKATING' } as const;
const ASSISTED = { outdoor: 'ASSISTIVE_DEVICE' } as const;

type Preset = { readonly outdoor: ActivityType; readonly indoor?: ActivityType };

/** Names that say nothing of the sport ('generic', 'Other', 'multisport', 'transition', …) are absent: null. */
const BY_SPORT: Readonly<Record<string, Preset>> = {
  // Running (FIT running; Garmin Connect, Polar, Wahoo, Suunto, Coros, Strava spellings)
  running: RUN, run: RUN, trailrunning: RUN, trailrun: RUN, runningtrail: RUN, streetrunning: RUN, roadrunning: RUN,
  trackrunning: RUN, trackrun: RUN, runningtrack: RUN, trackandfieldrunning: RUN, ultrarun: RUN, ultrarunning: RUN,
  obstaclerun: RUN, obstaclerunning: RUN, orienteering: RUN, jogging: RUN,
  treadmill: INDOOR_RUN, treadmillrunning: INDOOR_RUN, runningtreadmill: INDOOR_RUN, indoorrunning: INDOOR_RUN, indoorrun: INDOOR_RUN,
  virtualrun: INDOOR_RUN, virtualrunning: INDOOR_RUN,
  // Cycling
  cycling: CYCLE, biking: CYCLE, bike: CYCLE, ride: CYCLE, roadbiking: CYCLE, roadcycling: CYCLE, roadbike: CYCLE, bikingroad: CYCLE,
  mountainbiking: CYCLE, mountainbike: CYCLE, mountainbikeride: CYCLE, bikingmountain: CYCLE, mtb: CYCLE,
  gravelcycling: CYCLE, gravelride: CYCLE, gravelbike: CYCLE, gravelbiking: CYCLE, cyclocross: CYCLE, bikingcyclecross: CYCLE,
  ebiking: CYCLE, ebike: CYCLE, ebikeride: CYCLE, emountainbikeride: CYCLE, ebikefitness: CYCLE, ebikemountain: CYCLE,
  recumbentcycling: CYCLE, bikingrecumbent: CYCLE, trackcycling: CYCLE, bikingtrack: CYCLE, downhillbiking: CYCLE,
  bmx: CYCLE, velomobile: CYCLE, commuting: CYCLE, bikecommute: CYCLE,
  indoorcycling: INDOOR_CYCLE, indoorbiking: INDOOR_CYCLE, indoorbike: INDOOR_CYCLE, bikingindoor: INDOOR_CYCLE,
  bikingindoortrainer: INDOOR_CYCLE, bikingindoorcyclingclass: INDOOR_CYCLE, spinning: INDOOR_CYCLE, spin: INDOOR_CYCLE,
  virtualride: INDOOR_CYCLE, virtualcycling: INDOOR_CYCLE, virtualbiking: INDOOR_CYCLE,
  // Walking and hiking
  walking: WALK, walk: WALK, casualwalking: WALK, speedwalking: WALK, nordicwalking: WALK, indoorwalking: WALK, indoorwalk: WALK,
  hiking: WALK, hike: WALK, trekking: WALK, mountaineering: WALK, mountainclimb: WALK, snowshoeing: WALK, snowshoe: WALK,
  snowshoetrekking: WALK, snowshoews: WALK, walkingtreadmill: WALK,
  // Skiing (cross-country, skate, backcountry, downhill and roller skis)
  crosscountryskiing: SKI, skiingcrosscountry: SKI, nordicski: SKI, nordicskiing: SKI, xcski: SKI, xcskiing: SKI,
  skateskiing: SKI, classicskiing: SKI, backcountryski: SKI, backcountryskiing: SKI, skitouring: SKI,
  alpineski: SKI, alpineskiing: SKI, downhillskiing: SKI, skiingdownhill: SKI, resortskiing: SKI, skiing: SKI, ski: SKI,
  rollerski: SKI, rollerskiing: SKI, indoorskiing: SKI,
  // Garmin Connect names its winter sports with a '_ws' suffix
  crosscountryskiingws: SKI, skateskiingws: SKI, backcountryskiingsnowboardingws: SKI, backcountryskiingws: SKI,
  resortskiingsnowboardingws: SKI, resortskiingws: SKI,
  // Swimming
  swimming: SWIM, swim: SWIM, lapswimming: SWIM, poolswimming: SWIM, poolswim: SWIM, openwater: SWIM, openwaterswimming: SWIM,
  openwaterswim: SWIM, swimminglap: SWIM, swimmingopenwater: SWIM,
  // Skating on wheels
  inlineskating: SKATE, inlineskate: SKATE, skatinginline: SKATE, rollerskating: SKATE, rollerskate: SKATE,
  // Golf
  golf: { outdoor: 'GOLF' }, discgolf: { outdoor: 'DISCGOLF' },
  // Moving with an assistive device (wheelchair, handbike)
  wheelchair: ASSISTED, wheelchairpushwalk: ASSISTED, wheelchairpushrun: ASSISTED, handcycle: ASSISTED, handcycling: ASSISTED,
  indoorhandcycling: ASSISTED,
  // Strava's GPX exports write the type as a number
  '1': CYCLE, '2': SKI, '3': SKI, '4': WALK, '6': SKATE, '7': SKI, '8': SKI, '9': RUN, '10': WALK, '16': SWIM, '17': INDOOR_CYCLE,
  '18': CYCLE,
};

/** Sub-sports that move a sport indoors (FIT sub_sport, Strava's `trainer` flag passed as 'trainer'). */
const INDOOR = new Set([
  'treadmill', 'indoorrunning', 'indoorcycling', 'spin', 'virtualactivity', 'indoorwalking', 'trainer', 'indoortrainer',
  'indoor', 'virtual', 'indoorhandcycling',
]);

/** Sub-sports that name a sport of their own whatever the sport says (FIT sport 'cycling' + sub-sport 'handCycling'). */
const OWN_SUB_SPORTS: Readonly<Record<string, Preset>> = {
  handcycling: ASSISTED, indoorhandcycling: ASSISTED, indoorskiing: SKI,
};

/**
 * The preset entry type of a sport name and optional sub-sport (any spelling listed above), or
 * null: mapActivityType('running', 'treadmill') === 'INDOOR_RUN'; mapActivityType('road_biking')
 * === 'OUTDOOR_CYCLE'; mapActivityType('VirtualRide') === 'INDOOR_CYCLE'; mapActivityType('9') ===
 * 'OUTDOOR_RUN' (Strava GPX); mapActivityType('Other') === null.
 */
export function mapActivityType(sport: string | number | null | undefined, subSport?: string | null): ActivityType | null {
  const sub = typeof subSport === 'string' ? squash(subSport) : '';
  const own = OWN_SUB_SPORTS[sub];
  if (own) return own.outdoor;
  if (typeof sport !== 'string' && typeof sport !== 'number') return null;
  const preset = BY_SPORT[squash(String(sport))];
  if (!preset) return null;
  return INDOOR.has(sub) && preset.indoor ? preset.indoor : preset.outdoor;
}
