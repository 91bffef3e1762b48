import { describe, expect, it } from 'vitest';
import { mapActivityType } from './sport';

describe('mapActivityType', () => {
  it.each([
    // FIT profile sport / sub_sport as @garmin/fitsdk spells them (Garmin, Wahoo, Coros, Suunto FIT files)
    ['running', null, 'OUTDOOR_RUN'],
    ['running', 'trail', 'OUTDOOR_RUN'],
    ['running', 'treadmill', 'INDOOR_RUN'],
    ['running', 'virtualActivity', 'INDOOR_RUN'],
    ['cycling', 'road', 'OUTDOOR_CYCLE'],
    ['cycling', 'gravelCycling', 'OUTDOOR_CYCLE'],
    ['cycling', 'indoorCycling', 'INDOOR_CYCLE'],
    ['cycling', 'virtualActivity', 'INDOOR_CYCLE'],
    ['cycling', 'handCycling', 'ASSISTIVE_DEVICE'],
    ['eBiking', null, 'OUTDOOR_CYCLE'],
    ['walking', null, 'WALK'],
    ['walking', 'indoorWalking', 'WALK'],
    ['hiking', null, 'WALK'],
    ['crossCountrySkiing', null, 'SKIING'],
    ['alpineSkiing', null, 'SKIING'],
    ['swimming', 'lapSwimming', 'SWIMMING'],
    ['swimming', 'openWater', 'SWIMMING'],
    ['inlineSkating', null, 'ROLLERSKATING'],
    ['wheelchairPushRun', null, 'ASSISTIVE_DEVICE'],
    ['wheelchairPushWalk', null, 'ASSISTIVE_DEVICE'],
    ['golf', null, 'GOLF'],
    ['discGolf', null, 'DISCGOLF'],
    // Garmin Connect activity types
    ['road_biking', null, 'OUTDOOR_CYCLE'],
    ['mountain_biking', null, 'OUTDOOR_CYCLE'],
    ['gravel_cycling', null, 'OUTDOOR_CYCLE'],
    ['indoor_cycling', null, 'INDOOR_CYCLE'],
    ['treadmill_running', null, 'INDOOR_RUN'],
    ['trail_running', null, 'OUTDOOR_RUN'],
    ['lap_swimming', null, 'SWIMMING'],
    ['backcountry_skiing', null, 'SKIING'],
    ['virtual_ride', null, 'INDOOR_CYCLE'],
    ['cross_country_skiing_ws', null, 'SKIING'],
    ['skate_skiing_ws', null, 'SKIING'],
    ['resort_skiing_snowboarding_ws', null, 'SKIING'],
    ['snow_shoe_ws', null, 'WALK'],
    // Polar Flow export
    ['RUNNING', null, 'OUTDOOR_RUN'],
    ['ROAD_BIKING', null, 'OUTDOOR_CYCLE'],
    ['INDOOR_CYCLING', null, 'INDOOR_CYCLE'],
    ['TREADMILL_RUNNING', null, 'INDOOR_RUN'],
    ['NORDIC_WALKING', null, 'WALK'],
    ['SNOWSHOE_TREKKING', null, 'WALK'],
    // Wahoo workout types
    ['BIKING_INDOOR', null, 'INDOOR_CYCLE'],
    ['RUNNING_TREADMILL', null, 'INDOOR_RUN'],
    ['SKIING_CROSS_COUNTRY', null, 'SKIING'],
    ['WALKING_TREADMILL', null, 'WALK'],
    // Suunto app / Movescount
    ['Trail running', null, 'OUTDOOR_RUN'],
    ['Cross-country skiing', null, 'SKIING'],
    ['Mountain biking', null, 'OUTDOOR_CYCLE'],
    ['Indoor cycling', null, 'INDOOR_CYCLE'],
    ['Treadmill', null, 'INDOOR_RUN'],
    // Coros
    ['Indoor Run', null, 'INDOOR_RUN'],
    ['Gravel Bike', null, 'OUTDOOR_CYCLE'],
    ['XC Ski', null, 'SKIING'],
    ['Pool Swim', null, 'SWIMMING'],
    ['Open Water', null, 'SWIMMING'],
    ['Mountain Climb', null, 'WALK'],
    ['E-Bike', null, 'OUTDOOR_CYCLE'],
    // TCX Activity@Sport
    ['Running', null, 'OUTDOOR_RUN'],
    ['Biking', null, 'OUTDOOR_CYCLE'],
    // Strava sport_type and legacy type
    ['Run', null, 'OUTDOOR_RUN'],
    ['TrailRun', null, 'OUTDOOR_RUN'],
    ['VirtualRun', null, 'INDOOR_RUN'],
    ['Ride', null, 'OUTDOOR_CYCLE'],
    ['Ride', 'trainer', 'INDOOR_CYCLE'],
    ['Run', 'trainer', 'INDOOR_RUN'],
    ['GravelRide', null, 'OUTDOOR_CYCLE'],
    ['MountainBikeRide', null, 'OUTDOOR_CYCLE'],
    ['EBikeRide', null, 'OUTDOOR_CYCLE'],
    ['EMountainBikeRide', null, 'OUTDOOR_CYCLE'],
    ['VirtualRide', null, 'INDOOR_CYCLE'],
    ['Velomobile', null, 'OUTDOOR_CYCLE'],
    ['Walk', null, 'WALK'],
    ['Hike', null, 'WALK'],
    ['Snowshoe', null, 'WALK'],
    ['Swim', null, 'SWIMMING'],
    ['NordicSki', null, 'SKIING'],
    ['BackcountrySki', null, 'SKIING'],
    ['AlpineSki', null, 'SKIING'],
    ['RollerSki', null, 'SKIING'],
    ['InlineSkate', null, 'ROLLERSKATING'],
    ['Wheelchair', null, 'ASSISTIVE_DEVICE'],
    ['Handcycle', null, 'ASSISTIVE_DEVICE'],
    ['Golf', null, 'GOLF'],
    // Strava's GPX export writes numbers
    ['1', null, 'OUTDOOR_CYCLE'],
    ['4', null, 'WALK'],
    ['9', null, 'OUTDOOR_RUN'],
    ['10', null, 'WALK'],
    ['16', null, 'SWIMMING'],
    ['17', null, 'INDOOR_CYCLE'],
    [9, null, 'OUTDOOR_RUN'],
  ] as const)('maps %j / %s to %s', (sport, subSport, expected) => {
    expect(mapActivityType(sport, subSport)).toBe(expected);
  });

  it.each(['Other', 'generic', 'transition', 'multisport', 'Workout', 'WeightTraining', 'Yoga', 'Snowboard', 'Rowing', '11', '', null, undefined])('maps %j to null', (sport) => {
    expect(mapActivityType(sport)).toBeNull();
  });
});
